import assert from 'node:assert/strict';
import { connectPostgres } from '../../api/db/client.ts';
import { migrate, readMigrations } from '../../api/db/migrate.ts';
import { createTestDatabase } from '../support/db.ts';
import { call, createTestApp, DB_TEST } from '../support/app.ts';
import { APP_VERSION } from '../../api/version.ts';

Deno.test({
  name: 'migrations apply once, in order, and a second run applies nothing',
  ...DB_TEST,
  fn: async () => {
    const db = await createTestDatabase({ migrate: false });
    try {
      const files = await readMigrations();
      assert.deepEqual(await migrate(db.sql), files.map((m) => m.version));
      assert.deepEqual(await migrate(db.sql), []);
      const rows = await db.sql<
        { version: string }[]
      >`select version from schema_migrations order by version`;
      assert.deepEqual(rows.map((r) => r.version), files.map((m) => m.version));
    } finally {
      await db.drop();
    }
  },
});

Deno.test({
  name: 'two instances starting together do not race: the advisory lock serialises them',
  ...DB_TEST,
  fn: async () => {
    const db = await createTestDatabase({ migrate: false });
    // On PGlite there is one session, so the race cannot happen; a real server has two.
    const other = db.url ? connectPostgres(db.url, { max: 1 }) : undefined;
    try {
      const [a, b] = await Promise.all([migrate(db.sql), migrate(other?.sql ?? db.sql)]);
      const files = await readMigrations();
      assert.deepEqual([...a, ...b].sort(), files.map((m) => m.version));
    } finally {
      await other?.close();
      await db.drop();
    }
  },
});

Deno.test({
  name:
    'a release refuses a database a newer release migrated, naming both versions, and is not ready on one',
  ...DB_TEST,
  fn: async () => {
    const t = await createTestApp();
    try {
      const applied = await t.db.sql<{ app_version: string | null }[]>`
        select app_version from schema_migrations where version = '0037'`;
      assert.equal(applied[0].app_version, APP_VERSION, 'each migration records the release that applied it');
      assert.equal((await call(t, 'GET', '/api/health/ready')).status, 200);
      await t.db.sql`insert into schema_migrations (version, name, app_version)
                     values ('9999', 'from_the_future', '9.1.0')`;
      await assert.rejects(
        () => migrate(t.db.sql),
        (error: Error) => {
          assert.match(error.message, /migrated by release 9\.1\.0 \(migration 9999_from_the_future\)/);
          assert.match(error.message, new RegExp(`this is release ${APP_VERSION.replaceAll('.', '\\.')}`));
          return true;
        },
      );
      assert.equal((await call(t, 'GET', '/api/health/ready')).status, 503);
    } finally {
      await t.close();
    }
  },
});

Deno.test({
  name: 'GET /api/health carries the release version from package.json',
  ...DB_TEST,
  fn: async () => {
    const t = await createTestApp();
    try {
      const manifest = JSON.parse(await Deno.readTextFile(new URL('../../package.json', import.meta.url)));
      const health = await call(t, 'GET', '/api/health');
      assert.equal(health.status, 200);
      assert.deepEqual(health.body, { success: true, status: 'ok', version: manifest.version });
      assert.match(manifest.version, /^\d+\.\d+\.\d+$/, 'a semantic version');
    } finally {
      await t.close();
    }
  },
});
