import assert from 'node:assert/strict';
import { startEmbedded } from '../../api/db/client.ts';
import { migrate } from '../../api/db/migrate.ts';
import { ROSTER_MESSAGES } from '../../contract/rules/roster.ts';
import { seedDemo } from '../../api/cli/demo_seed.ts';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { testBackend } from '../support/db.ts';

let t: TestApp;
let admin: string;

const loginStatus = async (username: string, password: string) =>
  (await call(t, 'POST', '/api/auth/login', {
    body: { username, password, entity: 'default' },
    ip: '10.7.0.1',
  })).status;
const importCsv = (csv: string | Uint8Array) =>
  call(t, 'POST', '/api/admin/offenders/import', {
    token: admin,
    rawBody: csv,
    headers: { 'content-type': 'text/csv' },
  });
/**
 * Makes the addresses offenders sign in from here the facility's network (a one-time PIN from staff works only
 * there), once: from then on the entity admits offenders from those ranges only.
 */
async function facilityNetwork(): Promise<void> {
  const [{ n }] = await t.deps.sql<{ n: number }[]>`select count(*)::int as n from ip_ranges`;
  if (n > 0) return;
  for (const ipRange of ['10.7.0.0/16', '127.0.0.1']) {
    const r = await call(t, 'POST', '/api/admin/ip-whitelist', { token: admin, body: { ipRange } });
    assert.ok(r.status < 300, JSON.stringify(r.body));
  }
}
const offender = async (docNumber: string) =>
  (await t.deps.sql<{ id: string; first_name: string; last_name: string; password_hash: string }[]>`
    select id, first_name, last_name, password_hash from users where doc_number = ${docNumber}`)[0];

Deno.test({
  name: 'setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    admin = await signIn(t, ...DEMO.admin);
  },
});

Deno.test({
  name: 'an admin adds an offender who can then sign in with DOC number and PIN',
  ...DB_TEST,
  fn: async () => {
    const r = await call(t, 'POST', '/api/admin/offenders', {
      token: admin,
      body: { docNumber: ' 500001 ', firstName: ' Ann ', lastName: 'Lee', pin: '482913' },
    });
    assert.equal(r.status, 201);
    assert.equal(r.body.message, 'Offender added successfully');
    assert.equal(r.body.data.user.doc_number, '500001');
    assert.equal(r.body.data.user.first_name, 'Ann');
    assert.equal(r.body.data.user.role, 'offender');
    assert.equal(r.body.data.user.password_hash, undefined);
    const stored = await offender('500001');
    assert.match(stored.password_hash, /^pbkdf2-sha256-pepper\$[0-9a-f]{8}\$600000\$/);
    assert.equal(await loginStatus('500001', '482913'), 200);
    const [audit] = await t.deps.sql<{ event_data: any }[]>`
    select event_data from audit_logs where event_type = 'user_created' and resource_id = ${stored.id}`;
    assert.deepEqual(audit.event_data, { role: 'offender', docNumber: '500001' });

    const again = await call(t, 'POST', '/api/admin/offenders', {
      token: admin,
      body: { docNumber: '500001', firstName: 'Other', lastName: 'Person', pin: '111111' },
    });
    assert.equal(again.status, 409);
    assert.equal(again.body.message, 'An offender with this DOC number already exists.');
  },
});

Deno.test({
  name: 'adding an offender checks each field with a plain message',
  ...DB_TEST,
  fn: async () => {
    const body = { docNumber: '500002', firstName: 'Ann', lastName: 'Lee', pin: '123456' };
    const cases: [Record<string, unknown>, string][] = [
      [{ docNumber: 'DOC 1' }, ROSTER_MESSAGES.docNumber],
      [{ docNumber: '1'.repeat(33) }, ROSTER_MESSAGES.docNumber],
      [{ firstName: '   ' }, 'First name is required'],
      [{ lastName: '' }, 'Last name is required'],
      [{ firstName: 'x'.repeat(101) }, 'First name must be at most 100 characters'],
      [{ pin: '12345' }, 'PIN must be 6 to 12 digits'],
      [{ pin: '1234' }, 'PIN must be 6 to 12 digits'],
      [{ pin: '' }, ROSTER_MESSAGES.pinRequired],
      [{ pin: 123456 }, 'PIN must be 6 to 12 digits'],
    ];
    for (const [override, message] of cases) {
      const r = await call(t, 'POST', '/api/admin/offenders', {
        token: admin,
        body: { ...body, ...override },
      });
      assert.equal(r.status, 400, JSON.stringify(override));
      assert.equal(r.body.message, message);
    }
    assert.equal(await offender('500002'), undefined);
  },
});

Deno.test({
  name: 'pin_min_length raises the PIN floor for new, reset and imported PINs, and cannot go under 6',
  ...DB_TEST,
  fn: async () => {
    const set = (value: number) =>
      call(t, 'PUT', '/api/admin/settings/pin_min_length', {
        token: admin,
        body: { value: { type: 'number', value } },
      });
    const under = await set(4);
    assert.equal(under.status, 400);
    assert.match(under.body.message, /6 to 12/);
    assert.equal((await set(8)).status, 200);
    try {
      const added = await call(t, 'POST', '/api/admin/offenders', {
        token: admin,
        body: { docNumber: '510001', firstName: 'Ann', lastName: 'Lee', pin: '1234567' },
      });
      assert.equal(added.status, 400);
      assert.equal(added.body.message, 'PIN must be 8 to 12 digits');
      const { id } = await offender(DEMO.offender2[0]);
      const reset = await call(t, 'PUT', `/api/admin/offenders/${id}/pin`, {
        token: admin,
        body: { pin: '7654321' },
      });
      assert.equal(reset.body.message, 'PIN must be 8 to 12 digits');
      const r = await importCsv(
        'doc_number,first_name,last_name,pin\n510002,Ann,Lee,1234567\n510003,Bo,Lee,12345678\n',
      );
      assert.deepEqual(r.body.data.rows, [
        {
          line: 2,
          docNumber: '510002',
          outcome: 'rejected',
          reason: 'PIN must be 8 to 12 digits',
          code: 'pin',
          params: { min: 8, max: 12 },
        },
        { line: 3, docNumber: '510003', outcome: 'added' },
      ]);
    } finally {
      assert.equal((await set(6)).status, 200);
    }
  },
});

Deno.test({
  name: "a PIN reset lifts the DOC number's wait after wrong PINs",
  ...DB_TEST,
  fn: async () => {
    const { id } = await offender(DEMO.offender2[0]);
    for (let i = 0; i < 5; i++) await loginStatus(DEMO.offender2[0], '000000');
    // Wrong PINs make an offender's account wait (api/domain/sign_in_throttle.ts), even for the right PIN.
    assert.equal(await loginStatus(DEMO.offender2[0], DEMO.offender2[1]), 429, 'waiting');
    await facilityNetwork();
    const reset = await call(t, 'PUT', `/api/admin/offenders/${id}/pin`, {
      token: admin,
      body: { pin: '864200' },
    });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    assert.equal(await loginStatus(DEMO.offender2[0], '864200'), 200);
  },
});

Deno.test({
  name: "a PIN reset ends the offender's sessions and only the new PIN works",
  ...DB_TEST,
  fn: async () => {
    await facilityNetwork();
    const token = await signIn(t, ...DEMO.offender);
    const { id } = await offender(DEMO.offender[0]);
    const r = await call(t, 'PUT', `/api/admin/offenders/${id}/pin`, {
      token: admin,
      body: { pin: '975310' },
    });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { success: true, message: 'PIN reset successfully' });
    assert.equal((await call(t, 'GET', '/api/auth/me', { token })).status, 401);
    assert.equal(await loginStatus(DEMO.offender[0], DEMO.offender[1]), 401);
    assert.equal(await loginStatus(DEMO.offender[0], '975310'), 200);
    const [audit] = await t.deps.sql<{ event_data: any }[]>`
    select event_data from audit_logs where event_type = 'user_updated' and resource_id = ${id}`;
    assert.deepEqual(audit.event_data, {
      change: 'pin_reset',
      docNumber: DEMO.offender[0],
      oneTimeHours: 72,
    });
  },
});

Deno.test({
  name: 'a PIN reset refuses a bad PIN (400) and anyone but an offender (404)',
  ...DB_TEST,
  fn: async () => {
    const { id } = await offender(DEMO.offender[0]);
    const bad = await call(t, 'PUT', `/api/admin/offenders/${id}/pin`, {
      token: admin,
      body: { pin: '12a456' },
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.message, 'PIN must be 6 to 12 digits');
    const [attorney] = await t.deps.sql<{ id: string }[]>`select id from users where email = ${
      DEMO.attorney[0]
    }`;
    const staff = await call(t, 'PUT', `/api/admin/offenders/${attorney.id}/pin`, {
      token: admin,
      body: { pin: '123456' },
    });
    assert.equal(staff.status, 404);
    assert.equal(staff.body.message, 'Offender not found.');
    assert.equal(await loginStatus(DEMO.attorney[0], DEMO.attorney[1]), 200);
  },
});

/** Runs `work` while the entity has no active IP range (no facility network), then restores its ranges. */
async function withoutFacilityNetwork(work: () => Promise<void>): Promise<void> {
  const active = await t.deps.sql<{ id: string }[]>`
    update ip_ranges set is_active = false where is_active returning id`;
  try {
    await work();
  } finally {
    for (const { id } of active) await t.deps.sql`update ip_ranges set is_active = true where id = ${id}`;
  }
}

Deno.test({
  name:
    'with no active IP range a PIN reset is refused up front (409), and so is an import row that resets a PIN',
  ...DB_TEST,
  fn: async () => {
    const added = await call(t, 'POST', '/api/admin/offenders', {
      token: admin,
      body: { docNumber: '620001', firstName: 'Ada', lastName: 'Cruz', pin: '111111' },
    });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    const before = await offender('620001');
    const resets = () =>
      t.deps.sql`select 1 from audit_logs where event_type = 'user_updated' and resource_id = ${before.id}`;
    await withoutFacilityNetwork(async () => {
      // The one-time PIN would work nowhere: the admin is told why, and what to do first.
      const r = await call(t, 'PUT', `/api/admin/offenders/${before.id}/pin`, {
        token: admin,
        body: { pin: '222222' },
      });
      assert.equal(r.status, 409, JSON.stringify(r.body));
      assert.deepEqual(r.body, {
        success: false,
        message:
          "A one-time PIN works only on the facility's network, and this entity has no active IP range. Add the facility's IP range in IP Whitelist first, then reset the PIN.",
        code: 'pin_reset_needs_facility_range',
      });
      // A row that resets an existing offender's PIN is rejected whole; a new offender's first PIN is no reset.
      const imported = await importCsv(
        'doc_number,first_name,last_name,pin\n620001,Renamed,Cruz,333333\n620002,Bea,Cruz,444444\n',
      );
      assert.equal(imported.status, 200, JSON.stringify(imported.body));
      assert.deepEqual(imported.body.data.rows, [
        {
          line: 2,
          docNumber: '620001',
          outcome: 'rejected',
          reason: ROSTER_MESSAGES.pinResetNeedsRange,
          code: 'pinResetNeedsRange',
        },
        { line: 3, docNumber: '620002', outcome: 'added' },
      ]);
      const after = await offender('620001');
      assert.deepEqual(after, before, 'nothing of the offender changed');
      assert.equal((await resets()).length, 0, 'no reset audited');
    });
    await facilityNetwork();
    const r = await call(t, 'PUT', `/api/admin/offenders/${before.id}/pin`, {
      token: admin,
      body: { pin: '222222' },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  },
});

Deno.test({
  name: 'a roster import adds, updates and rejects row by row with reasons',
  ...DB_TEST,
  fn: async () => {
    await call(t, 'POST', '/api/admin/offenders', {
      token: admin,
      body: { docNumber: '600001', firstName: 'Old', lastName: 'Name', pin: '111111' },
    });
    const before = await offender('600001');
    const oldSession = await signIn(t, '600001', '111111');
    const csv = '\uFEFF' + [
      'DOC Number,First Name,Last_Name,PIN',
      '600001,"Newer, Jr.",Name,', // existing, no PIN: names change, PIN kept
      '600002,"Quote ""Q""",Lee,246800', // added
      'bad doc,Ann,Lee,123456',
      '600003,,Lee,123456',
      '600004,Ann,Lee,12345', // a 5-digit PIN is too short
      '600002,Dup,Lee,135700',
      '600005,No,Pin,', // new without a PIN
      '"60\n06",Ann,Lee,123456', // a DOC number with a line break
      '"6""7",Ann,Lee,123456', // and with a quote
      '600008,Ann,Lee,999999999999',
    ].join('\r\n') + '\r\n';
    const r = await importCsv(csv);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.success, true);
    assert.equal(r.body.message, 'Roster imported: 2 added, 1 updated, 7 rejected.');
    const { added, updated, rejected, rows } = r.body.data;
    assert.deepEqual([added, updated, rejected], [2, 1, 7]);
    assert.deepEqual(rows, [
      { line: 2, docNumber: '600001', outcome: 'updated' },
      { line: 3, docNumber: '600002', outcome: 'added' },
      {
        line: 4,
        docNumber: 'bad doc',
        outcome: 'rejected',
        reason: 'DOC number must be 1 to 32 letters, digits or hyphens',
        code: 'docNumber',
      },
      {
        line: 5,
        docNumber: '600003',
        outcome: 'rejected',
        reason: 'First name is required',
        code: 'firstName',
      },
      {
        line: 6,
        docNumber: '600004',
        outcome: 'rejected',
        reason: 'PIN must be 6 to 12 digits',
        code: 'pin',
        params: { min: 6, max: 12 },
      },
      {
        line: 7,
        docNumber: '600002',
        outcome: 'rejected',
        reason: 'Duplicate DOC number in the file (first on line 3)',
        code: 'duplicate',
        params: { line: 3 },
      },
      {
        line: 8,
        docNumber: '600005',
        outcome: 'rejected',
        reason: 'PIN is required for a new offender',
        code: 'pinRequired',
      },
      {
        line: 9,
        docNumber: '60\n06',
        outcome: 'rejected',
        reason: 'DOC number must be 1 to 32 letters, digits or hyphens',
        code: 'docNumber',
      },
      {
        line: 11,
        docNumber: '6"7',
        outcome: 'rejected',
        reason: 'DOC number must be 1 to 32 letters, digits or hyphens',
        code: 'docNumber',
      },
      { line: 12, docNumber: '600008', outcome: 'added' },
    ]);
    const updatedRow = await offender('600001');
    assert.deepEqual([updatedRow.first_name, updatedRow.last_name], ['Newer, Jr.', 'Name']);
    assert.equal(updatedRow.password_hash, before.password_hash, 'no PIN in the row keeps the PIN');
    assert.equal(
      (await call(t, 'GET', '/api/auth/me', { token: oldSession })).status,
      200,
      'a names-only update keeps sessions',
    );
    assert.equal((await offender('600002')).first_name, 'Quote "Q"');
    assert.equal(await loginStatus('600002', '246800'), 200);
    assert.equal(await offender('600005'), undefined);

    const [audit] = await t.deps.sql<{ event_data: any; user_id: string }[]>`
    select event_data, user_id from audit_logs where event_type = 'roster_imported' order by id desc limit 1`;
    assert.deepEqual(audit.event_data, { added: 2, updated: 1, rejected: 7, rows: 10, source: 'api' });
  },
});

Deno.test({
  name: "an import that gives an existing offender a PIN ends that offender's sessions and is a PIN reset",
  ...DB_TEST,
  fn: async () => {
    await call(t, 'POST', '/api/admin/offenders', {
      token: admin,
      body: { docNumber: '610001', firstName: 'A', lastName: 'B', pin: '111111' },
    });
    await facilityNetwork();
    const token = await signIn(t, '610001', '111111');
    const r = await importCsv('doc_number,first_name,last_name,pin\n610001,A,B,222222\n');
    assert.deepEqual(r.body.data.rows, [{ line: 2, docNumber: '610001', outcome: 'updated' }]);
    assert.equal((await call(t, 'GET', '/api/auth/me', { token })).status, 401);
    // The file's PIN is a one-time PIN, as an admin's reset (tests/api/pin_reset_descent.test.ts).
    assert.equal(await loginStatus('610001', '222222'), 200);
    assert.equal(await loginStatus('610001', '222222'), 401, 'one sign-in only');
  },
});

Deno.test({
  name: 'a file that is not a roster CSV is refused whole with 400 and a clear message',
  ...DB_TEST,
  fn: async () => {
    const header = 'doc_number,first_name,last_name,pin\n';
    const cases: [string | Uint8Array, string | RegExp][] = [
      ['', ROSTER_MESSAGES.empty],
      ['620001,Ann,Lee,123456\n', ROSTER_MESSAGES.header],
      ['doc,first,last\n620001,Ann,Lee\n', ROSTER_MESSAGES.header],
      [header, ROSTER_MESSAGES.noRows],
      [new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0xff, 0xd8]), ROSTER_MESSAGES.binary],
      [`${header}"620001,Ann,Lee,123456\n`, /never closed/],
      [
        header + Array.from({ length: 50_001 }, (_, i) => `D${i},A,B,`).join('\n'),
        ROSTER_MESSAGES.tooManyRows,
      ],
      [new Uint8Array(5 * 1024 * 1024 + 1).fill(0x41), ROSTER_MESSAGES.tooLarge],
      ['{}', ROSTER_MESSAGES.header],
    ];
    const [{ n: before }] = await t.deps.sql<{ n: number }[]>`select count(*)::int as n from users`;
    for (const [body, message] of cases) {
      const r = await importCsv(body);
      assert.equal(r.status, 400, String(message));
      assert.equal(r.body.success, false);
      if (typeof message === 'string') assert.equal(r.body.message, message);
      else assert.match(r.body.message, message);
    }
    const [{ n: after }] = await t.deps.sql<{ n: number }[]>`select count(*)::int as n from users`;
    assert.equal(after, before);
  },
});

const ROOT = new URL('../../', import.meta.url).pathname;

/** Runs `npm run roster:import -- <args>` as the package script does, against the given database. */
async function runCli(args: string[], env: Record<string, string>) {
  const out = await new Deno.Command(`${ROOT}node_modules/.bin/deno`, {
    args: ['run', '-A', 'api/cli/roster_import.ts', ...args],
    cwd: ROOT,
    env: { LOG_LEVEL: 'silent', ...env },
    stdout: 'piped',
    stderr: 'piped',
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
}

Deno.test({
  name: 'the roster:import command runs the same import and prints the per-row report',
  ...DB_TEST,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: 'lmp-roster-' });
    const file = `${dir}/roster.csv`;
    await Deno.writeTextFile(
      file,
      'doc_number,first_name,last_name,pin\r\n700001,Cli,Added,135790\r\n"70\n02",Bad,Row,123456\r\n',
    );
    const bad = `${dir}/bad.csv`;
    await Deno.writeTextFile(bad, 'not,a,roster\n');
    // The embedded database lives in DATA_DIR; a real server is reached through this file's own test database.
    let env: Record<string, string>;
    // The command hashes PINs under the same pepper as the test app (PIN_PEPPER), so they sign in there too.
    const pepper = { PIN_PEPPER: new TextDecoder().decode(t.deps.pinPepper), DATA_DIR: dir };
    if (testBackend() === 'postgres') env = { ...pepper, DATABASE_URL: t.db.url! };
    else {
      const embedded = await startEmbedded(`${dir}/pgdata`);
      await migrate(embedded.sql);
      await seedDemo(embedded.sql);
      await embedded.close();
      env = pepper;
    }
    try {
      const ok = await runCli([file], env);
      assert.equal(ok.code, 0, ok.stderr);
      assert.equal(
        ok.stdout,
        [
          'line 2\tadded\t"700001"',
          'line 3\trejected\t"70\\n02"\tDOC number must be 1 to 32 letters, digits or hyphens',
          'Roster imported: 1 added, 0 updated, 1 rejected.',
          '',
        ].join('\n'),
      );
      const refused = await runCli([bad], env);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /The first row must be the header/);
      assert.equal((await runCli([], env)).code, 2);

      const check = testBackend() === 'postgres' ? undefined : await startEmbedded(`${dir}/pgdata`);
      const sql = check?.sql ?? t.deps.sql;
      const [row] = await sql<
        { first_name: string }[]
      >`select first_name from users where doc_number = '700001'`;
      assert.equal(row.first_name, 'Cli');
      const [audit] = await sql<{ event_data: any; user_id: string | null }[]>`
      select event_data, user_id from audit_logs where event_type = 'roster_imported' order by id desc limit 1`;
      assert.deepEqual(audit, {
        event_data: { added: 1, updated: 0, rejected: 1, rows: 2, source: 'cli' },
        user_id: null,
      });
      if (!check) assert.equal(await loginStatus('700001', '135790'), 200);
      await check?.close();
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
  },
});
