/**
 * `npm run audit:verify` as docs/operations.md writes it, on an installation with activity (PostgreSQL): 0 once
 * the portal has checkpointed; non-zero naming the row after the database's superuser changes one with the
 * triggers off, and after a row in the middle is deleted. Needs TEST_DATABASE_URL.
 */
import assert from 'node:assert/strict';
import postgres from 'postgres';
import { docCommands } from '../support/doc_commands.ts';
import { freshDatabase, ROOT, signInAt, startInstance } from '../support/instance.ts';
import { run } from './helpers.ts';

const SERVER = Deno.env.get('TEST_DATABASE_URL');

Deno.test({
  name:
    'audit:verify as documented: exit 0 on an installation with activity; non-zero naming a row a superuser changed, then one deleted from the middle',
  sanitizeResources: false,
  sanitizeOps: false,
  ignore: !SERVER,
  fn: async () => {
    const [[command]] = await docCommands('docs/operations.md', '### Verifying the audit log');
    assert.match(command, /npm run audit:verify$/);
    const db = await freshDatabase(SERVER!);
    const dataDir = await Deno.makeTempDir({ prefix: 'lmp-audit-verify-' });
    const envFile = `${dataDir}/portal.env`;
    const env = {
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      PWA_DIST: `${dataDir}/no-pwa`,
      DEMO_SEED: '1',
      AUDIT_CHECKPOINT_SECONDS: '1',
      SESSION_SECRET: 'audit-verify-test-session-secret-0123456789',
      PIN_PEPPER: 'audit-verify-test-pin-pepper-0123456789abcd',
      MFA_SECRET_KEY: 'audit-verify-test-mfa-key-0123456789abcdef',
      AUDIT_SIGNING_KEY: 'c3'.repeat(32),
    };
    await Deno.writeTextFile(envFile, Object.entries(env).map(([k, v]) => `${k}=${v}`).join('\n') + '\n');
    const verify = () =>
      run('sh', [
        '-ec',
        command.replaceAll('/opt/legal-mail-portal', ROOT).replaceAll('/etc/legal-mail-portal.env', envFile),
      ], { env: { PATH: Deno.env.get('PATH')!, HOME: Deno.env.get('HOME') ?? '/tmp' } });
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    try {
      const portal = await startInstance(env);
      for (let i = 0; i < 3; i++) await signInAt(portal.url, 'admin@demo.test', 'Demo-Admin-2026!');
      await signInAt(portal.url, 'attorney@demo.test', 'Demo-Attorney-2026!');
      // A checkpoint from the timer while it runs, and one at shutdown.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      assert.equal(await portal.stop(), 0);

      const healthy = await verify();
      assert.equal(healthy.code, 0, healthy.output);
      assert.match(healthy.output, /ok: \d+ rows and \d+ checkpoints hold/);
      const [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from audit_chain`;
      assert.ok(n >= 5, `${n} rows chained`);

      // The database's superuser changes a row with the append-only triggers off.
      const [changed] = await sql<{ id: string; position: string }[]>`
        select audit_id::text as id, position::text from audit_chain where position = 3`;
      await sql.begin(async (tx) => {
        await tx`alter table audit_logs disable trigger user`;
        await tx`update audit_logs set ip_address = '198.51.100.9' where id = ${changed.id}`;
        await tx`alter table audit_logs enable trigger user`;
      });
      const afterChange = await verify();
      assert.equal(afterChange.code, 1, afterChange.output);
      assert.match(
        afterChange.output,
        new RegExp(`FAIL: row ${changed.id} \\(chain position ${changed.position}\\) was changed`),
      );

      // Put back as it was (the same bytes hash the same), then delete a row in the middle.
      await sql.begin(async (tx) => {
        await tx`alter table audit_logs disable trigger user`;
        await tx`update audit_logs set ip_address = (select ip_address from audit_logs where id = ${changed.id}::bigint + 1) where id = ${changed.id}`;
        await tx`alter table audit_logs enable trigger user`;
      }).catch(() => {});
      const [middle] = await sql<{ id: string; position: string }[]>`
        select audit_id::text as id, position::text from audit_chain
        where position = (select max(position) / 2 + 1 from audit_chain)`;
      await sql.begin(async (tx) => {
        await tx`alter table audit_logs disable trigger user`;
        await tx`delete from audit_logs where id = ${middle.id}`;
        await tx`alter table audit_logs enable trigger user`;
      });
      const afterDelete = await verify();
      assert.equal(afterDelete.code, 1, afterDelete.output);
      assert.match(
        afterDelete.output,
        new RegExp(`row ${middle.id} \\(chain position ${middle.position}\\) was removed from audit_logs`),
      );
      // Each run is recorded for the Audit Logs screen.
      const [last] = await sql<{ ok: boolean; message: string }[]>`
        select ok, message from audit_verifications order by id desc limit 1`;
      assert.equal(last.ok, false);
    } finally {
      await sql.end();
      await db.drop();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});
