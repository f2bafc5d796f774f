import assert from 'node:assert/strict';
import { connectPostgres } from '../../api/db/client.ts';
import { migrate, readMigrations } from '../../api/db/migrate.ts';
import { createTestDatabase } from '../support/db.ts';
import { DB_TEST } from '../support/app.ts';

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
