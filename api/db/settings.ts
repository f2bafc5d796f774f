/** System settings: typed values read fresh on every use, so a change takes effect without a restart. */
import type { Tx } from './client.ts';

export interface SettingValue {
  type: 'number' | 'boolean' | 'text';
  value: number | boolean | string;
  unit?: string;
}

export interface SettingRow {
  key: string;
  category: 'security' | 'system' | 'email';
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

/** The value of one number setting, or the fallback when it is missing or not a number. */
export async function get_number_setting(sql: Tx, key: string, fallback: number): Promise<number> {
  const [row] = await sql<{ value: SettingValue }[]>`select value from settings where key = ${key}`;
  return row && typeof row.value.value === 'number' ? row.value.value : fallback;
}

/** The value of one text setting, or the fallback. */
export async function get_text_setting(sql: Tx, key: string, fallback: string): Promise<string> {
  const [row] = await sql<{ value: SettingValue }[]>`select value from settings where key = ${key}`;
  return row && typeof row.value.value === 'string' ? row.value.value : fallback;
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
