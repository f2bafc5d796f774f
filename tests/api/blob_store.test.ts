/**
 * Every blob backend passes the same suite: exact round trip, ranges (suffix ranges included), dedup, existence,
 * delete, list, staging sweep, a large document, and the GC's delete racing a re-put of the same bytes. The s3
 * backend runs against the run's Ceph gateway (tests/support/s3.ts), ignored when the run has none.
 */
import assert from 'node:assert/strict';
import { createBlobStore } from '../../api/blobs/store.ts';
import type { BlobStore } from '../../api/blobs/types.ts';
import { CHUNK_SIZE } from '../../api/blobs/pg_store.ts';
import { parseRange } from '../../api/blobs/range.ts';
import { PART_SIZE } from '../../api/blobs/s3_store.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { DB_TEST as DB_TEST_OPTIONS } from '../support/app.ts';
import { sha256Hex, streamOf } from '../support/pdfs.ts';
import { createTestBucket, HAVE_S3, listKeys, type TestBucket } from '../support/s3.ts';

function randomBytes(n: number): Uint8Array {
  const b = new Uint8Array(n);
  for (let at = 0; at < n; at += 65536) crypto.getRandomValues(b.subarray(at, at + 65536));
  return b;
}

async function readAll(stream: ReadableStream<Uint8Array> | undefined): Promise<Uint8Array> {
  assert.ok(stream, 'blob should exist');
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const backend of ['fs', 'postgres', 's3'] as const) {
  let db: TestDatabase;
  let dir: string;
  let store: BlobStore;
  let bucket: TestBucket | undefined;
  // Spans several chunks of the postgres backend and ends mid-chunk.
  const bytes = randomBytes(CHUNK_SIZE * 3 + 12_345);
  const DB_TEST = { ...DB_TEST_OPTIONS, ignore: backend === 's3' && !HAVE_S3 };

  Deno.test({
    name: `${backend}: setup`,
    ...DB_TEST,
    fn: async () => {
      db = await createTestDatabase();
      dir = await Deno.makeTempDir({ prefix: 'lmp-blobs-' });
      if (backend === 's3') bucket = await createTestBucket();
      store = createBlobStore({ blobStore: backend, dataDir: dir, s3: bucket?.s3 }, db);
    },
  });

  Deno.test({
    name: `${backend}: bytes round-trip exactly under their SHA-256`,
    ...DB_TEST,
    fn: async () => {
      const blob = await store.put(streamOf(bytes, 70_001));
      assert.equal(blob.sha256, await sha256Hex(bytes));
      assert.equal(blob.size, bytes.length);
      assert.deepEqual(await store.stat(blob.sha256), { size: bytes.length });
      const back = await readAll(await store.open(blob.sha256));
      assert.equal(await sha256Hex(back), blob.sha256);
    },
  });

  Deno.test({
    name: `${backend}: ranges return exactly the asked bytes, across chunk boundaries`,
    ...DB_TEST,
    fn: async () => {
      const sha = await sha256Hex(bytes);
      for (
        const [start, end] of [
          [0, 0],
          [0, 99],
          [CHUNK_SIZE - 10, CHUNK_SIZE + 10],
          [12345, CHUNK_SIZE * 2 + 7],
          [bytes.length - 1, bytes.length - 1],
          [CHUNK_SIZE, CHUNK_SIZE * 2 - 1],
        ]
      ) {
        const part = await readAll(await store.open(sha, { start, end }));
        assert.deepEqual(part, bytes.subarray(start, end + 1), `range ${start}-${end}`);
      }
    },
  });

  Deno.test({
    name:
      `${backend}: a suffix range (bytes=-n, how a PDF reader finds the cross-reference table) is the last n bytes`,
    ...DB_TEST,
    fn: async () => {
      const sha = await sha256Hex(bytes);
      for (const n of [1, 500, CHUNK_SIZE + 3, bytes.length, bytes.length + 10]) {
        const wanted = parseRange(`bytes=-${n}`, bytes.length);
        assert.equal(wanted.kind, 'partial');
        if (wanted.kind !== 'partial') continue;
        const part = await readAll(await store.open(sha, wanted.range));
        assert.deepEqual(part, bytes.subarray(Math.max(0, bytes.length - n)), `bytes=-${n}`);
      }
    },
  });

  Deno.test({
    name: `${backend}: stat tells a stored blob's size and undefined for one never stored`,
    ...DB_TEST,
    fn: async () => {
      assert.deepEqual(await store.stat(await sha256Hex(bytes)), { size: bytes.length });
      assert.equal(await store.stat(await sha256Hex(randomBytes(10))), undefined);
    },
  });

  Deno.test({
    name: `${backend}: the same bytes twice are stored once; an empty blob works`,
    ...DB_TEST,
    fn: async () => {
      const again = await store.put(streamOf(bytes));
      assert.equal(again.sha256, await sha256Hex(bytes));
      const empty = await store.put(streamOf(new Uint8Array(0)));
      assert.equal(empty.size, 0);
      assert.equal((await readAll(await store.open(empty.sha256))).length, 0);
      const names = [];
      for await (const b of store.list()) names.push(b.sha256);
      assert.deepEqual(names.sort(), [again.sha256, empty.sha256].sort());
    },
  });

  Deno.test({
    name: `${backend}: missing or malformed names are undefined, delete removes`,
    ...DB_TEST,
    fn: async () => {
      assert.equal(await store.open('0'.repeat(64)), undefined);
      assert.equal(await store.open('../../etc/passwd'), undefined);
      assert.equal(await store.stat('nope'), undefined);
      const sha = await sha256Hex(bytes);
      await store.delete(sha);
      assert.equal(await store.open(sha), undefined);
      assert.equal(await store.stat(sha), undefined);
    },
  });

  Deno.test({
    name:
      `${backend}: the GC's delete keeps a blob re-put since its listing; a put after a delete stores anew`,
    ...DB_TEST,
    fn: async () => {
      // The GC must not remove bytes an upload of the same file has just re-put and is committing.
      const blob = randomBytes(1_000);
      const { sha256 } = await store.put(streamOf(blob));
      const listedAt = new Date(Date.now() - 60_000);
      assert.equal(await store.delete(sha256, listedAt), false, 're-put after the listing: kept');
      assert.ok(await store.stat(sha256));
      assert.equal(
        await store.delete(sha256, new Date(Date.now() + 60_000)),
        true,
        'untouched since: removed',
      );
      assert.equal(await store.stat(sha256), undefined);
      assert.equal(await store.delete(sha256), false, 'already gone');
      await store.put(streamOf(blob));
      assert.deepEqual(await readAll(await store.open(sha256)), blob);
      await store.delete(sha256);
    },
  });

  Deno.test({
    name: `${backend}: the GC's delete and a re-put of the same bytes at once never lose the re-put bytes`,
    ...DB_TEST,
    fn: async () => {
      const blob = randomBytes(50_000);
      const { sha256 } = await store.put(streamOf(blob));
      for (let round = 0; round < 6; round++) {
        // The GC lists after the blob's last write (S3's Last-Modified counts whole seconds), then an upload of
        // the same bytes and the GC's delete run together, one of them a few milliseconds behind the other.
        await sleep(backend === 's3' ? 1_100 : 5);
        const listedAt = new Date();
        await sleep(2);
        const lag = () => sleep(Math.floor(Math.random() * 15));
        await Promise.all([
          lag().then(() => store.put(streamOf(blob))),
          lag().then(() => store.delete(sha256, listedAt)),
        ]);
        assert.deepEqual(
          await readAll(await store.open(sha256)),
          blob,
          `round ${round}: the re-put bytes are there`,
        );
      }
      await store.delete(sha256);
    },
  });

  Deno.test({
    name: `${backend}: a large document (several of the s3 store's parts) round-trips, ranges across parts`,
    ...DB_TEST,
    fn: async () => {
      const large = randomBytes(PART_SIZE * 2 + 777_777);
      const blob = await store.put(streamOf(large, 1_000_003));
      assert.equal(blob.sha256, await sha256Hex(large));
      assert.deepEqual(await store.stat(blob.sha256), { size: large.length });
      assert.equal(await sha256Hex(await readAll(await store.open(blob.sha256))), blob.sha256);
      for (const [start, end] of [[PART_SIZE - 5, PART_SIZE + 5], [PART_SIZE * 2, large.length - 1]]) {
        const part = await readAll(await store.open(blob.sha256, { start, end }));
        assert.deepEqual(part, large.subarray(start, end + 1), `range ${start}-${end}`);
      }
      if (bucket) {
        assert.deepEqual(
          await listKeys(bucket.client, `${bucket.s3.prefix}tmp/`),
          [],
          'no temporary object left',
        );
      }
      assert.ok(await store.delete(blob.sha256));
    },
  });

  Deno.test({
    name: `${backend}: a put whose stream fails leaves nothing under a real name`,
    ...DB_TEST,
    fn: async () => {
      const failing = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(randomBytes(CHUNK_SIZE + 5));
          controller.error(new Error('client went away'));
        },
      });
      await assert.rejects(store.put(failing));
      const names = [];
      for await (const b of store.list()) names.push(b.sha256);
      assert.equal(names.length, 1, 'only the empty blob of the earlier test');
      await store.sweepTemporary(new Date(Date.now() + 1000));
      if (backend === 'postgres') {
        const [left] = await db.sql`select count(*)::int as n from blob_chunks where sha256 like 'tmp:%'`;
        assert.equal(left.n, 0);
      }
    },
  });

  Deno.test({
    name: `${backend}: a slow reader does not hold the database`,
    ...DB_TEST,
    fn: async () => {
      const blob = await store.put(streamOf(bytes));
      const reader = (await store.open(blob.sha256))!.getReader();
      await reader.read();
      // Mid-stream, other queries still run (PGlite has one connection).
      const [row] = await db.sql`select 1 as ok`;
      assert.equal(row.ok, 1);
      await reader.cancel();
    },
  });

  Deno.test({
    name: `${backend}: concurrent reads and other queries share the database without errors`,
    ...DB_TEST,
    fn: async () => {
      const blob = await store.put(streamOf(bytes));
      const reads = Array.from(
        { length: 8 },
        async () => await sha256Hex(await readAll(await store.open(blob.sha256))),
      );
      const queries = Array.from({ length: 20 }, async () => (await db.sql`select 1 as ok`)[0].ok);
      const [digests, oks] = await Promise.all([Promise.all(reads), Promise.all(queries)]);
      assert.ok(digests.every((d) => d === blob.sha256));
      assert.ok(oks.every((ok) => ok === 1));
    },
  });

  Deno.test({
    name: `${backend}: teardown`,
    ...DB_TEST,
    fn: async () => {
      await db.drop();
      await Deno.remove(dir, { recursive: true });
      await bucket?.drop();
    },
  });
}
