/**
 * Jobs that must run on one instance at a time when several share one PostgreSQL (the retention purge).
 * A session-level advisory lock on a reserved connection: the job's own queries (and the postgres blob store's)
 * run on other pooled connections while it is held, which a transaction-scoped lock would not allow, and
 * PostgreSQL drops it by itself if the instance dies mid-job.
 */
import type { Sql } from './client.ts';

/**
 * Lock keys: fixed numbers, one per job, in a range nothing else in this database uses. `blob` is the first of the
 * two-key form's pair (PostgreSQL keeps the one-key and two-key forms apart), the second a blob's digest.
 */
export const LOCK_KEYS = {
  retentionPurge: 7_110_001,
  recipientLookups: 7_110_002,
  blob: 7_110_003,
  auditChain: 7_110_004,
  auditCheckpoint: 7_110_005,
} as const;

/**
 * Runs `job` when no other session holds `key`; otherwise returns `{ ran: false }` at once (the other
 * instance is doing the work). Needs a pool of at least two connections: the embedded database has one, and
 * one process, so it runs its jobs without this.
 */
export async function with_try_advisory_lock<T>(
  sql: Sql,
  key: number,
  job: () => Promise<T>,
): Promise<{ ran: true; result: T } | { ran: false }> {
  const reserved = await sql.reserve();
  try {
    const [{ locked }] = await reserved<{ locked: boolean }[]>`select pg_try_advisory_lock(${key}) as locked`;
    if (!locked) return { ran: false };
    try {
      return { ran: true, result: await job() };
    } finally {
      await reserved`select pg_advisory_unlock(${key})`;
    }
  } finally {
    reserved.release();
  }
}

/**
 * Runs `job` holding one blob's lock across every instance on this server (the s3 store's GC and re-put,
 * api/blobs/blob_locks.ts): a transaction-scoped advisory lock, released when the job ends, and by PostgreSQL
 * if the instance dies meanwhile. The job runs no SQL of its own on the transaction; it holds one pooled
 * connection while it talks to the object store (every S3 call has a deadline).
 */
export async function with_blob_lock<T>(sql: Sql, sha256: string, job: () => Promise<T>): Promise<T> {
  // The digest's first 32 bits as a signed int4: two blobs that share them only wait for each other.
  const key = Number.parseInt(sha256.slice(0, 8), 16) | 0;
  let result: T;
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${LOCK_KEYS.blob}::int, ${key}::int)`;
    result = await job();
  });
  return result!;
}
