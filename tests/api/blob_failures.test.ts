/**
 * An object store that fails, and a portal that fails cleanly: the run's Ceph gateway behind a TCP relay
 * (tests/support/tcp_proxy.ts) that the test stops, cuts or freezes. A read that cannot start is a 503 with
 * Retry-After and no reading recorded; a read broken mid-body, or left without bytes past the idle time, aborts the
 * reader's connection (an incomplete transfer, never a clean short 200) and logs the document, the bytes sent and
 * the cause; readiness probes the store at most once a minute and tells anonymous callers nothing about it.
 */
import assert from 'node:assert/strict';
import { createApp } from '../../api/app.ts';
import { S3Client } from '../../api/blobs/s3_client.ts';
import { S3BlobStore } from '../../api/blobs/s3_store.ts';
import { blobLocks } from '../../api/blobs/store.ts';
import type { AppDeps } from '../../api/deps.ts';
import { PROBE_INTERVAL_MS } from '../../api/http/readiness.ts';
import type { Logger } from '../../api/log.ts';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { upload } from '../support/documents.ts';
import { makePdf } from '../support/pdfs.ts';
import { createTestBucket, HAVE_S3, type TestBucket } from '../support/s3.ts';
import { type TcpProxy, tcpProxy } from '../support/tcp_proxy.ts';

const OPTIONS = { ...DB_TEST, ignore: !HAVE_S3 };
/** The idle time the test runs with (BLOB_READ_IDLE_SECONDS is whole seconds; the config's field is not). */
const IDLE_MS = 400;

/** The real client, counting the requests that write to the store. */
class CountingClient extends S3Client {
  writes = 0;
  override putObject(key: string, body: Uint8Array, sha256?: string) {
    this.writes++;
    return super.putObject(key, body, sha256);
  }
  override deleteObject(key: string) {
    this.writes++;
    return super.deleteObject(key);
  }
}

let t: TestApp;
let bucket: TestBucket;
let proxy: TcpProxy;
let client: CountingClient;
let app: TestApp;
let server: Deno.HttpServer<Deno.NetAddr>;
const clock = { now: 5_000_000 };
const lines: string[] = [];
let offender: string;
let docId: string;
let pdf: Uint8Array;

async function viewedCount(id: string): Promise<number> {
  const [row] = await t.deps.sql<{ n: number }[]>`
    select count(*)::int as n from audit_logs where event_type = 'document_viewed' and resource_id = ${id}`;
  return row.n;
}

async function viewedAt(id: string): Promise<Date | null> {
  const [row] = await t.deps.sql<
    { viewed_at: Date | null }[]
  >`select viewed_at from documents where id = ${id}`;
  return row.viewed_at;
}

/** The reading through a real socket: the status, and whether the body arrived whole. */
async function readOverSocket(id: string) {
  const r = await fetch(`http://127.0.0.1:${server.addr.port}/api/documents/view/${id}`, {
    headers: { authorization: `Bearer ${offender}` },
  });
  const length = Number(r.headers.get('content-length'));
  try {
    const bytes = new Uint8Array(await r.arrayBuffer());
    return { status: r.status, length, whole: true, received: bytes.length };
  } catch (error) {
    return { status: r.status, length, whole: false, error: String(error) };
  }
}

Deno.test({
  name: 'store failures: setup',
  ...OPTIONS,
  fn: async () => {
    t = await createTestApp();
    bucket = await createTestBucket();
    const gateway = new URL(bucket.s3.endpoint);
    proxy = tcpProxy({ hostname: gateway.hostname, port: Number(gateway.port) });
    client = new CountingClient({ ...bucket.s3, endpoint: `http://127.0.0.1:${proxy.port}` });
    const blobs = new S3BlobStore(client, { locks: blobLocks(t.db), prefix: bucket.s3.prefix });
    const keep = (level: string) => (message: string, fields?: Record<string, unknown>) =>
      lines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
    const log: Logger = { info: () => {}, warn: keep('warn'), error: keep('error') };
    const config = { ...t.deps.config, blobReadIdleMs: IDLE_MS };
    const deps: AppDeps = { ...t.deps, config, blobs, log, clock: () => clock.now };
    app = { ...t, deps, app: createApp(deps) };
    server = Deno.serve({ hostname: '127.0.0.1', port: 0, onListen() {} }, app.app.fetch);
    offender = await signIn(app, ...DEMO.offender);
    // 1.5 MB: far more than the relay lets through before it cuts or freezes a read below.
    pdf = await makePdf({ pages: 2, title: 'Store failures', padTo: 1_500_000 });
    const up = await upload(app, await signIn(app, ...DEMO.attorney), {
      file: pdf,
      recipient: '100001',
      title: 'Store failures',
    });
    assert.equal(up.status, 201, JSON.stringify(up.body));
    docId = up.body.document.documentid;
  },
});

Deno.test({
  name: 'store failures: 50 anonymous readiness calls write to the store at most once (a PUT and its DELETE)',
  ...OPTIONS,
  fn: async () => {
    clock.now += PROBE_INTERVAL_MS;
    client.writes = 0;
    for (let i = 0; i < 50; i++) {
      const r = await call(app, 'GET', '/api/health/ready');
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
    assert.equal(client.writes, 2, 'one probe: one PUT and one DELETE');
  },
});

Deno.test({
  name:
    'store failures: with the gateway stopped a read answers 503 with Retry-After and records nothing, and anonymous readiness names no address',
  ...OPTIONS,
  fn: async () => {
    proxy.stop();
    try {
      const r = await call(app, 'GET', `/api/documents/view/${docId}`, { token: offender });
      assert.equal(r.status, 503, JSON.stringify(r.body));
      assert.equal(r.headers.get('retry-after'), '30');
      assert.deepEqual(r.body, {
        success: false,
        message: 'The document cannot be opened right now. Please try again in a minute.',
        code: 'document_store_unavailable',
      });
      assert.equal(await viewedCount(docId), 0, 'no document_viewed audit');
      assert.equal(await viewedAt(docId), null, 'the sender does not see "opened"');
      assert.ok(
        lines.some((l) => l.startsWith('error document read could not start') && l.includes(docId)),
        lines.join('\n'),
      );

      clock.now += PROBE_INTERVAL_MS; // the next readiness call probes the store again
      const ready = await call(app, 'GET', '/api/health/ready');
      assert.equal(ready.status, 503);
      const text = JSON.stringify(ready.body) + [...ready.headers.values()].join(' ');
      for (
        const secret of ['127.0.0.1', String(proxy.port), bucket.s3.bucket, bucket.s3.prefix, 'object store']
      ) {
        assert.ok(!text.includes(secret), `the anonymous answer names ${secret}`);
      }
      assert.deepEqual(ready.body, { success: false, message: 'Not ready.' });
      const admin = await signIn(app, ...DEMO.admin);
      const view = await call(app, 'GET', '/api/admin/health', { token: admin });
      assert.match(
        view.body.data.checks.blobStore,
        /cannot reach the object store at http:\/\/127\.0\.0\.1:/,
      );
    } finally {
      proxy.start();
    }
    const again = await readOverSocket(docId);
    assert.deepEqual(again, { status: 200, length: pdf.length, whole: true, received: pdf.length });
    assert.equal(await viewedCount(docId), 1, 'the read that happened is recorded');
  },
});

Deno.test({
  name:
    'store failures: a gateway killed mid-read aborts the connection (incomplete transfer) and logs the document, the bytes sent and the cause',
  ...OPTIONS,
  fn: async () => {
    lines.length = 0;
    proxy.cutAfter(300_000);
    try {
      const r = await readOverSocket(docId);
      assert.equal(r.status, 200);
      assert.equal(r.length, pdf.length);
      assert.equal(r.whole, false, `the reader sees an incomplete transfer: ${JSON.stringify(r)}`);
    } finally {
      proxy.start();
    }
    const line = lines.find((l) => l.startsWith('error document read broke off'));
    assert.ok(line, lines.join('\n'));
    const fields = JSON.parse(line.slice(line.indexOf('{')));
    assert.equal(fields.document_id, docId);
    assert.ok(fields.bytes_sent > 0 && fields.bytes_sent < pdf.length, JSON.stringify(fields));
    assert.equal(fields.bytes_expected, pdf.length);
    assert.ok(fields.cause, JSON.stringify(fields));
  },
});

Deno.test({
  name:
    'store failures: a gateway that stops answering mid-read is cut after the idle time, whatever the size, and logged',
  ...OPTIONS,
  fn: async () => {
    lines.length = 0;
    proxy.freezeAfter(300_000);
    try {
      const r = await readOverSocket(docId);
      assert.equal(r.status, 200);
      assert.equal(r.whole, false, `the reader sees an incomplete transfer: ${JSON.stringify(r)}`);
    } finally {
      proxy.stop(); // and the frozen connections with it
    }
    const line = lines.find((l) => l.startsWith('error document read broke off'));
    assert.ok(line, lines.join('\n'));
    const fields = JSON.parse(line.slice(line.indexOf('{')));
    assert.equal(fields.document_id, docId);
    assert.ok(fields.bytes_sent < pdf.length, JSON.stringify(fields));
    assert.match(fields.cause, new RegExp(`sent nothing for ${IDLE_MS / 1000} s`));
  },
});

Deno.test({
  name: 'store failures: teardown',
  ...OPTIONS,
  fn: async () => {
    await server.shutdown();
    proxy.close();
    await bucket.drop();
    await t.close();
  },
});
