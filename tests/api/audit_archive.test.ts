/**
 * Audit retention: rows past audit_retention_days (never under 365) that a checkpoint covers leave the table as
 * signed segments of the chain in the archive; verification covers archive and table as one chain, and a segment
 * changed or missing fails it. The API's role cannot delete audit rows any other way.
 */
import assert from 'node:assert/strict';
import { createTestApp, DB_TEST, setSetting, TEST_AUDIT_SEED, type TestApp } from '../support/app.ts';
import { FileCheckpointStore } from '../../api/blobs/audit_checkpoint_store.ts';
import { FolderArchiveStore } from '../../api/blobs/audit_archive_store.ts';
import { signerFromSeed } from '../../api/domain/audit_signing.ts';
import { writeAuditCheckpoint } from '../../api/domain/audit_checkpoints.ts';
import { verifyAuditLog } from '../../api/domain/audit_verify.ts';

let t: TestApp;
let dir: string;
let store: FileCheckpointStore;
let archive: FolderArchiveStore;
const signer = await signerFromSeed(TEST_AUDIT_SEED, 'tests');
const verify = async () =>
  await verifyAuditLog(t.deps.sql, {
    stored: await store.list(),
    segments: await archive.list(),
    trustedKeys: [signer.publicKey],
  });

Deno.test({
  name: 'archive: setup with 400-day-old rows, then recent ones',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp({}, { demo: false });
    dir = await Deno.makeTempDir({ prefix: 'lmp-archive-' });
    store = new FileCheckpointStore(`${dir}/audit-checkpoints.jsonl`);
    archive = new FolderArchiveStore(`${dir}/audit-archive`);
    await t.deps.sql`
      insert into audit_logs (created_at, event_type, resource_type, event_data)
      select now() - interval '400 days' + g * interval '1 minute', 'old_event', 'test', jsonb_build_object('n', g)
      from generate_series(1, 30) g`;
    await t.deps.sql`
      insert into audit_logs (event_type, resource_type, event_data)
      select 'recent_event', 'test', jsonb_build_object('n', g) from generate_series(1, 10) g`;
  },
});

Deno.test({
  name: 'archive: the retention setting cannot go under 365 days',
  ...DB_TEST,
  fn: async () => {
    const { SETTINGS } = await import('../../contract/settings.ts');
    assert.equal((SETTINGS as Record<string, { min?: number }>).audit_retention_days.min, 365);
  },
});

Deno.test({
  name: 'archive: rows past retention are archived and gone from the table; verification covers both',
  ...DB_TEST,
  fn: async () => {
    // The default keeps seven years: nothing leaves.
    await writeAuditCheckpoint({ sql: t.deps.sql, signer, store, archive });
    assert.deepEqual(await archive.list(), []);
    await setSetting(t, 'audit_retention_days', 365);
    await t.deps.sql`insert into audit_logs (event_type, resource_type) values ('another', 'test')`;
    await writeAuditCheckpoint({ sql: t.deps.sql, signer, store, archive });
    const [{ old, all }] = await t.deps.sql<{ old: number; all: number }[]>`
      select count(*) filter (where event_type = 'old_event')::int as old, count(*)::int as all from audit_logs`;
    assert.equal(old, 0, 'the old rows left the table');
    assert.ok(all >= 11);
    const segments = await archive.list();
    assert.equal(segments.length, 1);
    assert.equal(segments[0].segment!.rows.length, 30);
    const report = await verify();
    assert.ok(report.ok, report.message);
    assert.equal(report.rowsChecked, 30 + all);
  },
});

Deno.test({
  name:
    'archive: the API cannot delete audit rows outside archiving; a changed or missing segment fails verification',
  ...DB_TEST,
  fn: async () => {
    await assert.rejects(
      () => t.deps.sql`delete from audit_logs where event_type = 'recent_event'`,
      /append-only/,
    );
    await assert.rejects(() => t.deps.sql`select archive_audit_rows(35)`, /no archive segment ends/);
    const [{ location, segment }] = await archive.list();
    const original = await Deno.readTextFile(location);
    segment!.rows[3].content.ip_address = '203.0.113.5';
    await Deno.writeTextFile(location, JSON.stringify(segment));
    let report = await verify();
    assert.equal(report.ok, false);
    assert.match(report.firstProblem!, /does not match its signature/);
    await Deno.remove(location);
    report = await verify();
    assert.equal(report.ok, false);
    assert.match(
      report.problems.join('\n'),
      /chain positions 1 to 30 are missing|does not continue the chain/,
    );
    await Deno.writeTextFile(location, original);
    report = await verify();
    assert.ok(report.ok, report.message);
  },
});

Deno.test({
  name: 'archive: teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  },
});
