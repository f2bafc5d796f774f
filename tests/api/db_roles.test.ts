/**
 * The API's database role owns nothing (db/migrations/0007_api_role.sql): on PostgreSQL it cannot drop the
 * audit log's append-only trigger nor change history, while the owner migrates. PGlite keeps one role, so
 * these tests run only against a real server.
 */
import assert from 'node:assert/strict';
import postgres from 'postgres';
import { openDatabase } from '../../api/db/open.ts';
import { loadConfig } from '../../api/config.ts';
import { DB_TEST } from '../support/app.ts';
import { createTestDatabase, testBackend, type TestDatabase } from '../support/db.ts';

/** Runs `statement` as the API's role; resolves with the error code, or 'ok'. */
async function asApi(apiUrl: string, statement: string): Promise<string> {
  const api = postgres(apiUrl, { max: 1, onnotice: () => {} });
  try {
    await api.unsafe(statement);
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  } finally {
    await api.end();
  }
}

if (testBackend() === 'postgres') {
  let db: TestDatabase;
  let apiUrl: string;
  const role = `lmp_api_${crypto.randomUUID().slice(0, 8)}`;

  Deno.test({
    name: 'setup: a migrated database and a login role that is a member of legal_mail_api',
    ...DB_TEST,
    fn: async () => {
      db = await createTestDatabase();
      await db.sql.unsafe(`create role ${role} login in role legal_mail_api`);
      const url = new URL(db.url!);
      url.username = role;
      apiUrl = url.toString();
    },
  });

  Deno.test({
    name: "the API's role cannot drop the audit log's append-only trigger (must be owner: 42501)",
    ...DB_TEST,
    fn: async () => {
      assert.equal(await asApi(apiUrl, 'drop trigger audit_logs_no_update_delete on audit_logs'), '42501');
      assert.equal(await asApi(apiUrl, 'alter table audit_logs disable trigger all'), '42501');
      assert.equal(await asApi(apiUrl, 'drop table audit_logs'), '42501');
    },
  });

  Deno.test({
    name: "the API's role may insert and read audit rows, never update, delete or truncate them",
    ...DB_TEST,
    fn: async () => {
      assert.equal(
        await asApi(
          apiUrl,
          `insert into audit_logs (event_type, resource_type) values ('role_test', 'test')`,
        ),
        'ok',
      );
      assert.equal(await asApi(apiUrl, 'select count(*) from audit_logs'), 'ok');
      assert.equal(await asApi(apiUrl, `update audit_logs set event_type = 'x'`), '42501');
      assert.equal(await asApi(apiUrl, 'delete from audit_logs'), '42501');
      assert.equal(await asApi(apiUrl, 'truncate audit_logs'), '42501');
      assert.equal(await asApi(apiUrl, `insert into schema_migrations values ('9999', 'forged')`), '42501');
    },
  });

  Deno.test({
    name:
      'the API starts as its own role on a database the owner migrated (MIGRATION_DATABASE_URL), and seeds',
    ...DB_TEST,
    fn: async () => {
      const config = loadConfig({
        DATABASE_URL: apiUrl,
        MIGRATION_DATABASE_URL: db.url,
        DEMO_SEED: '1',
        SESSION_SECRET: 'x'.repeat(32),
      });
      const opened = await openDatabase(config);
      try {
        assert.deepEqual(opened.applied, []);
        const [{ n }] = await opened.db.sql<{ n: number }[]>`select count(*)::int as n from users`;
        assert.ok(n > 0, 'the demo accounts were written by the API role');
      } finally {
        await opened.db.close();
      }
    },
  });

  Deno.test({
    name: 'teardown',
    ...DB_TEST,
    fn: async () => {
      await db.drop();
      const admin = postgres(Deno.env.get('TEST_DATABASE_URL')!, { max: 1, onnotice: () => {} });
      await admin.unsafe(`drop role if exists ${role}`);
      await admin.end();
    },
  });
}
