/**
 * bench:stream's object store for its `s3` mode, the first of:
 *   - the operator's own, when S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set (the
 *     bench writes under a prefix of its own, `bench-<time>/`, and removes what it wrote);
 *   - the gateway of a test run (TEST_S3_*), in a bucket made for the bench;
 *   - a throwaway Ceph gateway started for the bench (tests/support/ceph/gateway.ts), when Ceph is installed.
 * With a gateway of its own, the gateway's and its OSD's CPU count among the mode's servers.
 */
import { AwsClient } from 'aws4fetch';
import { S3Client } from '../../api/blobs/s3_client.ts';
import {
  cephInstalled,
  daemonPids,
  type Gateway,
  gatewayEnv,
  startGateway,
  stopGateway,
} from '../../tests/support/ceph/gateway.ts';
import { createTestBucket } from '../../tests/support/s3.ts';

export interface S3Target {
  /** What the API's environment gains (BLOB_STORE=s3 and its settings). */
  env: Record<string, string>;
  /** Where the objects go, for the header line. */
  label: string;
  /** The object store's processes, when the bench runs them (their CPU per request is printed). */
  pids(): Record<string, number[]>;
  /** A presigned GET of the blob's object (an hour): the store sending it with no API in between. */
  presignedUrl(sha256: string): Promise<string>;
  stop(): Promise<void>;
}

/** The object store of the `s3` mode, or why there is none. */
export async function s3Target(): Promise<S3Target | { skipped: string }> {
  const own = Deno.env.get('S3_ENDPOINT');
  if (own) {
    const folder = (Deno.env.get('S3_PREFIX') ?? '').replace(/^\/+|\/+$/g, '');
    const prefix = `${folder ? `${folder}/` : ''}bench-${Date.now()}/`;
    const settings = {
      endpoint: own,
      region: Deno.env.get('S3_REGION') ?? 'us-east-1',
      bucket: Deno.env.get('S3_BUCKET') ?? '',
      accessKeyId: Deno.env.get('S3_ACCESS_KEY_ID') ?? '',
      secretAccessKey: Deno.env.get('S3_SECRET_ACCESS_KEY') ?? '',
      forcePathStyle: !['false', '0'].includes(Deno.env.get('S3_FORCE_PATH_STYLE') ?? ''),
    };
    const client = new S3Client(settings);
    return {
      env: { BLOB_STORE: 's3', S3_PREFIX: prefix },
      label: `${own}, bucket ${settings.bucket} (S3_*)`,
      pids: () => ({}),
      presignedUrl: (sha256) => presign(client, `${prefix}blobs/${sha256}`),
      async stop() {
        for await (const object of client.listObjects(prefix)) await client.deleteObject(object.key);
      },
    };
  }
  let gateway: Gateway | undefined;
  if (!Deno.env.get('TEST_S3_ENDPOINT')) {
    if (!cephInstalled()) {
      return {
        skipped: 'no S3_* settings and Ceph is not installed (apt-get install radosgw ceph-mon ceph-osd)',
      };
    }
    gateway = await startGateway();
    for (const [name, value] of Object.entries(gatewayEnv(gateway))) Deno.env.set(name, value);
  }
  try {
    const bucket = await createTestBucket({ prefix: '' });
    return {
      env: bucket.env,
      label: gateway
        ? `a Ceph RADOS Gateway (memstore OSD) on this machine`
        : `the gateway at TEST_S3_ENDPOINT`,
      pids: (): Record<string, number[]> => gateway ? { 'Ceph (gateway, OSD)': daemonPids(gateway.dir) } : {},
      presignedUrl: (sha256) => presign(bucket.client, `blobs/${sha256}`),
      async stop() {
        await bucket.drop();
        if (gateway) await stopGateway(gateway.dir);
      },
    };
  } catch (error) {
    if (gateway) await stopGateway(gateway.dir);
    throw error;
  }
}

/** A GET of `key` signed in its query string, valid for an hour. */
async function presign(client: S3Client, key: string): Promise<string> {
  const { accessKeyId, secretAccessKey, region } = client.settings;
  const aws = new AwsClient({ accessKeyId, secretAccessKey, region, service: 's3' });
  const url = new URL(client.url(key));
  url.searchParams.set('X-Amz-Expires', '3600');
  return (await aws.sign(url.toString(), { aws: { signQuery: true } })).url;
}
