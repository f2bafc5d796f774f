/** The blob backend chosen by the configuration (BLOB_STORE); what both keep is in types.ts. */
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { FsBlobStore } from './fs_store.ts';
import { PgBlobStore } from './pg_store.ts';
import type { BlobStore } from './types.ts';

/** The backend chosen by the configuration. */
export function createBlobStore(config: Pick<Config, 'blobStore' | 'dataDir'>, db: Database): BlobStore {
  if (config.blobStore === 'postgres') {
    // PGlite serves one connection: read one chunk per query so a slow client never holds it.
    return new PgBlobStore(db.sql, {
      chunksPerRead: db.kind === 'pglite' ? 1 : 4,
      copySql: db.copySql ?? db.sql,
    });
  }
  return new FsBlobStore(`${config.dataDir}/blobs`);
}
