/**
 * `npm run seed:scale` (bench/seed_scale.ts) at SCALE=0.001 on a fresh PostgreSQL database: the row counts it
 * promises, real blobs behind the rows, and a busiest sender, an offender and an admin who sign in with the printed
 * secrets and whose lists the API returns. It refuses the embedded database and a database that has users.
 * PostgreSQL only (the seed is): ignored on PGlite.
 */
import assert from 'node:assert/strict';
import { createApp } from '../../api/app.ts';
import { createBlobStore } from '../../api/blobs/store.ts';
import { loadConfig } from '../../api/config.ts';
import type { AppDeps } from '../../api/deps.ts';
import { countRows, SCALE_ACCOUNTS, scaleCounts } from '../../bench/seed_scale.ts';
import { call, DB_TEST, type TestApp } from '../support/app.ts';
import { createTestDatabase, testBackend, type TestDatabase } from '../support/db.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const PEPPER = 'seed-scale-test-pepper-0123456789abcdef';
const ignore = testBackend() !== 'postgres';

/** Runs the seed script as `npm run seed:scale` does; returns its exit code and output. */
async function runSeed(env: Record<string, string>): Promise<{ code: number; out: string }> {
  const { code, stdout, stderr } = await new Deno.Command(`${ROOT}node_modules/.bin/deno`, {
    args: ['run', '-A', 'bench/seed_scale.ts'],
    cwd: ROOT,
    clearEnv: true,
    env: { PATH: Deno.env.get('PATH') ?? '', HOME: Deno.env.get('HOME') ?? '', ...env },
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code, out: decode(stdout) + decode(stderr) };
}

let db: TestDatabase;
let dataDir: string;
let t: TestApp;

Deno.test({
  name: 'seed:scale refuses to run without a PostgreSQL DATABASE_URL, with a plain message',
  ignore,
  fn: async () => {
    const r = await runSeed({ SCALE: '0.001' });
    assert.equal(r.code, 1);
    assert.match(r.out, /PostgreSQL database only: set DATABASE_URL/);
    assert.doesNotMatch(r.out, /\bat .*\.ts:\d+/, 'no stack trace');
  },
});

Deno.test({
  name: 'seed:scale at SCALE=0.001 fills an empty database with the promised row counts',
  ignore,
  ...DB_TEST,
  fn: async () => {
    db = await createTestDatabase({ migrate: false });
    dataDir = await Deno.makeTempDir({ prefix: 'lmp-seed-scale-' });
    const r = await runSeed({ DATABASE_URL: db.url!, SCALE: '0.001', DATA_DIR: dataDir, PIN_PEPPER: PEPPER });
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /audit_logs\s+10,000 rows/);
    assert.match(r.out, new RegExp(`PIN_PEPPER=${PEPPER}`));
    const expected = scaleCounts(0.001);
    const rows = await countRows(db.sql);
    assert.equal(rows.offenders, expected.offenders);
    assert.equal(rows.attorneys, expected.attorneys);
    assert.equal(rows.representatives, expected.representatives);
    assert.equal(rows.documents, expected.documents);
    assert.equal(rows.busiest_sender_documents, expected.busiestDocuments);
    assert.equal(rows.audit_rows, expected.auditRows);
    assert.equal(rows.distinct_blobs, 4);
    assert.ok(rows.accepted_links >= 1, 'some representatives have an accepted supervisor');
    assert.ok(rows.shared_with_supervisor > 0, 'their documents are shared with that supervisor');
    // Audit rows span years, oldest first (ids rise with time).
    const [span] = await db.sql<{ years: number; ordered: boolean }[]>`
      select extract(epoch from max(created_at) - min(created_at)) / (365 * 86400) as years,
             bool_and(created_at >= prev) as ordered
      from (select created_at, lag(created_at, 1, '-infinity') over (order by id) as prev from audit_logs) a`;
    assert.ok(Number(span.years) > 6.9, `audit rows span ${span.years} years`);
    assert.equal(span.ordered, true);
  },
});

Deno.test({
  name: 'seed:scale refuses a database that already has users',
  ignore,
  fn: async () => {
    const r = await runSeed({ DATABASE_URL: db.url!, SCALE: '0.001', DATA_DIR: dataDir, PIN_PEPPER: PEPPER });
    assert.equal(r.code, 1);
    assert.match(r.out, /fills only an empty one/);
  },
});

Deno.test({
  name:
    "the seeded busiest sender, an offender and the admin sign in; the API returns their lists and a PDF's bytes",
  ignore,
  ...DB_TEST,
  fn: async () => {
    const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir, PIN_PEPPER: PEPPER });
    const deps: AppDeps = {
      sql: db.sql,
      config,
      signingKey: new TextEncoder().encode('test-secret-'.repeat(4)),
      pinPepper: new TextEncoder().encode(PEPPER),
      mfaKey: new TextEncoder().encode(PEPPER),
      blobs: createBlobStore({ blobStore: 'fs', dataDir }, db),
    };
    t = { app: createApp(deps), deps, db, blobDir: dataDir, close: async () => {} };
    const login = async (username: string, password: string) => {
      const r = await call(t, 'POST', '/api/auth/login', { body: { username, password, entity: 'default' } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body.token as string;
    };

    const attorney = await login(SCALE_ACCOUNTS.busiestSender, SCALE_ACCOUNTS.staffPassword);
    const sent = await call(t, 'GET', '/api/documents/attorney', { token: attorney });
    assert.equal(sent.status, 200);
    assert.equal(sent.body.documents.length, scaleCounts(0.001).busiestDocuments);

    const offender = await login(SCALE_ACCOUNTS.firstOffender, SCALE_ACCOUNTS.offenderPin);
    const mail = await call(t, 'GET', `/api/documents/offender/${SCALE_ACCOUNTS.firstOffender}`, {
      token: offender,
    });
    assert.equal(mail.status, 200);
    assert.ok(mail.body.documents.length > 0);
    const view = await t.app.request(`/api/documents/view/${mail.body.documents[0].id}`, {
      headers: { authorization: `Bearer ${offender}` },
    }, { remoteAddr: { hostname: '127.0.0.1', port: 40000, transport: 'tcp' } });
    assert.equal(view.status, 200);
    const bytes = new Uint8Array(await view.arrayBuffer());
    assert.equal(new TextDecoder().decode(bytes.subarray(0, 5)), '%PDF-');

    const admin = await login(SCALE_ACCOUNTS.admin, SCALE_ACCOUNTS.staffPassword);
    const users = await call(t, 'GET', '/api/admin/users', { token: admin });
    assert.equal(users.status, 200);
  },
});

Deno.test({
  name: 'cleanup: drop the seeded database and its blobs',
  ignore,
  ...DB_TEST,
  fn: async () => {
    await db?.drop();
    if (dataDir) await Deno.remove(dataDir, { recursive: true });
  },
});
