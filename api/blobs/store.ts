/** The blob backend chosen by the configuration (BLOB_STORE); what every backend keeps is in types.ts. */
import type { Config } from '../config.ts';
import { with_blob_lock } from '../db/advisory_locks.ts';
import type { Database } from '../db/client.ts';
import { type BlobLocks, layeredLocks, processLocks } from './blob_locks.ts';
import { FsBlobStore } from './fs_store.ts';
import { PgBlobStore } from './pg_store.ts';
import { S3Client } from './s3_client.ts';
import { S3BlobStore } from './s3_store.ts';
import type { BlobKek } from './blob_key.ts';
import { SealedBlobStore } from './sealed_store.ts';
import type { Logger } from '../log.ts';
import type { BlobStore } from './types.ts';

/**
 * The documents' store: the configured backend behind the sealing layer (sealed_store.ts), which stores every new
 * document sealed under BLOB_KEY and still reads the plaintext blobs of an installation from before.
 */
export function createDocumentBlobStore(
  config: Pick<Config, 'blobStore' | 'dataDir'> & Partial<Pick<Config, 's3'>>,
  db: Database,
  options: { kek: BlobKek; log?: Logger },
): SealedBlobStore {
  return new SealedBlobStore(createBlobStore(config, db), { sql: db.sql, ...options });
}

/** The backend chosen by the configuration, as it stores bytes: what backups, restores and the doctor copy. */
export function createBlobStore(
  config: Pick<Config, 'blobStore' | 'dataDir'> & Partial<Pick<Config, 's3'>>,
  db: Database,
): BlobStore {
  if (config.blobStore === 'postgres') {
    // PGlite serves one connection: read one chunk per query so a slow client never holds it. On a server, two
    // chunks (512 KiB) per COPY: bench:stream with 32 readers measured 0.22–0.27 of nginx with the API's RSS
    // growing 6–22 MB, where 4 chunks gave 0.26 with +91–117 MB and 8 chunks 0.29 with +197 MB (each read's
    // pieces are held until decoded, and become garbage together).
    return new PgBlobStore(db.sql, {
      chunksPerRead: db.kind === 'pglite' ? 1 : 2,
      copySql: db.copySql ?? db.sql,
    });
  }
  if (config.blobStore === 's3') {
    if (!config.s3) throw new Error('BLOB_STORE=s3 without its S3_* settings');
    return new S3BlobStore(new S3Client(config.s3), { locks: blobLocks(db), prefix: config.s3.prefix });
  }
  return new FsBlobStore(`${config.dataDir}/blobs`);
}

/** The s3 store's per-blob lock: the embedded database belongs to one process; a server's instances share it. */
export function blobLocks(db: Database): BlobLocks {
  if (db.kind === 'pglite') return processLocks;
  return layeredLocks({ withLock: (sha256, job) => with_blob_lock(db.sql, sha256, job) });
}
