/**
 * BLOB_STORE=s3 as operators run it, against the run's Ceph gateway: two API processes on one PostgreSQL and one
 * bucket, each with a DATA_DIR of its own (no shared disk); start-up refused with a message for a wrong secret, a
 * missing bucket, a gateway that is down and one that never answers; readiness following the gateway as it stops,
 * hangs and comes back. Needs TEST_DATABASE_URL and TEST_S3_* (scripts/test.mjs starts the gateway).
 */
import assert from 'node:assert/strict';
import postgres from 'postgres';
import { SealedBlobStore } from '../../api/blobs/sealed_store.ts';
import { createBlobStore } from '../../api/blobs/store.ts';
import { blobKekOf } from '../../api/domain/keys.ts';
import { connectPostgres } from '../../api/db/client.ts';
import { purgeExpiredDocuments, type PurgeResult } from '../../api/domain/retention.ts';
import { freshDatabase, type Instance, signInAt, startInstance } from '../support/instance.ts';
import { makePdf, sha256Hex } from '../support/pdfs.ts';
import { createTestBucket, HAVE_S3, listKeys } from '../support/s3.ts';
import { tcpProxy } from '../support/tcp_proxy.ts';

const SERVER = Deno.env.get('TEST_DATABASE_URL');
const OPTIONS = { sanitizeResources: false, sanitizeOps: false, ignore: !SERVER || !HAVE_S3 } as const;
const SECRETS = {
  SESSION_SECRET: 's3-instances-share-this-secret-0123456789',
  PIN_PEPPER: 's3-instances-share-this-pepper-0123456789',
  // Shared like the others (docs/operations.md, "Several instances"): a second instance with a key of its own
  // refuses to start on the first one's data.
  MFA_SECRET_KEY: 's3-instances-share-this-mfa-key-0123456789',
  BLOB_KEY: 's3-instances-share-this-blob-key-0123456789',
};
/** The viewer's range size (pwa/src/viewer/engine.ts, rangeChunkSize). */
const VIEWER_RANGE = 65_536;

async function until(what: string, check: () => Promise<boolean>, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Reads the whole document in the viewer's 64 KiB ranges, four at a time as a browser would keep going. */
async function readInRanges(base: string, id: string, token: string, size: number): Promise<Uint8Array> {
  const out = new Uint8Array(size);
  const starts = Array.from({ length: Math.ceil(size / VIEWER_RANGE) }, (_, i) => i * VIEWER_RANGE);
  const worker = async () => {
    for (let start = starts.shift(); start !== undefined; start = starts.shift()) {
      const end = Math.min(size, start + VIEWER_RANGE) - 1;
      const r = await fetch(`${base}/api/documents/view/${id}`, {
        headers: { authorization: `Bearer ${token}`, range: `bytes=${start}-${end}` },
      });
      assert.equal(r.status, 206, `bytes=${start}-${end}`);
      assert.equal(r.headers.get('content-range'), `bytes ${start}-${end}/${size}`);
      out.set(new Uint8Array(await r.arrayBuffer()), start);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return out;
}

Deno.test({
  name:
    "two instances with BLOB_STORE=s3 and no shared disk: 30 MB uploaded through one is read byte-identical through the other in the viewer's ranges; the purge deletes its object",
  ...OPTIONS,
  fn: async () => {
    const db = await freshDatabase(SERVER!);
    const bucket = await createTestBucket();
    const sql = postgres(db.url, { max: 2, onnotice: () => {} });
    const dirs = [
      await Deno.makeTempDir({ prefix: 'lmp-s3-a-' }),
      await Deno.makeTempDir({ prefix: 'lmp-s3-b-' }),
    ];
    const env = (i: number, seed: boolean) => ({
      ...bucket.env,
      ...SECRETS,
      DATABASE_URL: db.url,
      DATA_DIR: dirs[i],
      DEMO_SEED: seed ? '1' : '0',
      PWA_DIST: `${dirs[i]}/no-pwa`,
    });
    let a: Instance | undefined;
    let b: Instance | undefined;
    try {
      a = await startInstance(env(0, true));
      b = await startInstance(env(1, false));
      await sql`update settings set value = jsonb_set(value, '{value}', '40'::jsonb) where key = 'max_upload_mb'`;

      const pdf = await makePdf({ pages: 4, title: 'Thirty megabytes', padTo: 30_000_000 });
      const sha = await sha256Hex(pdf);
      const attorney = await signInAt(a.url, 'attorney@demo.test', 'Demo-Attorney-2026!');
      const form = new FormData();
      form.set('file', new File([pdf as BlobPart], 'record.pdf', { type: 'application/pdf' }));
      form.set('recipient_doc_number', '100001');
      form.set('title', 'Through the bucket');
      const up = await fetch(`${a.url}/api/documents/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${attorney}` },
        body: form,
      });
      const uploaded = await up.json();
      assert.equal(up.status, 201, JSON.stringify(uploaded));
      const id = uploaded.document.documentid;
      // Sealed: the object is named by its sealed bytes, not by the letter's digest.
      const [stored] = await sql<{ name: string; size: number }[]>`
        select name, stored_size::float8 as size from sealed_blobs where sha256 = ${sha}`;
      assert.ok(stored, 'the letter is sealed');
      assert.equal(await bucket.client.headObject(`${bucket.s3.prefix}blobs/${sha}`), undefined);
      const key = `${bucket.s3.prefix}blobs/${stored.name}`;
      assert.deepEqual(
        (await bucket.client.headObject(key))?.size,
        stored.size,
        'the object is in the bucket',
      );

      // Through B, as pdf.js reads it: the first request learns the size and that ranges are served, then ranges.
      const offender = await signInAt(b.url, '100001', '246810');
      const first = await fetch(`${b.url}/api/documents/view/${id}`, {
        headers: { authorization: `Bearer ${offender}` },
      });
      assert.equal(first.status, 200);
      assert.equal(first.headers.get('accept-ranges'), 'bytes');
      assert.equal(Number(first.headers.get('content-length')), pdf.length);
      await first.body?.cancel();
      const tail = await fetch(`${b.url}/api/documents/view/${id}`, {
        headers: { authorization: `Bearer ${offender}`, range: 'bytes=-1024' },
      });
      assert.equal(tail.status, 206);
      assert.deepEqual(new Uint8Array(await tail.arrayBuffer()), pdf.subarray(pdf.length - 1024));
      const read = await readInRanges(b.url, id, offender, pdf.length);
      assert.equal(await sha256Hex(read), sha, 'byte-identical through the other instance');

      // No instance wrote a blob to its own disk.
      for (const dir of dirs) {
        const local = await Deno.stat(`${dir}/blobs`).then(() => true, () => false);
        assert.equal(local, false, `nothing under ${dir}/blobs`);
      }

      // The retention purge: both instances start over expired documents and delete them once, audited (each row
      // stays a tombstone without bytes in its sender's list for one more retention period).
      await Promise.all([a.stop(), b.stop()]);
      const expired = await sql<{ id: string; sha256: string }[]>`
        update documents set uploaded_at = now() - interval '4000 days' returning id::text as id, sha256`;
      [a, b] = await Promise.all([startInstance(env(0, false)), startInstance(env(1, false))]);
      const live = () => sql`select 1 from documents where deleted_at is null`;
      await until('the purge', async () => (await live()).length === 0).catch((error) => {
        throw new Error(`${error.message}\n${[...a!.lines, ...b!.lines].slice(-20).join('\n')}`);
      });
      const audited = await sql<{ n: number }[]>`
        select count(*)::int as n from audit_logs where event_type = 'document_deleted'`;
      assert.equal(audited[0].n, expired.length);
      // Their objects outlive the rows by the GC's grace period (an hour, for uploads of the same bytes still
      // committing), so the next collection is run here without it, on the same database and bucket.
      assert.ok(await bucket.client.headObject(key), 'kept through the grace period');
      const gcDb = connectPostgres(db.url, { max: 3 });
      try {
        const blobs = new SealedBlobStore(
          createBlobStore({ blobStore: 's3', dataDir: dirs[0], s3: bucket.s3 }, gcDb),
          {
            sql: gcDb.sql,
            kek: await blobKekOf(new TextEncoder().encode(SECRETS.BLOB_KEY)),
          },
        );
        // An instance may still be finishing its own round (the lock makes this one skip): wait for ours.
        let purged: PurgeResult = { documents: 0, blobs: 0, skipped: true };
        await until('a collection of its own', async () => {
          purged = await purgeExpiredDocuments({ sql: gcDb.sql, blobs }, { blobGraceMs: 0, exclusive: true });
          return !purged.skipped;
        });
        assert.equal(purged.blobs, new Set(expired.map((e) => e.sha256)).size);
      } finally {
        await gcDb.close();
      }
      assert.equal(await bucket.client.headObject(key), undefined, "the 30 MB document's object is deleted");
      assert.deepEqual(
        await listKeys(bucket.client, `${bucket.s3.prefix}blobs/`),
        [],
        'and every purged one',
      );
    } finally {
      for (const i of [a, b]) if (i) await i.stop();
      await sql.end();
      await db.drop();
      await bucket.drop();
      for (const dir of dirs) await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test({
  name:
    'BLOB_STORE=s3: a wrong secret, a missing bucket, a gateway that is down or never answers each stop the start with a message',
  ...OPTIONS,
  fn: async () => {
    const bucket = await createTestBucket();
    const closed = Deno.listen({ hostname: '127.0.0.1', port: 0 });
    const downPort = (closed.addr as Deno.NetAddr).port;
    closed.close();
    const silent = tcpProxy({ hostname: '127.0.0.1', port: 9 });
    silent.hang();
    const cases = [
      [{ S3_SECRET_ACCESS_KEY: 'not-the-secret' }, /refused the signature: check S3_SECRET_ACCESS_KEY/],
      [
        { S3_BUCKET: 'lmp-no-such-bucket' },
        /the bucket "lmp-no-such-bucket" does not exist .*never creates buckets/,
      ],
      [
        { S3_ENDPOINT: `http://127.0.0.1:${downPort}` },
        /cannot reach the object store at http:\/\/127\.0\.0\.1:\d+ .*Connection refused/,
      ],
      [{ S3_ENDPOINT: `http://127.0.0.1:${silent.port}` }, /did not answer within 15 s/],
    ] as const;
    const dbs = await Promise.all(cases.map(() => freshDatabase(SERVER!)));
    const dirs = await Promise.all(cases.map(() => Deno.makeTempDir({ prefix: 'lmp-s3-refused-' })));
    try {
      await Promise.all(cases.map(async ([change, message], i) => {
        const started = startInstance({
          ...bucket.env,
          ...SECRETS,
          ...change,
          DATABASE_URL: dbs[i].url,
          DATA_DIR: dirs[i],
          PWA_DIST: `${dirs[i]}/no-pwa`,
        });
        const error = await started.then(async (instance) => {
          await instance.stop();
          return new Error('it started');
        }, (e: Error) => e);
        assert.match(error.message, /the API exited \(1\) before listening/);
        assert.match(error.message, /Cannot start with BLOB_STORE=s3: /);
        assert.match(error.message, message);
      }));
    } finally {
      silent.close();
      for (const d of dbs) await d.drop();
      for (const dir of dirs) await Deno.remove(dir, { recursive: true }).catch(() => {});
      await bucket.drop();
    }
  },
});

Deno.test({
  name: 'BLOB_STORE=s3: readiness follows the gateway as it stops, hangs and comes back, each with a message',
  ...OPTIONS,
  fn: async () => {
    const db = await freshDatabase(SERVER!);
    const bucket = await createTestBucket();
    const gateway = new URL(bucket.s3.endpoint);
    const proxy = tcpProxy({ hostname: gateway.hostname, port: Number(gateway.port) });
    const dir = await Deno.makeTempDir({ prefix: 'lmp-s3-ready-' });
    let instance: Instance | undefined;
    const ready = async () => {
      const r = await fetch(`${instance!.url}/api/health/ready`);
      return { status: r.status, body: await r.json() };
    };
    try {
      instance = await startInstance({
        ...bucket.env,
        ...SECRETS,
        S3_ENDPOINT: `http://127.0.0.1:${proxy.port}`,
        DATABASE_URL: db.url,
        DATA_DIR: dir,
        PWA_DIST: `${dir}/no-pwa`,
        // The store is probed at most once a second here (a minute by default): the test waits for each change.
        READY_PROBE_SECONDS: '1',
      });
      assert.equal((await ready()).status, 200);
      // What failed is in the log (and the department admin's view), never in the anonymous answer.
      const notReady = (pattern: RegExp) =>
        instance!.errors.some((l) => l.includes('"msg":"not ready"') && pattern.test(l));
      proxy.stop();
      await until('not ready', async () => (await ready()).status === 503);
      const down = await ready();
      assert.deepEqual(down.body, { success: false, message: 'Not ready.' });
      await until('the log says why', () =>
        Promise.resolve(
          notReady(/"database":"ok".*cannot reach the object store at http:\/\/127\.0\.0\.1:\d+ .*refused/),
        ));
      proxy.hang();
      await until('a hung gateway in the log', async () => {
        await ready();
        return notReady(/"blobStore":"timed out"/);
      });
      proxy.start();
      await until('ready again', async () => (await ready()).status === 200);
    } finally {
      await instance?.stop();
      proxy.close();
      await db.drop();
      await bucket.drop();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
