/**
 * Applies db/migrations/NNNN_name.sql in order, in one transaction, under an
 * advisory lock so that two instances starting together never race.
 */
import { insert_missing_settings } from './settings.ts';
import type { Sql } from './client.ts';
import { APP_VERSION } from '../version.ts';

/** Arbitrary but fixed: the advisory lock key every instance agrees on. */
const MIGRATION_LOCK_KEY = 724_310_001;

const MIGRATIONS_DIR = new URL('../../db/migrations/', import.meta.url);

export interface Migration {
  version: string;
  name: string;
  sql: string;
}

/** Reads the migration files, ordered by their number. */
export async function readMigrations(dir: URL = MIGRATIONS_DIR): Promise<Migration[]> {
  const migrations: Migration[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const match = /^(\d{4})_(.+)\.sql$/.exec(entry.name);
    if (!entry.isFile || !match) continue;
    migrations.push({
      version: match[1],
      name: match[2],
      sql: await Deno.readTextFile(new URL(entry.name, dir)),
    });
  }
  return migrations.sort((a, b) => a.version.localeCompare(b.version));
}

/**
 * Applies every migration not yet recorded in schema_migrations, then adds the catalogue's settings the table
 * lacks; returns the versions applied.
 */
export async function migrate(sql: Sql, dir?: URL): Promise<string[]> {
  const migrations = await readMigrations(dir);
  await refuseNewerSchema(sql, migrations, dir);
  // Up to date: nothing to lock or create. This is also how the API's own role (which may not run DDL)
  // starts on a database the owner has migrated (`npm run db:migrate` with MIGRATION_DATABASE_URL).
  if ((await list_pending_migrations(sql, dir)).length === 0) {
    await insert_missing_settings(sql);
    return [];
  }
  return await sql.begin(async (tx) => {
    // Transaction-scoped: released at commit or rollback, even if this process dies.
    await tx`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`;
    await tx`create table if not exists schema_migrations (
      version text primary key,
      name text not null,
      applied_at timestamptz not null default now()
    )`;
    const done = new Set(
      (await tx<{ version: string }[]>`select version from schema_migrations`).map((r) => r.version),
    );
    const applied: string[] = [];
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      await tx.unsafe(m.sql);
      await tx`insert into schema_migrations (version, name) values (${m.version}, ${m.name})`;
      applied.push(m.version);
    }
    const [{ versioned }] = await tx<{ versioned: boolean }[]>`
      select exists (select from information_schema.columns
                     where table_name = 'schema_migrations' and column_name = 'app_version') as versioned`;
    if (versioned && applied.length) {
      await tx`update schema_migrations set app_version = ${APP_VERSION} where version = any(${applied})`;
    }
    await insert_missing_settings(tx);
    return applied;
  });
}

/** The migrations recorded in the database that this release does not have, newest last. */
export async function list_unknown_migrations(
  sql: Sql,
  dir?: URL,
): Promise<{ version: string; name: string; app_version: string | null }[]> {
  const known = new Set((await readMigrations(dir)).map((m) => m.version));
  const [{ exists }] = await sql<
    { exists: boolean }[]
  >`select to_regclass('schema_migrations') is not null as exists`;
  if (!exists) return [];
  // to_jsonb(m) reads app_version where the column exists, and null on a database migrated before it did.
  const rows = await sql<{ version: string; name: string; app_version: string | null }[]>`
    select version, name, to_jsonb(m) ->> 'app_version' as app_version
    from schema_migrations m order by version`;
  return rows.filter((r) => !known.has(r.version));
}

/**
 * A release never runs on a schema a newer release made: its code would read and write tables it does not know
 * (a column it never fills, a constraint it breaks). Throws naming both releases and the way back.
 */
async function refuseNewerSchema(sql: Sql, migrations: Migration[], dir?: URL): Promise<void> {
  const unknown = await list_unknown_migrations(sql, dir);
  if (!unknown.length) return;
  const newest = unknown[unknown.length - 1];
  const by = newest.app_version ? `release ${newest.app_version}` : 'a newer release';
  const ours = migrations.length ? migrations[migrations.length - 1].version : 'none';
  throw new Error(
    `This database was migrated by ${by} (migration ${newest.version}_${newest.name}); this is release ` +
      `${APP_VERSION}, whose migrations end at ${ours}. Run ${by} or later, or restore the backup taken ` +
      'before the upgrade (docs/upgrading.md).',
  );
}

/** The migration files not yet applied to this database (all of them when none ever was). */
export async function list_pending_migrations(sql: Sql, dir?: URL): Promise<string[]> {
  const migrations = await readMigrations(dir);
  const [{ exists }] = await sql<
    { exists: boolean }[]
  >`select to_regclass('schema_migrations') is not null as exists`;
  if (!exists) return migrations.map((m) => m.version);
  const done = new Set(
    (await sql<{ version: string }[]>`select version from schema_migrations`).map((r) => r.version),
  );
  return migrations.filter((m) => !done.has(m.version)).map((m) => m.version);
}
