import assert from 'node:assert/strict';
import { audit_event_types_json, list_audit_event_types } from '../../api/db/audit_search.ts';
import { csvCell, csvRow } from '../../api/domain/csv.ts';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';

let t: TestApp;
let admin: string;

Deno.test({
  name: 'setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    admin = await signIn(t, ...DEMO.admin);
  },
});

/** Inserts audit rows directly (the log accepts inserts only). */
async function insertEvents(
  rows: {
    at?: string;
    type: string;
    userId?: string | null;
    resourceType?: string;
    ip?: string;
    data?: unknown;
  }[],
) {
  for (const r of rows) {
    await t.deps.sql`
      insert into audit_logs (created_at, user_id, event_type, resource_type, ip_address, event_data)
      values (${r.at ?? new Date().toISOString()}, ${r.userId ?? null}, ${r.type}, ${
      r.resourceType ?? 'test'
    },
              ${r.ip ?? '10.0.0.1'}, ${t.deps.sql.json((r.data ?? {}) as never)})`;
  }
}

const logs = (query: string) => call(t, 'GET', `/api/admin/audit-logs${query}`, { token: admin });

/** A strict RFC 4180 parser: the test reads the export the way a spreadsheet would. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 2;
        continue;
      }
      if (ch === '"') {
        quoted = false;
        i++;
        continue;
      }
      cell += ch;
      i++;
      continue;
    }
    if (ch === '"' && cell === '') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else if (ch === '"' || ch === '\n' || ch === '\r') throw new Error(`malformed CSV at ${i}`);
    else cell += ch;
    i++;
  }
  if (cell !== '' || row.length) throw new Error('CSV does not end with CRLF');
  return rows;
}

Deno.test({
  name: 'audit logs are for admins only: 401 without a token, 403 for other roles',
  ...DB_TEST,
  fn: async () => {
    assert.equal((await call(t, 'GET', '/api/admin/audit-logs')).status, 401);
    assert.equal((await call(t, 'GET', '/api/admin/audit-logs/export.csv')).status, 401);
    const attorney = await signIn(t, ...DEMO.attorney);
    assert.equal((await call(t, 'GET', '/api/admin/audit-logs', { token: attorney })).status, 403);
    assert.equal((await call(t, 'GET', '/api/admin/audit-logs/export.csv', { token: attorney })).status, 403);
    const approver = await signIn(t, ...DEMO.approver);
    assert.equal((await call(t, 'GET', '/api/admin/email-outbox', { token: approver })).status, 403);
  },
});

Deno.test({
  name: 'the list is newest first and carries the user name and the distinct event types',
  ...DB_TEST,
  fn: async () => {
    const r = await logs('');
    assert.equal(r.status, 200);
    assert.equal(r.body.success, true);
    const rows = r.body.data.logs;
    assert.ok(rows.length >= 2, 'sign-ins are logged');
    for (let i = 1; i < rows.length; i++) assert.ok(rows[i - 1].created_at >= rows[i].created_at);
    const login = rows.find((l: { event_type: string }) => l.event_type === 'user_login');
    assert.ok(login.user_id && login.user_name, 'a user event names its user');
    for (
      const key of [
        'id',
        'created_at',
        'user_id',
        'event_type',
        'resource_type',
        'resource_id',
        'ip_address',
        'event_data',
      ]
    ) {
      assert.ok(key in login, key);
    }
    assert.ok(r.body.data.eventTypes.includes('user_login'));
  },
});

Deno.test({
  name: 'date filters take whole UTC days (or ISO timestamps), inclusive at both ends',
  ...DB_TEST,
  fn: async () => {
    await insertEvents([
      { at: '2025-01-04T23:59:59.999Z', type: 'day_test' },
      { at: '2025-01-05T00:00:00Z', type: 'day_test' },
      { at: '2025-01-05T23:59:59.999Z', type: 'day_test' },
      { at: '2025-01-06T00:00:00Z', type: 'day_test' },
    ]);
    const day = await logs('?eventType=day_test&startDate=2025-01-05&endDate=2025-01-05');
    assert.deepEqual(day.body.data.logs.map((l: { created_at: string }) => l.created_at), [
      '2025-01-05T23:59:59.999Z',
      '2025-01-05T00:00:00.000Z',
    ]);
    const from = await logs('?eventType=day_test&startDate=2025-01-05');
    assert.equal(from.body.data.logs.length, 3);
    const until = await logs('?eventType=day_test&endDate=2025-01-04');
    assert.equal(until.body.data.logs.length, 1);
    const iso = await logs(
      `?eventType=day_test&startDate=${encodeURIComponent('2025-01-05T00:00:00Z')}` +
        `&endDate=${encodeURIComponent('2025-01-06T00:00:00Z')}`,
    );
    assert.equal(iso.body.data.logs.length, 3);
    const zoned = await logs(
      `?eventType=day_test&startDate=${encodeURIComponent('2025-01-05T18:00:00-06:00')}`,
    );
    assert.equal(zoned.body.data.logs.length, 1, 'an offset is honoured: 18:00 CST is midnight UTC');
  },
});

Deno.test({
  name: 'event type and user id filters run on the server; event types list the whole log',
  ...DB_TEST,
  fn: async () => {
    const [someone] = await t.deps.sql<
      { id: string }[]
    >`select id from users where email = 'attorney@demo.test'`;
    await insertEvents([
      { type: 'filter_test', userId: someone.id },
      { type: 'filter_test', userId: null },
      { type: 'other_filter_test', userId: someone.id },
    ]);
    const byType = await logs('?eventType=filter_test');
    assert.equal(byType.body.data.logs.length, 2);
    assert.ok(byType.body.data.logs.every((l: { event_type: string }) => l.event_type === 'filter_test'));
    const both = await logs(`?eventType=filter_test&userId=${someone.id}`);
    assert.equal(both.body.data.logs.length, 1);
    assert.equal(both.body.data.logs[0].user_name, 'Atticus Counsel');
    const upper = await logs(`?userId=${someone.id.toUpperCase()}`);
    assert.ok(upper.body.data.logs.every((l: { user_id: string }) => l.user_id === someone.id));
    assert.ok(byType.body.data.eventTypes.includes('other_filter_test'), 'types beyond the page are listed');
    const none = await logs('?eventType=never_happened');
    assert.deepEqual(none.body.data.logs, []);
    assert.equal(none.body.data.nextCursor, null);
  },
});

Deno.test({
  name: 'bad filters are refused with 400 and a readable message',
  ...DB_TEST,
  fn: async () => {
    const cases: [string, RegExp][] = [
      ['?startDate=2025-02-30', /Start date must be a date/],
      ['?startDate=yesterday', /Start date must be a date/],
      ['?endDate=2025-13-01', /End date must be a date/],
      ['?endDate=2025-01-05T10:00:00', /End date must be a date/],
      ['?startDate=2025-01-06&endDate=2025-01-05', /Start date must not be after the end date/],
      ['?userId=42', /User ID must be a user id/],
      ['?eventType=DROP%20TABLE', /Event type must be/],
      ['?limit=0', /Limit must be a number from 1 to 200/],
      ['?limit=abc', /Limit must be a number from 1 to 200/],
      ['?cursor=abc', /cursor is not valid/],
      ['?startDate=2025-01-01&startDate=2025-01-02', /Start date must be given once/],
    ];
    for (const [query, message] of cases) {
      const r = await logs(query);
      assert.equal(r.status, 400, query);
      assert.equal(r.body.success, false);
      assert.match(r.body.message, message, query);
    }
    const csv = await call(t, 'GET', '/api/admin/audit-logs/export.csv?userId=nope', { token: admin });
    assert.equal(csv.status, 400);
    assert.match(csv.body.message, /User ID must be a user id/);
  },
});

Deno.test({
  name: 'pages of 50 follow a keyset cursor without repeats or gaps, even for equal timestamps',
  ...DB_TEST,
  fn: async () => {
    // 120 rows with the same timestamp: only the id breaks the tie.
    await t.deps.sql`
    insert into audit_logs (created_at, event_type, resource_type, event_data)
    select '2024-06-01T12:00:00Z', 'paging_test', 'test', jsonb_build_object('n', n) from generate_series(1, 120) n`;
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const r = await logs(`?eventType=paging_test${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(r.status, 200);
      sizes.push(r.body.data.logs.length);
      seen.push(...r.body.data.logs.map((l: { id: string }) => l.id));
      cursor = r.body.data.nextCursor;
    }
    assert.deepEqual(sizes, [50, 50, 20]);
    assert.equal(new Set(seen).size, 120);
    const ids = seen.map(BigInt);
    for (let i = 1; i < ids.length; i++) assert.ok(ids[i - 1] > ids[i], 'newest (highest id) first');
    const small = await logs('?eventType=paging_test&limit=7');
    assert.equal(small.body.data.logs.length, 7);
  },
});

Deno.test({
  name: 'csv cells are quoted when needed and formulas are neutralised',
  fn: () => {
    assert.equal(csvCell('plain'), 'plain');
    assert.equal(csvCell(null), '');
    assert.equal(csvCell('a,b'), '"a,b"');
    assert.equal(csvCell('say "hi"'), '"say ""hi"""');
    assert.equal(csvCell('line1\nline2'), '"line1\nline2"');
    assert.equal(csvCell('=1+1'), "'=1+1");
    assert.equal(csvCell('+1'), "'+1");
    assert.equal(csvCell('-2'), "'-2");
    assert.equal(csvCell('@SUM(A1)'), "'@SUM(A1)");
    assert.equal(csvCell('=HYPERLINK("x","y")'), `"'=HYPERLINK(""x"",""y"")"`);
    assert.equal(csvRow(['a', 'b']), 'a,b\r\n');
  },
});

Deno.test({
  name: 'the csv export streams the filtered set with user values that cannot break a row',
  ...DB_TEST,
  fn: async () => {
    const nasty = 'A1\n"B", C';
    await insertEvents([
      {
        at: '2025-03-01T10:00:00Z',
        type: 'csv_test',
        resourceType: `doc,"${nasty}"`,
        data: { docNumber: nasty },
      },
      {
        at: '2025-03-01T11:00:00Z',
        type: 'csv_test',
        resourceType: '=HYPERLINK("http://evil.example")',
        ip: '-1+1',
      },
      { at: '2025-03-01T12:00:00Z', type: 'csv_test', resourceType: '@cmd', ip: '+1' },
    ]);
    const response = await t.app.request('/api/admin/audit-logs/export.csv?eventType=csv_test', {
      headers: { authorization: `Bearer ${admin}` },
    }, { remoteAddr: { hostname: '127.0.0.1', port: 40000, transport: 'tcp' } });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/csv/);
    assert.match(
      response.headers.get('content-disposition') ?? '',
      /^attachment; filename="audit-logs-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const rows = parseCsv(await response.text());
    assert.deepEqual(rows[0], [
      'Date/Time',
      'User ID',
      'Event Type',
      'Resource Type',
      'IP Address',
      'Event Data',
    ]);
    assert.equal(rows.length, 4, 'header and three rows: the newline and quotes stayed inside their cells');
    const [, third, second, first] = rows;
    assert.equal(first[0], '2025-03-01T10:00:00.000Z');
    assert.equal(first[3], `doc,"${nasty}"`);
    assert.deepEqual(JSON.parse(first[5]), { docNumber: nasty });
    assert.equal(second[3], `'=HYPERLINK("http://evil.example")`);
    assert.equal(second[4], "'-1+1");
    assert.equal(third[3], "'@cmd");
    assert.equal(third[4], "'+1");
    for (const row of rows) assert.equal(row.length, 6);
  },
});

Deno.test({
  name: 'the export covers every matching row across batches and is itself audited',
  ...DB_TEST,
  fn: async () => {
    await t.deps.sql`
    insert into audit_logs (created_at, event_type, resource_type, event_data)
    select now() - make_interval(secs => n), 'bulk_export_test', 'test', jsonb_build_object('n', n)
    from generate_series(1, 2345) n`;
    const r = await call(t, 'GET', '/api/admin/audit-logs/export.csv?eventType=bulk_export_test', {
      token: admin,
    });
    assert.equal(r.status, 200);
    const rows = parseCsv(r.body as string);
    assert.equal(rows.length, 2346);
    assert.deepEqual(
      rows.slice(1).map((row) => JSON.parse(row[5]).n),
      Array.from({ length: 2345 }, (_, i) => i + 1),
    );
    const audited = await logs('?eventType=audit_logs_exported');
    assert.ok(audited.body.data.logs.length >= 1);
    assert.deepEqual(audited.body.data.logs[0].event_data.filters, { eventType: 'bulk_export_test' });
  },
});

Deno.test({
  name: "a page's event types ride in the session check: the same list, in order, and only to an admin",
  ...DB_TEST,
  fn: async () => {
    await insertEvents([{ type: 'zz_carried_type' }, { type: 'aa_carried_type' }]);
    const r = await logs('?eventType=user_login');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    // What the session check carried is what a statement of its own reads, whatever the page's filter.
    assert.deepEqual(r.body.data.eventTypes, await list_audit_event_types(t.deps.sql));
    assert.equal(r.body.data.eventTypes[0], 'aa_carried_type');
    const [carried] = await t.deps.sql<{ types: string[] }[]>`select ${
      audit_event_types_json(t.deps.sql)
    } as types`;
    assert.deepEqual(carried.types, r.body.data.eventTypes);
    // Read before the role is known, it reaches no one else: not another role, not an ended session.
    const attorney = await signIn(t, ...DEMO.attorney);
    const refused = await call(t, 'GET', '/api/admin/audit-logs', { token: attorney });
    assert.equal(refused.status, 403);
    assert.ok(!JSON.stringify(refused.body).includes('carried_type'));
    const ended = await signIn(t, ...DEMO.admin);
    assert.equal((await call(t, 'POST', '/api/auth/logout', { token: ended })).status, 200);
    const lapsed = await call(t, 'GET', '/api/admin/audit-logs', { token: ended });
    assert.equal(lapsed.status, 401);
    assert.ok(!JSON.stringify(lapsed.body).includes('carried_type'));
  },
});

Deno.test({
  name: 'the database refuses UPDATE, DELETE and TRUNCATE on the audit log',
  ...DB_TEST,
  fn: async () => {
    const [row] = await t.deps.sql<{ id: string }[]>`select id from audit_logs limit 1`;
    assert.ok(row);
    await assert.rejects(
      t.deps.sql`update audit_logs set event_type = 'tampered' where id = ${row.id}`,
      /append-only/,
    );
    await assert.rejects(t.deps.sql`delete from audit_logs where id = ${row.id}`, /append-only/);
    await assert.rejects(t.deps.sql`delete from audit_logs`, /append-only/);
    await assert.rejects(t.deps.sql`truncate audit_logs`, /append-only/);
    const [still] = await t.deps.sql<
      { event_type: string }[]
    >`select event_type from audit_logs where id = ${row.id}`;
    assert.notEqual(still.event_type, 'tampered');
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
  },
});
