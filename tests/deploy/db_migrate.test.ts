/**
 * `npm run db:migrate` picks its database as docs/operations.md says: MIGRATION_DATABASE_URL, else DATABASE_URL,
 * else the embedded database in DATA_DIR (a variable set to nothing counts as unset), and says which before it
 * starts: host, port, database and role, never the password a URL carries, not even when it fails. The PostgreSQL
 * cases need TEST_DATABASE_URL.
 */
import assert from 'node:assert/strict';
import { freshDatabase } from '../support/instance.ts';
import { run } from './helpers.ts';

const SERVER = Deno.env.get('TEST_DATABASE_URL');
const PASSWORD = 'Migrate-Secret-Harbor-91';

/** `url` with a password (the test server trusts 127.0.0.1 and ignores it) and, if given, another database. */
function withPassword(url: string, password: string, database?: string): string {
  const u = new URL(url);
  u.password = password;
  if (database) u.pathname = `/${database}`;
  return u.toString();
}

Deno.test({
  name:
    'db:migrate falls back to DATABASE_URL when MIGRATION_DATABASE_URL is unset, prefers MIGRATION_DATABASE_URL when both are set, and never prints a password',
  sanitizeResources: false,
  sanitizeOps: false,
  ignore: !SERVER,
  fn: async () => {
    const db = await freshDatabase(SERVER!);
    const dataDir = await Deno.makeTempDir({ prefix: 'lmp-db-migrate-' });
    const name = new URL(db.url).pathname.slice(1);
    const migrate = (env: Record<string, string>) =>
      run('npm', ['run', '--silent', 'db:migrate'], { env: { DATA_DIR: dataDir, ...env } });
    try {
      const fallback = await migrate({
        DATABASE_URL: withPassword(db.url, PASSWORD),
        MIGRATION_DATABASE_URL: '',
      });
      assert.equal(fallback.code, 0, fallback.output);
      assert.match(
        fallback.output,
        new RegExp(`^Migrating PostgreSQL database "${name}" on 127\\.0\\.0\\.1:\\d+ as `),
      );
      assert.match(fallback.output, /Applied migrations: 0001, /);
      assert.ok(!fallback.output.includes(PASSWORD), fallback.output);
      await assert.rejects(Deno.stat(`${dataDir}/pgdata`), Deno.errors.NotFound, 'not the embedded database');

      // Both set: the owner's URL is the one migrated; DATABASE_URL names a database that does not exist.
      const both = await migrate({
        MIGRATION_DATABASE_URL: withPassword(db.url, PASSWORD),
        DATABASE_URL: withPassword(db.url, 'Api-Secret-Lantern-27', 'no_such_database'),
      });
      assert.equal(both.code, 0, both.output);
      assert.match(both.output, new RegExp(`^Migrating PostgreSQL database "${name}" `));
      assert.match(both.output, /The database is up to date\./);
      assert.ok(!/Migrate-Secret|Api-Secret/.test(both.output), both.output);

      // A database that cannot be reached: the failure is said without the password either.
      const missing = await migrate({ DATABASE_URL: withPassword(db.url, PASSWORD, 'no_such_database') });
      assert.equal(missing.code, 1, missing.output);
      assert.match(missing.output, /Migrating PostgreSQL database "no_such_database" /);
      assert.match(missing.output, /Not migrated: /);
      assert.ok(!missing.output.includes(PASSWORD), missing.output);
    } finally {
      await db.drop();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test({
  name: 'db:migrate with neither URL (or both set to nothing) migrates the embedded database in DATA_DIR',
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dataDir = await Deno.makeTempDir({ prefix: 'lmp-db-migrate-embedded-' });
    try {
      const migrated = await run('npm', ['run', '--silent', 'db:migrate'], {
        env: { DATA_DIR: dataDir, DATABASE_URL: '', MIGRATION_DATABASE_URL: '' },
      });
      assert.equal(migrated.code, 0, migrated.output);
      assert.match(migrated.output, new RegExp(`^Migrating the embedded database in ${dataDir}/pgdata…`));
      assert.match(migrated.output, /Applied migrations: 0001, /);
      assert.ok((await Deno.stat(`${dataDir}/pgdata`)).isDirectory);
    } finally {
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});
