/**
 * What only the s3 store has, against the run's Ceph gateway: the GC's delete and a re-put kept apart by the blob
 * lock (within one instance and between two on one PostgreSQL), multipart uploads in parts of at least 5 MiB,
 * Range passed through to the store, the sweep of abandoned uploads, and a clear message (never a hang) for a wrong
 * key, a missing bucket, a gateway that is down and one that does not answer, at readiness as at start-up.
 */
import assert from 'node:assert/strict';
import { createApp } from '../../api/app.ts';
import type { BlobLocks } from '../../api/blobs/blob_locks.ts';
import { S3Client } from '../../api/blobs/s3_client.ts';
import { PART_SIZE, S3BlobStore } from '../../api/blobs/s3_store.ts';
import { blobLocks } from '../../api/blobs/store.ts';
import { with_blob_lock } from '../../api/db/advisory_locks.ts';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { upload } from '../support/documents.ts';
import { makePdf, sha256Hex, streamOf } from '../support/pdfs.ts';
import { createTestBucket, HAVE_S3, listKeys, type TestBucket } from '../support/s3.ts';
import { testBackend } from '../support/db.ts';

const OPTIONS = { ...DB_TEST, ignore: !HAVE_S3 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let t: TestApp;
let bucket: TestBucket;

function randomBytes(n: number): Uint8Array {
  const b = new Uint8Array(n);
  for (let at = 0; at < n; at += 65536) crypto.getRandomValues(b.subarray(at, at + 65536));
  return b;
}

async function readAll(stream: ReadableStream<Uint8Array> | undefined): Promise<Uint8Array> {
  assert.ok(stream, 'blob should exist');
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** A client whose deletes of blobs wait `ms` after they are asked, and says when one is asked. */
class SlowDeletes extends S3Client {
  asked = Promise.withResolvers<void>();
  constructor(settings: S3Client['settings'], private readonly ms: number) {
    super(settings);
  }
  override async deleteObject(key: string): Promise<void> {
    if (key.includes('/blobs/')) {
      this.asked.resolve();
      await sleep(this.ms);
    }
    return await super.deleteObject(key);
  }
}

/** A client that records the calls that carry bytes. */
class Recording extends S3Client {
  parts: number[] = [];
  reads: { status: number; length: number | undefined }[] = [];
  override uploadPart(key: string, uploadId: string, part: number, body: Uint8Array) {
    this.parts.push(body.length);
    return super.uploadPart(key, uploadId, part, body);
  }
  override async getObject(key: string, range?: { start: number; end: number }) {
    const r = await super.getObject(key, range);
    if (r) this.reads.push({ status: r.status, length: Number(r.headers.get('content-length') ?? NaN) });
    return r;
  }
}

Deno.test({
  name: 's3 setup',
  ...OPTIONS,
  fn: async () => {
    t = await createTestApp();
    bucket = await createTestBucket();
  },
});

/**
 * The GC looked at the blob's age (old: its listing came after the last write) and is deleting it; an upload of
 * the same bytes re-puts it meanwhile. Without the lock the delete lands after the re-put and the bytes are gone.
 */
async function raceReputAgainstDelete(gc: S3BlobStore, client: SlowDeletes, uploader: S3BlobStore) {
  const bytes = randomBytes(40_000);
  const { sha256 } = await uploader.put(streamOf(bytes));
  await sleep(1_100); // S3's Last-Modified counts whole seconds
  const listedAt = new Date();
  await sleep(2);
  const deleting = gc.delete(sha256, listedAt);
  await client.asked.promise;
  const reput = await uploader.put(streamOf(bytes));
  assert.equal(reput.sha256, sha256);
  assert.equal(await deleting, true, 'the GC removed the old object');
  assert.deepEqual(await readAll(await uploader.open(sha256)), bytes, 'the re-put bytes are there');
  await uploader.delete(sha256);
}

Deno.test({
  name: "s3: a re-put while the GC's delete is on its way keeps its bytes (the blob lock)",
  ...OPTIONS,
  fn: async () => {
    const client = new SlowDeletes(bucket.s3, 300);
    const store = new S3BlobStore(client, { locks: blobLocks(t.db), prefix: bucket.s3.prefix });
    await raceReputAgainstDelete(store, client, store);
  },
});

Deno.test({
  name:
    's3: two instances on one PostgreSQL: a re-put on one while the GC of the other deletes keeps its bytes',
  ...OPTIONS,
  ignore: !HAVE_S3 || testBackend() !== 'postgres',
  fn: async () => {
    const client = new SlowDeletes(bucket.s3, 300);
    const gc = new S3BlobStore(client, { locks: blobLocks(t.db), prefix: bucket.s3.prefix });
    // The other instance: another process, so only the database's advisory lock is shared.
    const shared: BlobLocks = { withLock: (sha256, job) => with_blob_lock(t.db.sql, sha256, job) };
    const other = new S3BlobStore(new S3Client(bucket.s3), { locks: shared, prefix: bucket.s3.prefix });
    await raceReputAgainstDelete(gc, client, other);
  },
});

Deno.test({
  name:
    's3: a large document goes as a multipart upload in parts of 8 MiB (S3 needs 5 MiB) and leaves no part',
  ...OPTIONS,
  fn: async () => {
    const client = new Recording(bucket.s3);
    const store = new S3BlobStore(client, { locks: blobLocks(t.db), prefix: bucket.s3.prefix });
    const bytes = randomBytes(PART_SIZE * 2 + 123_456);
    const blob = await store.put(streamOf(bytes, 999_999));
    assert.deepEqual(client.parts, [PART_SIZE, PART_SIZE, 123_456]);
    assert.ok(client.parts.slice(0, -1).every((n) => n >= 5 * 1024 * 1024));
    assert.equal(await sha256Hex(await readAll(await store.open(blob.sha256))), await sha256Hex(bytes));
    assert.deepEqual(await listKeys(bucket.client, `${bucket.s3.prefix}tmp/`), []);
    const unfinished = [];
    for await (const u of bucket.client.listMultipartUploads('')) unfinished.push(u);
    assert.deepEqual(unfinished, []);
    // One part exactly: a single PUT, no multipart.
    client.parts = [];
    const one = randomBytes(PART_SIZE);
    assert.deepEqual(await store.stat((await store.put(streamOf(one))).sha256), { size: PART_SIZE });
    assert.deepEqual(client.parts, []);
    await store.delete(blob.sha256);
    await store.delete(await sha256Hex(one));
  },
});

Deno.test({
  name: "s3: a range is asked of the store (206 with the range's length), not cut from the whole object",
  ...OPTIONS,
  fn: async () => {
    const client = new Recording(bucket.s3);
    const store = new S3BlobStore(client, { locks: blobLocks(t.db), prefix: bucket.s3.prefix });
    const bytes = randomBytes(3_000_000);
    const { sha256 } = await store.put(streamOf(bytes));
    const part = await readAll(await store.open(sha256, { start: 1_000_000, end: 1_065_535 }));
    assert.deepEqual(part, bytes.subarray(1_000_000, 1_065_536));
    assert.deepEqual(client.reads, [{ status: 206, length: 65_536 }]);
    await store.delete(sha256);
  },
});

Deno.test({
  name: 's3: the sweep removes old temporary objects and abandons unfinished multipart uploads',
  ...OPTIONS,
  fn: async () => {
    const store = new S3BlobStore(bucket.client, { locks: blobLocks(t.db), prefix: bucket.s3.prefix });
    const tmp = `${bucket.s3.prefix}tmp/left-by-a-crash`;
    await bucket.client.putObject(tmp, new Uint8Array([1, 2, 3]));
    const uploadId = await bucket.client.createMultipartUpload(`${bucket.s3.prefix}tmp/unfinished`);
    await bucket.client.uploadPart(`${bucket.s3.prefix}tmp/unfinished`, uploadId, 1, randomBytes(1000));
    await store.sweepTemporary(new Date(Date.now() - 3_600_000));
    assert.deepEqual(
      await listKeys(bucket.client, `${bucket.s3.prefix}tmp/`),
      [tmp],
      'younger than the limit: kept',
    );
    await store.sweepTemporary(new Date(Date.now() + 60_000));
    assert.deepEqual(await listKeys(bucket.client, `${bucket.s3.prefix}tmp/`), []);
    const unfinished = [];
    for await (const u of bucket.client.listMultipartUploads('')) unfinished.push(u.key);
    assert.deepEqual(unfinished, []);
  },
});

Deno.test({
  name: 's3: documents uploaded through the API are read back whole and in the ranges the viewer asks for',
  ...OPTIONS,
  fn: async () => {
    const store = new S3BlobStore(new S3Client(bucket.s3), {
      locks: blobLocks(t.db),
      prefix: bucket.s3.prefix,
    });
    const app = withStore(store);
    const pdf = await makePdf({ pages: 2, title: 'In the bucket', padTo: 400_000 });
    const up = await upload(app, await signIn(app, ...DEMO.attorney), {
      file: pdf,
      recipient: '100001',
      title: 'In the bucket',
    });
    assert.equal(up.status, 201, JSON.stringify(up.body));
    const path = `/api/documents/view/${up.body.document.documentid}`;
    const token = await signIn(app, ...DEMO.offender);
    const read = async (range?: string) => {
      const r = await app.app.request(path, {
        headers: { authorization: `Bearer ${token}`, ...(range ? { range } : {}) },
      }, { remoteAddr: { hostname: '127.0.0.1', port: 40000, transport: 'tcp' } });
      return { status: r.status, bytes: new Uint8Array(await r.arrayBuffer()) };
    };
    assert.deepEqual(await read(), { status: 200, bytes: pdf });
    assert.deepEqual(await read('bytes=65536-131071'), { status: 206, bytes: pdf.subarray(65536, 131072) });
    assert.deepEqual(await read('bytes=-1024'), { status: 206, bytes: pdf.subarray(pdf.length - 1024) });
    assert.ok(await store.stat(await sha256Hex(pdf)), 'the object is in the bucket');
  },
});

/** The test app with `store` as its blob store. */
function withStore(store: S3BlobStore): TestApp {
  const deps = { ...t.deps, blobs: store };
  return { ...t, deps, app: createApp(deps) };
}

/**
 * What readiness finds with `store` as the blob store: the anonymous answer's status (it says only ready or not)
 * and the department administrator's view of the checks (GET /api/admin/health).
 */
async function readiness(store: S3BlobStore) {
  const app = withStore(store);
  const anonymous = await call(app, 'GET', '/api/health/ready');
  const view = await call(app, 'GET', '/api/admin/health', { token: await signIn(app, ...DEMO.admin) });
  return {
    status: anonymous.status,
    body: { message: anonymous.body.message, checks: view.body.data.checks },
  };
}

Deno.test({
  name:
    's3: a wrong secret, an unknown key and a missing bucket each say which setting to fix (readiness 503)',
  ...OPTIONS,
  fn: async () => {
    const cases = [
      [{ secretAccessKey: 'not-the-secret' }, /refused the signature: check S3_SECRET_ACCESS_KEY/],
      [
        { accessKeyId: 'NOSUCHKEY0000' },
        /does not know the access key NOSUCHKEY0000: check S3_ACCESS_KEY_ID/,
      ],
      [
        { bucket: 'lmp-no-such-bucket' },
        /bucket "lmp-no-such-bucket" does not exist .*never creates buckets/,
      ],
    ] as const;
    for (const [change, message] of cases) {
      const store = new S3BlobStore(new S3Client({ ...bucket.s3, ...change }), {
        locks: blobLocks(t.db),
        prefix: bucket.s3.prefix,
      });
      await assert.rejects(store.checkWritable(), message);
      const r = await readiness(store);
      assert.equal(r.status, 503);
      assert.equal(r.body.message, 'Not ready.');
      assert.match(r.body.checks.blobStore, message);
    }
  },
});

Deno.test({
  name: "s3: a key the bucket's policy forbids to write gets a message naming the policy (readiness 503)",
  ...OPTIONS,
  fn: async () => {
    const denied = await createTestBucket();
    try {
      await denied.setPolicy({
        Version: '2012-10-17',
        Statement: [{
          Effect: 'Deny',
          Principal: '*',
          Action: ['s3:PutObject'],
          Resource: [`arn:aws:s3:::${denied.s3.bucket}/*`],
        }],
      });
      const store = new S3BlobStore(denied.client, { locks: blobLocks(t.db), prefix: denied.s3.prefix });
      const message =
        /may not do this in .*bucket "lmp-test-.*\(writing portal\/tmp\/ready-.*its policy must allow/;
      await assert.rejects(store.checkWritable(), message);
      assert.match((await readiness(store)).body.checks.blobStore, message);
    } finally {
      await denied.setPolicy(undefined);
      await denied.drop();
    }
  },
});

Deno.test({
  name: 's3: a gateway that is down, or accepts and never answers, fails within its deadline with a message',
  ...OPTIONS,
  fn: async () => {
    // Down: a port nothing listens on.
    const closed = Deno.listen({ hostname: '127.0.0.1', port: 0 });
    const downPort = (closed.addr as Deno.NetAddr).port;
    closed.close();
    const down = new S3BlobStore(new S3Client({ ...bucket.s3, endpoint: `http://127.0.0.1:${downPort}` }), {
      locks: blobLocks(t.db),
      prefix: bucket.s3.prefix,
    });
    await assert.rejects(
      down.checkWritable(),
      /cannot reach the object store at http:\/\/127\.0\.0\.1:\d+ \(writing portal\/tmp\/ready-.*\): .*Connection refused/,
    );
    const r = await readiness(down);
    assert.equal(r.status, 503);
    assert.match(r.body.checks.blobStore, /cannot reach the object store/);

    // Hung: connections are accepted and never answered (a gateway whose OSDs are gone behaves so).
    const silent = Deno.listen({ hostname: '127.0.0.1', port: 0 });
    const held: Deno.Conn[] = [];
    const accepting = (async () => {
      for await (const conn of silent) held.push(conn);
    })().catch(() => {});
    try {
      const endpoint = `http://127.0.0.1:${(silent.addr as Deno.NetAddr).port}`;
      const short = { callMs: 500, bytesPerSecond: 1 << 30, readBytesPerSecond: 1 << 30 };
      const hung = new S3BlobStore(new S3Client({ ...bucket.s3, endpoint }, short), {
        locks: blobLocks(t.db),
        prefix: bucket.s3.prefix,
      });
      await assert.rejects(hung.checkWritable(), /did not answer within 0\.5 s/);
      await assert.rejects(hung.stat('a'.repeat(64)), /did not answer within 0\.5 s/);
      // With the shipped deadlines, readiness gives up at its own 3 s.
      const slow = new S3BlobStore(new S3Client({ ...bucket.s3, endpoint }), {
        locks: blobLocks(t.db),
        prefix: bucket.s3.prefix,
      });
      const ready = await readiness(slow);
      assert.equal(ready.status, 503);
      assert.match(ready.body.checks.blobStore, /timed out/);
    } finally {
      silent.close();
      for (const conn of held) conn.close();
      await accepting;
    }
  },
});

Deno.test({
  name: 's3: a read whose store stops sending mid-body is cut at its deadline, never left hanging',
  ...OPTIONS,
  fn: async () => {
    // A store that answers a read's headers and the body's first bytes, then nothing (a gateway whose disk hung).
    const server = Deno.listen({ hostname: '127.0.0.1', port: 0 });
    const held: Deno.Conn[] = [];
    const serving = (async () => {
      for await (const conn of server) {
        held.push(conn);
        await conn.read(new Uint8Array(65536));
        await conn.write(new TextEncoder().encode(
          'HTTP/1.1 200 OK\r\ncontent-length: 1000000\r\ncontent-type: application/pdf\r\n\r\n%PDF-1.7\n',
        ));
      }
    })().catch(() => {});
    try {
      const endpoint = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
      const client = new S3Client({ ...bucket.s3, endpoint }, {
        callMs: 300,
        bytesPerSecond: 1 << 30,
        readBytesPerSecond: 1 << 30,
      });
      const store = new S3BlobStore(client, { locks: blobLocks(t.db), prefix: bucket.s3.prefix });
      const stream = await store.open('b'.repeat(64));
      assert.ok(stream);
      await assert.rejects(new Response(stream).arrayBuffer());
    } finally {
      server.close();
      for (const conn of held) conn.close();
      await serving;
    }
  },
});

Deno.test({
  name: 's3 teardown',
  ...OPTIONS,
  fn: async () => {
    await bucket.drop();
    await t.close();
  },
});
