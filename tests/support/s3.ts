/**
 * The object store of the s3 tests: the Ceph gateway the test runner started for the whole run (scripts/test.mjs,
 * tests/support/ceph/gateway.ts), found through TEST_S3_*. Each test file makes its own bucket, as it makes its
 * own database, and removes it with everything in it when done. Without TEST_S3_ENDPOINT the s3 tests are
 * ignored (the runner says why; under CI a missing gateway fails the run there).
 */
import { AwsClient } from 'aws4fetch';
import { S3Client } from '../../api/blobs/s3_client.ts';
import type { S3Config } from '../../api/config.ts';

/** The gateway and its user, or undefined when this run has none. */
export function testGateway(): Omit<S3Config, 'bucket' | 'prefix'> | undefined {
  const endpoint = Deno.env.get('TEST_S3_ENDPOINT');
  const accessKeyId = Deno.env.get('TEST_S3_ACCESS_KEY_ID');
  const secretAccessKey = Deno.env.get('TEST_S3_SECRET_ACCESS_KEY');
  if (!endpoint || !accessKeyId || !secretAccessKey) return undefined;
  return {
    endpoint,
    region: Deno.env.get('TEST_S3_REGION') ?? 'us-east-1',
    accessKeyId,
    secretAccessKey,
    forcePathStyle: true,
  };
}

/** True when the run has a gateway (a test's `ignore: !HAVE_S3`). */
export const HAVE_S3 = testGateway() !== undefined;

export interface TestBucket {
  /** The store's settings for this bucket (prefix `portal/`, as an operator sharing a bucket would set). */
  s3: S3Config;
  /** The environment of an API process using it. */
  env: Record<string, string>;
  /** A client on the bucket, for looking at what the store left there. */
  client: S3Client;
  /** Sets the bucket's policy (undefined: removes it), as its administrator would. */
  setPolicy(policy: unknown): Promise<void>;
  drop(): Promise<void>;
}

/** A new, empty bucket on the run's gateway (made here, as an operator would: the API never makes one). */
export async function createTestBucket(
  options: { prefix?: string; objectLock?: boolean } = {},
): Promise<TestBucket> {
  const gateway = testGateway();
  if (!gateway) throw new Error('no S3 gateway in this run (TEST_S3_ENDPOINT)');
  const bucket = `lmp-test-${Date.now().toString(36)}-${crypto.randomUUID().slice(0, 8)}`;
  const s3: S3Config = { ...gateway, bucket, prefix: options.prefix ?? 'portal/' };
  const client = new S3Client(s3);
  // Object Lock can only be chosen when a bucket is made (the audit checkpoints' bucket).
  const made = await fetchSigned(
    client,
    'PUT',
    client.url(),
    undefined,
    options.objectLock ? { 'x-amz-bucket-object-lock-enabled': 'true' } : {},
  );
  if (!made.ok) throw new Error(`creating bucket ${bucket}: ${made.status} ${await made.text()}`);
  await made.body?.cancel();
  return {
    s3,
    client,
    env: {
      BLOB_STORE: 's3',
      S3_ENDPOINT: s3.endpoint,
      S3_REGION: s3.region,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_PREFIX: s3.prefix,
    },
    async setPolicy(policy) {
      const url = `${client.url().replace(/\/$/, '')}?policy`;
      const r = policy === undefined
        ? await fetchSigned(client, 'DELETE', url)
        : await fetchSigned(client, 'PUT', url, JSON.stringify(policy));
      if (!r.ok) throw new Error(`setting the policy of ${bucket}: ${r.status} ${await r.text()}`);
      await r.body?.cancel();
    },
    async drop() {
      for await (const upload of client.listMultipartUploads('')) {
        await client.abortMultipartUpload(upload.key, upload.uploadId);
      }
      // Objects under a compliance-mode lock cannot go before their date: their bucket stays with the gateway's run.
      for await (const object of client.listObjects('')) {
        await client.deleteObject(object.key).catch(() => {});
      }
      const gone = await fetchSigned(client, 'DELETE', client.url());
      await gone.body?.cancel();
    },
  };
}

/** Keys under `prefix` in the bucket. */
export async function listKeys(client: S3Client, prefix = ''): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of client.listObjects(prefix)) keys.push(object.key);
  return keys;
}

/** A bucket-level call the store never makes (creating and removing buckets), signed like its own. */
async function fetchSigned(
  client: S3Client,
  method: 'PUT' | 'DELETE',
  url: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  const aws = new AwsClient({
    accessKeyId: client.settings.accessKeyId,
    secretAccessKey: client.settings.secretAccessKey,
    service: 's3',
    region: client.settings.region,
    retries: 0,
  });
  // The bucket's own URL, without the trailing slash of an empty key.
  return await aws.fetch(url.replace(/\/$/, ''), {
    method,
    body,
    headers,
    signal: AbortSignal.timeout(30_000),
  });
}
