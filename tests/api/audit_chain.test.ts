/**
 * The audit log's hash chain and its signed checkpoints: every row chained once, in one order, whatever the
 * writers; a row changed (even by a superuser with the triggers off), removed, inserted behind the chain's back,
 * or a chain rewritten to hide it, is named by verification, with the last checkpoint that still holds.
 */
import assert from 'node:assert/strict';
import { call, createTestApp, DB_TEST, DEMO, signIn, TEST_AUDIT_SEED, type TestApp } from '../support/app.ts';
import { FileCheckpointStore } from '../../api/blobs/audit_checkpoint_store.ts';
import { signerFromSeed } from '../../api/domain/audit_signing.ts';
import { writeAuditCheckpoint } from '../../api/domain/audit_checkpoints.ts';
import { extendAuditChain } from '../../api/domain/audit_chain.ts';
import { verifyAuditLog } from '../../api/domain/audit_verify.ts';
import { insert_audit_event } from '../../api/db/audit.ts';
import { insert_audit_verification } from '../../api/db/audit_chain.ts';

let t: TestApp;
let dir: string;
let store: FileCheckpointStore;
const signer = await signerFromSeed(TEST_AUDIT_SEED, 'tests');

const checkpoint = () => writeAuditCheckpoint({ sql: t.deps.sql, signer, store });
const verify = async () =>
  await verifyAuditLog(t.deps.sql, { stored: await store.list(), trustedKeys: [signer.publicKey] });
/** A superuser's change with the append-only triggers off (session_replication_role skips every trigger). */
const asSuperuser = (change: (tx: typeof t.deps.sql) => Promise<unknown>) =>
  t.deps.sql.begin(async (tx) => {
    await tx`set local session_replication_role = replica`;
    await change(tx as unknown as typeof t.deps.sql);
  });
const event = (n: number) =>
  insert_audit_event(t.deps.sql, {
    userId: null,
    eventType: 'chain_test',
    resourceType: 'test',
    ipAddress: '10.0.0.1',
    eventData: { n, text: 'é "quoted" \u2028', nested: { b: 1, a: [1.5, null] } },
  });

Deno.test({
  name: 'setup: an installation with activity, and rows from before the chain existed',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    dir = await Deno.makeTempDir({ prefix: 'lmp-audit-' });
    store = new FileCheckpointStore(`${dir}/audit-checkpoints.jsonl`);
    await signIn(t, ...DEMO.admin);
    await signIn(t, ...DEMO.offender);
    for (let n = 0; n < 5; n++) await event(n);
  },
});

Deno.test({
  name: 'the first checkpoint chains every existing row in id order and verification holds',
  ...DB_TEST,
  fn: async () => {
    const [{ n }] = await t.deps.sql<{ n: number }[]>`select count(*)::int as n from audit_logs`;
    const result = await checkpoint();
    assert.ok(result.written);
    assert.equal(result.checkpoint.size, n);
    const order = await t.deps.sql<{ audit_id: string }[]>`
      select audit_id::text from audit_chain order by position`;
    const ids = order.map((r) => BigInt(r.audit_id));
    assert.deepEqual(ids, [...ids].sort((a, b) => (a < b ? -1 : 1)));
    // Nothing new: no second checkpoint.
    assert.equal((await checkpoint()).written, false);
    const report = await verify();
    assert.ok(report.ok, report.message);
    assert.equal(report.rowsChecked, n);
    assert.equal(report.checkpointsChecked, 1);
  },
});

Deno.test({
  name: 'concurrent writers and two chain jobs at once: each row chained once, the chain verifies',
  ...DB_TEST,
  fn: async () => {
    const writes = Array.from({ length: 40 }, (_, i) => event(100 + i));
    const chains = [extendAuditChain(t.deps.sql), extendAuditChain(t.deps.sql)];
    await Promise.all([...writes, ...chains]);
    await checkpoint();
    const [{ rows, chained, distinct }] = await t.deps.sql<
      { rows: number; chained: number; distinct: number }[]
    >`
      select (select count(*)::int from audit_logs) as rows, count(*)::int as chained,
             count(distinct audit_id)::int as distinct from audit_chain`;
    assert.equal(chained, rows);
    assert.equal(distinct, rows);
    const report = await verify();
    assert.ok(report.ok, report.message);
  },
});

Deno.test({
  name: 'the API role cannot change or remove a chain link (append-only, like the log)',
  ...DB_TEST,
  fn: async () => {
    await assert.rejects(
      () => t.deps.sql`update audit_chain set row_hash = 'x' where position = 1`,
      /append-only/,
    );
    await assert.rejects(() => t.deps.sql`delete from audit_chain where position = 1`, /append-only/);
  },
});

Deno.test({
  name: 'a row a superuser changes with the triggers off is named, with the last checkpoint that holds',
  ...DB_TEST,
  fn: async () => {
    await event(200);
    await checkpoint();
    const [{ id, position }] = await t.deps.sql<{ id: string; position: number }[]>`
      select audit_id::text as id, position::int from audit_chain order by position limit 1 offset 3`;
    await asSuperuser((tx) => tx`update audit_logs set ip_address = '192.0.2.66' where id = ${id}`);
    const report = await verify();
    assert.equal(report.ok, false);
    assert.match(report.firstProblem!, new RegExp(`^row ${id} \\(chain position ${position}\\) was changed`));
    // Every checkpoint covers position 4, so none holds.
    assert.equal(report.lastGoodCheckpoint, undefined);
    await asSuperuser((tx) =>
      tx`update audit_logs set ip_address = (select ip_address from audit_logs where false) where id = ${id}`
    );
  },
});

Deno.test({
  name: 'a row removed from the middle is named; a chain recomputed to hide a change breaks the checkpoint',
  ...DB_TEST,
  fn: async () => {
    t = await fresh();
    for (let n = 0; n < 10; n++) await event(n);
    await checkpoint();
    const first = (await store.list()).at(-1)!.checkpoint!;
    for (let n = 10; n < 20; n++) await event(n);
    await checkpoint();
    const [{ id, position }] = await t.deps.sql<{ id: string; position: number }[]>`
      select audit_id::text as id, position::int from audit_chain where position = 15`;
    await asSuperuser((tx) => tx`delete from audit_logs where id = ${id}`);
    let report = await verify();
    assert.equal(report.ok, false);
    assert.equal(report.firstProblem, `row ${id} (chain position ${position}) was removed from audit_logs`);
    assert.equal(report.lastGoodCheckpoint?.size, first.size);

    // Someone with the database rewrites a row and every link after it, as the chain job would have.
    t = await fresh();
    for (let n = 0; n < 10; n++) await event(n);
    await checkpoint();
    const [victim] = await t.deps.sql<{ id: string }[]>`
      select audit_id::text as id from audit_chain where position = 4`;
    await asSuperuser(async (tx) => {
      await tx`update audit_logs set event_data = '{"n": "rewritten"}' where id = ${victim.id}`;
      await tx`delete from audit_chain`;
    });
    await extendAuditChain(t.deps.sql);
    report = await verify();
    assert.equal(report.ok, false);
    assert.match(report.firstProblem!, /the checkpoint of .* \(10 rows\) does not hold/);
  },
});

Deno.test({
  name: 'a row inserted behind the chain, with an old id and date, is named',
  ...DB_TEST,
  fn: async () => {
    t = await fresh();
    for (let n = 0; n < 5; n++) await event(n);
    const [{ gap }] = await t.deps.sql<{ gap: string }[]>`select (min(id) + 1)::text as gap from audit_logs`;
    await asSuperuser((tx) => tx`delete from audit_logs where id = ${gap}`);
    await checkpoint();
    await asSuperuser((tx) =>
      tx`insert into audit_logs (id, created_at, event_type, resource_type)
         overriding system value values (${gap}, now() - interval '2 days', 'user_login', 'user')`
    );
    const report = await verify();
    assert.equal(report.ok, false);
    assert.match(
      report.firstProblem!,
      new RegExp(`^row ${gap} .* is not in the chain though later rows are`),
    );
  },
});

Deno.test({
  name: 'a checkpoint changed in its file fails its signature; one from another key is not trusted',
  ...DB_TEST,
  fn: async () => {
    t = await fresh();
    await event(1);
    await checkpoint();
    const text = await Deno.readTextFile(store.where);
    const line = JSON.parse(text.trim());
    await Deno.writeTextFile(
      store.where,
      JSON.stringify({ ...line, size: line.size }).replace(line.signedAt, '2020-01-01T00:00:00.000Z') + '\n',
    );
    let report = await verify();
    assert.equal(report.ok, false);
    assert.match(report.firstProblem!, /does not match its signature/);
    const other = await signerFromSeed('b2'.repeat(32), 'other');
    await Deno.writeTextFile(store.where, '');
    await writeAuditCheckpoint({
      sql: t.deps.sql,
      signer: other,
      store: new FileCheckpointStore(store.where),
    })
      .catch(() => {});
    await t.deps.sql`insert into audit_logs (event_type, resource_type) values ('x', 'y')`;
    await writeAuditCheckpoint({
      sql: t.deps.sql,
      signer: other,
      store: new FileCheckpointStore(store.where),
    });
    report = await verify();
    assert.match(report.firstProblem!, /signed by another key/);
  },
});

Deno.test({
  name: 'GET /api/audit/public-key serves the key; the integrity route shows the last verification',
  ...DB_TEST,
  fn: async () => {
    t = await fresh({ demo: true });
    await checkpoint();
    const key = await call(t, 'GET', '/api/audit/public-key');
    assert.equal(key.status, 200);
    assert.equal(key.body.data.publicKey, signer.publicKey);
    assert.equal(key.body.data.algorithm, 'Ed25519');
    assert.match(key.body.data.fingerprint, /^[0-9a-f]{16}$/);
    const admin = await signIn(t, ...DEMO.admin);
    let integrity = await call(t, 'GET', '/api/admin/audit-logs/integrity', { token: admin });
    assert.equal(integrity.status, 200);
    assert.equal(integrity.body.data.lastVerification, null);
    await insert_audit_verification(t.deps.sql, {
      ok: false,
      rowsChecked: 12,
      checkpointsChecked: 2,
      message: 'row 7 (chain position 7) was changed after it was chained',
    });
    integrity = await call(t, 'GET', '/api/admin/audit-logs/integrity', { token: admin });
    assert.equal(integrity.body.data.lastVerification.ok, false);
    assert.equal(integrity.body.data.lastVerification.rowsChecked, 12);
    assert.match(integrity.body.data.lastCheckpoint.signedAt, /^\d{4}-/);
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  },
});

/** A new installation and an empty checkpoint file, the previous one closed. */
async function fresh(options: { demo?: boolean } = {}): Promise<TestApp> {
  await t.close();
  await Deno.writeTextFile(store.where, '');
  return await createTestApp({}, { demo: options.demo ?? false });
}
