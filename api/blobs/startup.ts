/**
 * BLOB_STORE=s3 at start-up: the bucket must take a write now, or the portal does not start, and says which
 * setting to look at (a wrong key, a missing bucket, an endpoint that does not answer). Every S3 call has a
 * deadline (s3_client.ts), so this ends in seconds whatever the store does.
 */
import type { S3Config } from '../config.ts';
import type { BlobStore } from './types.ts';

export async function checkObjectStore(s3: S3Config, blobs: BlobStore): Promise<void> {
  const endpoint = new URL(s3.endpoint);
  if (endpoint.protocol === 'http:' && !['localhost', '127.0.0.1', '[::1]'].includes(endpoint.hostname)) {
    // Allowed (a gateway on a private segment), but privileged mail then crosses that network in the clear.
    console.warn(
      `S3_ENDPOINT ${s3.endpoint} is plain http: documents travel to the object store unencrypted. Use https.`,
    );
  }
  try {
    await blobs.checkWritable();
  } catch (error) {
    console.error(`Cannot start with BLOB_STORE=s3: ${(error as Error).message}`);
    Deno.exit(1);
  }
}
