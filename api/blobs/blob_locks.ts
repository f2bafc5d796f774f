/**
 * One blob at a time: what makes the s3 store's "delete unless re-put since" a single step. S3 has no conditional
 * delete on an object's age (Ceph's gateway has one of its own, `x-amz-delete-if-unmodified-since`; AWS S3 and MinIO
 * ignore that header, and Ceph 16 ignores If-Match on DELETE, which a re-put of the same bytes would not change
 * anyway). So the GC's look at an object's age and its removal, and an upload's check that its re-put object is
 * there, each run holding the blob's lock: in this process (a promise chain per digest), and across the instances
 * that share a PostgreSQL server (a transaction-scoped advisory lock, api/db/advisory_locks.ts).
 */
export interface BlobLocks {
  /** Runs `job` while no other holder of this blob's lock runs; answers what it answers. */
  withLock<T>(sha256: string, job: () => Promise<T>): Promise<T>;
}

/**
 * The lock inside this process, one for every store in it (the embedded database has one process, so this is all
 * it needs).
 */
export const processLocks: BlobLocks = inProcess();

function inProcess(): BlobLocks {
  const tails = new Map<string, Promise<unknown>>();
  return {
    async withLock<T>(sha256: string, job: () => Promise<T>): Promise<T> {
      const before = tails.get(sha256) ?? Promise.resolve();
      const { promise: done, resolve } = Promise.withResolvers<void>();
      const tail = before.then(() => done);
      tails.set(sha256, tail);
      try {
        await before;
        return await job();
      } finally {
        resolve();
        if (tails.get(sha256) === tail) tails.delete(sha256);
      }
    },
  };
}

/** The process's lock first (one waiting connection per blob at most), then `shared` (across instances). */
export function layeredLocks(shared: BlobLocks): BlobLocks {
  return {
    withLock: (sha256, job) => processLocks.withLock(sha256, () => shared.withLock(sha256, job)),
  };
}
