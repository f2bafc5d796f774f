import assert from 'node:assert/strict';
import { defaultSettingValue, type SettingKey, SETTINGS } from '../../contract/settings.ts';
import { DB_TEST } from '../support/app.ts';
import { createTestDatabase } from '../support/db.ts';

Deno.test({
  name:
    "the migrations' settings rows agree with the catalogue: same keys, categories, descriptions and defaults",
  ...DB_TEST,
  fn: async () => {
    const db = await createTestDatabase();
    try {
      const rows = await db.sql<{ key: string; category: string; description: string; value: unknown }[]>`
        select key, category, description, value from settings order by key`;
      assert.deepEqual(rows.map((r) => r.key), Object.keys(SETTINGS).sort());
      for (const row of rows) {
        const key = row.key as SettingKey;
        assert.equal(row.category, SETTINGS[key].category, `${key}: category`);
        assert.equal(row.description, SETTINGS[key].description, `${key}: description`);
        assert.deepEqual(row.value, defaultSettingValue(key), `${key}: default`);
      }
    } finally {
      await db.drop();
    }
  },
});
