/** System settings: typed values read fresh on every use, so a change takes effect without a restart. */
import {
  defaultSettingValue,
  type SettingCategory,
  type SettingKey,
  SETTINGS,
  type SettingValue,
  type SettingValueOf,
} from '../../contract/settings.ts';
import type { Tx } from './client.ts';

export interface SettingRow {
  key: string;
  category: SettingCategory;
  description: string;
  value: SettingValue;
  updated_at: Date;
}

/** All settings, ordered by category then key. */
export function list_settings(sql: Tx): Promise<SettingRow[]> {
  return sql<
    SettingRow[]
  >`select key, category, description, value, updated_at from settings order by category, key`;
}

/** The value of one setting, or the catalogue's default when the row is missing or holds another type. */
export async function get_setting<K extends SettingKey>(sql: Tx, key: K): Promise<SettingValueOf<K>> {
  const [row] = await sql<{ value: SettingValue }[]>`select value from settings where key = ${key}`;
  const fallback = SETTINGS[key].default as SettingValueOf<K>;
  return row && typeof row.value.value === typeof fallback ? row.value.value as SettingValueOf<K> : fallback;
}

/** One setting, locked for an update; undefined for an unknown key. */
export async function lock_setting(sql: Tx, key: string): Promise<SettingRow | undefined> {
  const [row] = await sql<SettingRow[]>`
    select key, category, description, value, updated_at from settings where key = ${key} for update`;
  return row;
}

/** Stores a new value and who set it. */
export async function update_setting(
  sql: Tx,
  key: string,
  change: { value: SettingValue; userId: string },
): Promise<void> {
  await sql`update settings set value = ${
    sql.json(change.value as never)
  }, updated_at = now(), updated_by = ${change.userId}
            where key = ${key}`;
}

/**
 * Adds every catalogue setting the table lacks, with its default (run after the migrations at start-up), so
 * a new setting needs a catalogue entry and no migration. An existing row is never changed.
 */
export async function insert_missing_settings(sql: Tx): Promise<void> {
  for (const key of Object.keys(SETTINGS) as SettingKey[]) {
    const { category, description } = SETTINGS[key];
    await sql`insert into settings (key, category, description, value)
              values (${key}, ${category}, ${description}, ${sql.json(defaultSettingValue(key) as never)})
              on conflict (key) do nothing`;
  }
}

/** Stores a value with nobody as its author (a seed), adding the row when it is missing. */
export async function put_setting(sql: Tx, key: SettingKey, value: SettingValue): Promise<void> {
  const { category, description } = SETTINGS[key];
  await sql`insert into settings (key, category, description, value)
            values (${key}, ${category}, ${description}, ${sql.json(value as never)})
            on conflict (key) do update set value = excluded.value, updated_at = now()`;
}
