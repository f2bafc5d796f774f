/**
 * The audit CSV export reads the archive for a date range that starts before the table's oldest row: rows that
 * retention moved out of the database still come out for their dates, with the same filters and scope as the
 * table's, after them; a segment that does not hold its signature ends the download instead of being left out.
 */
import assert from 'node:assert/strict';
import { createTestApp, DB_TEST, setSetting, signIn, TEST_AUDIT_SEED, type TestApp } from '../support/app.ts';
import { makeUser } from '../support/factories.ts';
import { FileCheckpointStore } from '../../api/blobs/audit_checkpoint_store.ts';
import { ARCHIVE_FOLDER, FolderArchiveStore } from '../../api/blobs/audit_archive_store.ts';
import { signerFromSeed } from '../../api/domain/audit_signing.ts';
import { writeAuditCheckpoint } from '../../api/domain/audit_checkpoints.ts';

let t: TestApp;
let dir: string;
let archive: FolderArchiveStore;
let admin: string;
let adminId: string;
const signer = await signerFromSeed(TEST_AUDIT_SEED, 'tests');
const DAY = 86_400_000;
const iso = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY).toISOString();

async function exportCsv(query: string): Promise<Response> {
  return await t.app.request(`/api/admin/audit-logs/export.csv?${query}`, {
    headers: { authorization: `Bearer ${admin}` },
  }, { remoteAddr: { hostname: '127.0.0.1', port: 40000, transport: 'tcp' } });
}

/** The `n` of each exported row's event data, in the CSV's order. */
const numbers = (csv: string) => [...csv.matchAll(/""n"": (\d+)/g)].map((m) => Number(m[1]));

Deno.test({
  name: 'export from the archive: setup, 400-day-old rows archived by retention and gone from the table',
  ...DB_TEST,
  fn: async () => {
    dir = await Deno.makeTempDir({ prefix: 'lmp-export-archive-' });
    // The app finds the archive where a server would: DATA_DIR/audit-archive. An empty installation, so the old
    // rows come first in the chain (retention archives its prefix only).
    t = await createTestApp({ DATA_DIR: dir }, { demo: false });
    archive = new FolderArchiveStore(`${dir}/${ARCHIVE_FOLDER}`);
    const store = new FileCheckpointStore(`${dir}/audit-checkpoints.jsonl`);
    await t.deps.sql`
      insert into entities (name, slug, status) values ('Department of Corrections', 'default', 'active')`;
    const user = await makeUser(t, { role: 'admin' });
    adminId = user.id;
    // Thirty old rows a minute apart, every third naming the admin, the rest no user; then recent ones.
    await t.deps.sql`
      insert into audit_logs (created_at, user_id, event_type, resource_type, event_data)
      select now() - interval '400 days' + g * interval '1 minute', case when g % 3 = 0 then ${adminId}::uuid end,
             'old_event', 'test', jsonb_build_object('n', g)
      from generate_series(1, 30) g`;
    await t.deps.sql`
      insert into audit_logs (event_type, resource_type, event_data)
      select 'old_event', 'test', jsonb_build_object('n', 100 + g) from generate_series(1, 3) g`;
    // As the demo installation: no second factor asked of the admin.
    await setSetting(t, 'mfa_required_roles', '');
    admin = await signIn(t, user.username, user.secret);
    await setSetting(t, 'audit_retention_days', 365);
    await writeAuditCheckpoint({ sql: t.deps.sql, signer, store, archive });
    await t.deps.sql`insert into audit_logs (event_type, resource_type) values ('another', 'test')`;
    await writeAuditCheckpoint({ sql: t.deps.sql, signer, store, archive });
    const [{ old }] = await t.deps.sql<{ old: number }[]>`
      select count(*)::int as old from audit_logs where event_type = 'old_event' and (event_data->>'n')::int < 100`;
    assert.equal(old, 0, 'the old rows left the table');
    assert.equal((await archive.list()).length, 1);
  },
});

Deno.test({
  name: 'export from the archive: a range before the oldest row gives the archived rows for their dates',
  ...DB_TEST,
  fn: async () => {
    const r = await exportCsv(`eventType=old_event&startDate=${iso(401)}&endDate=${iso(399)}`);
    assert.equal(r.status, 200);
    const csv = await r.text();
    // Newest first, as the table's rows come.
    assert.deepEqual(numbers(csv), Array.from({ length: 30 }, (_, i) => 30 - i));
    assert.match(csv, /^Date\/Time,User ID,Event Type/);
    // A range from before the archive to now: the table's rows first, then the archived ones.
    const all = await (await exportCsv(`eventType=old_event&startDate=${iso(500)}`)).text();
    assert.deepEqual(numbers(all), [103, 102, 101, ...Array.from({ length: 30 }, (_, i) => 30 - i)]);
    // One user's rows only, as the filter says.
    const mine = await (await exportCsv(`startDate=${iso(500)}&endDate=${iso(300)}&userId=${adminId}`))
      .text();
    assert.deepEqual(numbers(mine), [30, 27, 24, 21, 18, 15, 12, 9, 6, 3]);
    // The export says it read the archive.
    const [{ event_data }] = await t.deps.sql<{ event_data: { archive?: boolean } }[]>`
      select event_data from audit_logs where event_type = 'audit_logs_exported' order by id desc limit 1`;
    assert.equal(event_data.archive, true);
  },
});

Deno.test({
  name:
    'export from the archive: archived rows come out for their dates only; without a start date, the table only',
  ...DB_TEST,
  fn: async () => {
    const recent = await (await exportCsv(`eventType=old_event&startDate=${iso(1)}`)).text();
    assert.deepEqual(numbers(recent), [103, 102, 101]);
    const unbounded = await (await exportCsv('eventType=old_event')).text();
    assert.deepEqual(numbers(unbounded), [103, 102, 101]);
  },
});

Deno.test({
  name: 'export from the archive: a segment changed after archiving ends the download with an error',
  ...DB_TEST,
  fn: async () => {
    const [{ location, segment }] = await archive.list();
    const original = await Deno.readTextFile(location);
    segment!.rows[3].content.event_type = 'something_else';
    await Deno.writeTextFile(location, JSON.stringify(segment));
    try {
      const r = await exportCsv(`eventType=old_event&startDate=${iso(401)}`);
      assert.equal(r.status, 200);
      await assert.rejects(() => r.text());
    } finally {
      await Deno.writeTextFile(location, original);
    }
  },
});

Deno.test({
  name: 'export from the archive: teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  },
});
