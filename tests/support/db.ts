/**
 * A throwaway database per test file: in-memory PGlite by default, or a fresh
 * database on the server named by TEST_DATABASE_URL when TEST_BACKEND=postgres.
 * Either way it is migrated, and dropped when the file is done.
 *
 * A migrated database is a copy of a template that ran every migration once (making PGlite's cluster and
 * migrating it cost about 2 s of a core, each of some fifty files twice a run): on PostgreSQL a database
 * `lmp_template_<key>` marked as a template, cloned with `CREATE DATABASE … TEMPLATE`; for PGlite a migrated
 * data directory under the temporary folder, loaded into memory. The key is a hash of the migrations (and of
 * PGlite's version), so a new or changed migration makes a new template; after the copy, `migrate` runs as
 * on any start, finding nothing to apply and adding the settings catalogue's missing rows. A template is
 * made by whichever test file needs it first (`npm test` makes both before the suites start), under a lock on
 * PostgreSQL and by an atomic rename for PGlite, and is kept for the next run (`lmp_template_*` databases and
 * `$TMPDIR/lmp-pglite-template-*` folders: delete them freely, the next run makes what it needs).
 */
import postgres from 'postgres';
import { connectPostgres, type Database, startEmbedded } from '../../api/db/client.ts';
import { migrate, readMigrations } from '../../api/db/migrate.ts';

export type Backend = 'pglite' | 'postgres';

const ROOT = new URL('../../', import.meta.url).pathname;

/** The backend this run tests against (the runner runs the API suite once per backend). */
export function testBackend(): Backend {
  return Deno.env.get('TEST_BACKEND') === 'postgres' ? 'postgres' : 'pglite';
}

export interface TestDatabase extends Database {
  /** A connection string for another client (real PostgreSQL only). */
  url?: string;
  /** Closes the connection and removes the database. */
  drop(): Promise<void>;
}

/** A migrated (unless told otherwise), empty database of this run's backend. */
export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const migrated = options.migrate ?? true;
  if (testBackend() === 'pglite') {
    const db = migrated
      ? await startEmbedded(undefined, { loadDataDir: await pgliteTemplateTarball() })
      : await startEmbedded(undefined);
    if (migrated) await migrate(db.sql);
    return { ...db, drop: () => db.close() };
  }
  const serverUrl = Deno.env.get('TEST_DATABASE_URL');
  if (!serverUrl) throw new Error('TEST_BACKEND=postgres needs TEST_DATABASE_URL');
  const name = `lmp_test_${Date.now()}_${crypto.randomUUID().slice(0, 8)}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  if (migrated) {
    await ensurePostgresTemplate(admin, serverUrl);
    await admin.unsafe(`create database "${name}" template "${await postgresTemplateName()}"`);
  } else {
    await admin.unsafe(`create database "${name}"`);
  }
  const url = databaseUrl(serverUrl, name);
  const db = connectPostgres(url, { max: 5 });
  if (migrated) await migrate(db.sql);
  return {
    ...db,
    url,
    async drop() {
      await db.close();
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

/**
 * Makes this run's templates when they are missing (`npm test` calls it once, before the suites, so that
 * test files running side by side do not each start making one): PGlite's always, PostgreSQL's when
 * TEST_DATABASE_URL is set.
 */
export async function prepareTemplates(): Promise<void> {
  await pgliteTemplateDir();
  const serverUrl = Deno.env.get('TEST_DATABASE_URL');
  if (!serverUrl) return;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await ensurePostgresTemplate(admin, serverUrl);
  } finally {
    await admin.end();
  }
}

/**
 * A migrated PGlite data directory to start a server on: the template copied into `dir` (which must not exist),
 * for a test server that would otherwise make its cluster and migrate it at every start.
 */
export async function copyMigratedPgliteDir(dir: string): Promise<void> {
  await copyDir(`${await pgliteTemplateDir()}/pgdata`, dir);
}

function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

let key: Promise<string> | undefined;

/** 16 hex digits of SHA-256 over every migration's number, name and text, and PGlite's version. */
function templateKey(): Promise<string> {
  key ??= (async () => {
    const parts: string[] = [];
    for (const m of await readMigrations()) parts.push(m.version, m.name, m.sql);
    const pglite = JSON.parse(
      await Deno.readTextFile(`${ROOT}node_modules/@electric-sql/pglite/package.json`),
    );
    parts.push(`pglite ${pglite.version}`);
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(parts.join('\0')));
    return Array.from(new Uint8Array(digest).slice(0, 8), (b) => b.toString(16).padStart(2, '0')).join('');
  })();
  return key;
}

async function postgresTemplateName(): Promise<string> {
  return `lmp_template_${await templateKey()}`;
}

/** Any fixed number: the advisory lock under which one process makes the PostgreSQL template. */
const TEMPLATE_LOCK_KEY = 724_310_040;

/**
 * Makes the PostgreSQL template unless it is there. It is marked a template (and closed to connections, which
 * would stop `CREATE DATABASE … TEMPLATE`) only once migrated, so a database of that name that is not a
 * template is what a process that died while making it left behind, and is made again.
 */
async function ensurePostgresTemplate(admin: postgres.Sql, serverUrl: string): Promise<void> {
  const name = await postgresTemplateName();
  const ready = async () =>
    (await admin`select 1 from pg_database where datname = ${name} and datistemplate`).length > 0;
  if (await ready()) return;
  await admin`select pg_advisory_lock(${TEMPLATE_LOCK_KEY})`;
  try {
    if (await ready()) return;
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.unsafe(`create database "${name}"`);
    const db = connectPostgres(databaseUrl(serverUrl, name), { max: 1 });
    try {
      await migrate(db.sql);
    } finally {
      await db.close();
    }
    await admin.unsafe(`alter database "${name}" with is_template true allow_connections false`);
  } finally {
    await admin`select pg_advisory_unlock(${TEMPLATE_LOCK_KEY})`;
  }
}

let templateDir: Promise<string> | undefined;

/**
 * The migrated PGlite template, made once: a directory holding the data directory (`pgdata/`, for a server to
 * start on) and the same as the tarball PGlite loads into memory (`pgdata.tar`). It is built beside its final
 * name and renamed into place, so it is complete whenever it exists (when two processes build at once, the
 * second rename fails and that copy is removed).
 */
function pgliteTemplateDir(): Promise<string> {
  templateDir ??= (async () => {
    const dir = `${tempRoot()}/lmp-pglite-template-${await templateKey()}`;
    if (await exists(`${dir}/pgdata.tar`)) return dir;
    const building = `${dir}.${crypto.randomUUID().slice(0, 8)}`;
    const db = await startEmbedded(`${building}/pgdata`);
    try {
      await migrate(db.sql);
    } finally {
      await db.close();
    }
    await Deno.remove(`${building}/pgdata/run`, { recursive: true }).catch(() => {});
    const { PGlite } = await import('@electric-sql/pglite');
    const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
    const pglite = await PGlite.create(`${building}/pgdata`, { extensions: { pg_trgm } });
    try {
      const dump = await pglite.dumpDataDir('none');
      await Deno.writeFile(`${building}/pgdata.tar`, new Uint8Array(await dump.arrayBuffer()));
    } finally {
      await pglite.close();
    }
    try {
      await Deno.rename(building, dir);
    } catch (error) {
      if (!(await exists(`${dir}/pgdata.tar`))) throw error;
      await Deno.remove(building, { recursive: true });
    }
    return dir;
  })();
  return templateDir;
}

/** The template as the tarball PGlite loads into memory. */
async function pgliteTemplateTarball(): Promise<Blob> {
  return new Blob([await Deno.readFile(`${await pgliteTemplateDir()}/pgdata.tar`)]);
}

function tempRoot(): string {
  return Deno.env.get('TMPDIR') || '/tmp';
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

async function copyDir(from: string, to: string): Promise<void> {
  const { success, stderr } = await new Deno.Command('cp', { args: ['-R', from, to], stderr: 'piped' })
    .output();
  if (!success) throw new Error(`cp -R ${from} ${to}: ${new TextDecoder().decode(stderr)}`);
}

if (import.meta.main) await prepareTemplates();
