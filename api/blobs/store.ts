/** The blob backend chosen by the configuration (BLOB_STORE); what both keep is in types.ts. */
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { FsBlobStore } from './fs_store.ts';
import { PgBlobStore } from './pg_store.ts';
import type { BlobStore } from './types.ts';

/** The backend chosen by the configuration. */
export function createBlobStore(config: Pick<Config, 'blobStore' | 'dataDir'>, db: Database): BlobStore {
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
  return new FsBlobStore(`${config.dataDir}/blobs`);
}
