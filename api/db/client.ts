/**
 * The one way the API reaches Postgres: postgres.js, either to a real server
 * (DATABASE_URL) or to the embedded PGlite behind a Unix socket, so the same
 * driver and the same SQL serve both.
 */
import postgres from 'postgres';

export type Sql = postgres.Sql<Record<string, never>>;
/** A transaction handle or the pool: data functions accept either. */
export type Tx = postgres.TransactionSql<Record<string, never>> | Sql;

export interface Database {
  sql: Sql;
  /** 'postgres' for a real server, 'pglite' for the embedded one. */
  kind: 'postgres' | 'pglite';
  /**
   * A real server only: a small pool of its own for the postgres blob store's COPY reads. postgres.js refuses
   * a query on a connection that is in a COPY (COPY_IN_PROGRESS), and on the shared pool its reserve() could
   * hand out a connection that a transaction had just taken (bench:stream saw those 500s with 32 readers); here
   * nothing but reserved COPYs ever runs.
   */
  copySql?: Sql;
  /**
   * A real server only: the session check's own small pool. Every request's first statement is the guard's
   * (find_active_session, with what a route carries in it), short and nearly always a read. On two connections
   * postgres.js pipelines these onto backends that are already awake, where on the shared pool of 10 each waits
   * for a backend of its own to wake: on the offender's list at 64 connections (demo database, alternated),
   * 5,725–5,905 → 6,543–6,672 requests/s and p99 22.3–25.2 → 21.1–21.5 ms. The embedded database has one
   * connection in all, so there the guard uses `sql`.
   */
  sessionSql?: Sql;
  close(): Promise<void>;
}

/** Connections of the COPY reads' own pool: each holds one reader's read of a few chunks. */
const COPY_POOL_SIZE = 4;

/** Connections of the session check's own pool (Database.sessionSql). */
const SESSION_POOL_SIZE = 2;

const CLIENT_OPTIONS = { onnotice: () => {} };

/** Connects to a real PostgreSQL server. */
export function connectPostgres(url: string, options: { max?: number } = {}): Database {
  const sql = postgres(url, { ...CLIENT_OPTIONS, max: options.max ?? 10 }) as unknown as Sql;
  // Lazy: a connection is opened only when the postgres blob store first reads.
  const copySql = postgres(url, { ...CLIENT_OPTIONS, max: COPY_POOL_SIZE }) as unknown as Sql;
  const sessionSql = postgres(url, { ...CLIENT_OPTIONS, max: SESSION_POOL_SIZE }) as unknown as Sql;
  return {
    sql,
    copySql,
    sessionSql,
    kind: 'postgres',
    close: async () => {
      await Promise.all([sql, copySql, sessionSql].map((pool) => pool.end({ timeout: 5 })));
    },
  };
}

/**
 * Starts PGlite stored in `dir` (or in memory when `dir` is undefined) behind a
 * pglite-socket server on a Unix socket in a directory only this user can enter
 * (mode 0700): PGlite has no passwords, so a loopback TCP port would let any local
 * user read the whole database. PGlite is one session, so the client keeps one
 * connection: two pooled connections would interleave their transactions inside
 * that single session. `loadDataDir` starts it from a tarball of a data directory (PGlite's `dumpDataDir`)
 * instead of an empty cluster: the tests start each file's database from an already migrated one.
 */
export async function startEmbedded(
  dir: string | undefined,
  options: { loadDataDir?: Blob } = {},
): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  // Migration 0015's trigram indexes (the admin's user search) need pg_trgm, which PGlite ships as a loadable part.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  if (dir) await Deno.mkdir(dir, { recursive: true });
  const socketDir = await privateSocketDir(dir);
  const path = `${socketDir}/.s.PGSQL.5432`;
  const pglite = await PGlite.create(dir, { extensions: { pg_trgm }, loadDataDir: options.loadDataDir });
  const server = new PGLiteSocketServer({ db: pglite, path, maxConnections: 1 });
  await server.start();
  const sql = postgres({
    ...CLIENT_OPTIONS,
    path,
    user: 'postgres',
    database: 'postgres',
    max: 1,
  }) as unknown as Sql;
  return {
    sql,
    kind: 'pglite',
    async close() {
      await sql.end({ timeout: 5 });
      await server.stop();
      await pglite.close();
      await Deno.remove(socketDir, { recursive: true }).catch(() => {});
    },
  };
}

/**
 * A fresh directory of mode 0700 for the socket: `run/` beside the database, or a temporary one for an
 * in-memory database. A socket left by a process that died is removed with its old directory.
 */
async function privateSocketDir(dataDir: string | undefined): Promise<string> {
  if (!dataDir) return await Deno.makeTempDir({ prefix: 'lmp-pg-' });
  const dir = `${dataDir}/run`;
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  await Deno.mkdir(dir, { mode: 0o700 });
  await Deno.chmod(dir, 0o700);
  return dir;
}
