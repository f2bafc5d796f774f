/**
 * The fs and postgres stores fail as the s3 store does (tests/api/blob_failures.test.ts): a read the store cannot
 * start is a 503 with Retry-After and records nothing; a read whose bytes run out early (a file cut short on disk, a
 * chunk missing from the table) aborts the reader's connection and logs the document, the bytes sent and the cause.
 */
import assert from 'node:assert/strict';
import { createApp } from '../../api/app.ts';
import type { SealedBlobStore } from '../../api/blobs/sealed_store.ts';
import { createBlobStore } from '../../api/blobs/store.ts';
import { SEGMENT_SIZE } from '../../api/blobs/stream_seal.ts';
import { find_sealed_blob } from '../../api/db/sealed_blobs.ts';
import type { AppDeps } from '../../api/deps.ts';
import type { Logger } from '../../api/log.ts';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { upload } from '../support/documents.ts';
import { makePdf, sha256Hex } from '../support/pdfs.ts';

let t: TestApp;
const lines: string[] = [];

/** An app on `store`, served on a real socket (an aborted answer is only seen over one). */
function serve(blobs: AppDeps['blobs']) {
  const keep = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    lines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
  const log: Logger = { info: () => {}, warn: keep('warn'), error: keep('error') };
  const deps: AppDeps = { ...t.deps, blobs, log };
  const app: TestApp = { ...t, deps, app: createApp(deps) };
  const server = Deno.serve({ hostname: '127.0.0.1', port: 0, onListen() {} }, app.app.fetch);
  return { app, server };
}

async function sendDocument(app: TestApp, title: string) {
  const pdf = await makePdf({ pages: 1, title, padTo: 600_000 });
  const up = await upload(app, await signIn(app, ...DEMO.attorney), {
    file: pdf,
    recipient: '100001',
    title,
  });
  assert.equal(up.status, 201, JSON.stringify(up.body));
  return { pdf, id: up.body.document.documentid as string, sha256: await sha256Hex(pdf) };
}

async function readingsOf(id: string) {
  const [row] = await t.deps.sql<{ n: number; viewed: boolean }[]>`
    select (select count(*)::int from audit_logs where event_type = 'document_viewed' and resource_id = d.id::text) as n,
           d.viewed_at is not null as viewed
    from documents d where d.id = ${id}`;
  return { ...row };
}

/** The reading over the socket: its status and whether the body came whole. */
async function read(server: Deno.HttpServer<Deno.NetAddr>, token: string, id: string) {
  const r = await fetch(`http://127.0.0.1:${server.addr.port}/api/documents/view/${id}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  try {
    return { status: r.status, whole: true, bytes: (await r.arrayBuffer()).byteLength };
  } catch {
    return { status: r.status, whole: false };
  }
}

function brokeOff(id: string) {
  const line = lines.find((l) => l.startsWith('error document read broke off') && l.includes(id));
  assert.ok(line, lines.join('\n'));
  return JSON.parse(line.slice(line.indexOf('{')));
}

Deno.test({
  name: 'local stores: setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
  },
});

Deno.test({
  name:
    'fs: a blob that cannot be opened is a 503 with Retry-After and no reading; one cut short on disk aborts the answer and is logged',
  ...DB_TEST,
  fn: async () => {
    const { app, server } = serve(t.deps.blobs);
    try {
      const offender = await signIn(app, ...DEMO.offender);
      // The file of a document's sealed blob (named apart from its digest: sealed_store.ts).
      const root = ((t.deps.blobs as SealedBlobStore).inner as unknown as { root: string }).root;
      const path = async (sha: string) => {
        const name = (await find_sealed_blob(t.deps.sql, sha))!.name;
        return `${root}/${name.slice(0, 2)}/${name.slice(2, 4)}/${name}`;
      };

      // Opening fails (a link to itself: ELOOP, as a disk error or a refused permission would fail it).
      const unopenable = await sendDocument(app, 'Cannot be opened');
      const looped = await path(unopenable.sha256);
      await Deno.remove(looped);
      await Deno.symlink(looped, looped);
      const r = await call(app, 'GET', `/api/documents/view/${unopenable.id}`, { token: offender });
      assert.equal(r.status, 503, JSON.stringify(r.body));
      assert.equal(r.headers.get('retry-after'), '30');
      assert.equal(r.body.code, 'document_store_unavailable');
      assert.deepEqual(await readingsOf(unopenable.id), { n: 0, viewed: false });
      assert.ok(
        lines.some((l) => l.startsWith('error document read could not start') && l.includes(unopenable.id)),
      );

      // The file holds fewer bytes than the document: the answer is aborted, not a short 200. The three whole
      // sealed segments before the cut are sent; the cut one is not.
      const short = await sendDocument(app, 'Cut short');
      await Deno.truncate(await path(short.sha256), 200_000);
      assert.deepEqual(await read(server, offender, short.id), { status: 200, whole: false });
      const fields = brokeOff(short.id);
      assert.equal(fields.bytes_sent, 3 * SEGMENT_SIZE);
      assert.equal(fields.bytes_expected, short.pdf.length);
      assert.match(fields.cause, /sealed segment 3 ends short/);
    } finally {
      await server.shutdown();
    }
  },
});

Deno.test({
  name: 'postgres store: a chunk missing from the table aborts the answer and is logged',
  ...DB_TEST,
  fn: async () => {
    const blobs = createBlobStore({ blobStore: 'postgres', dataDir: '/nonexistent' }, t.db);
    const { app, server } = serve(blobs);
    try {
      const offender = await signIn(app, ...DEMO.offender);
      const doc = await sendDocument(app, 'Missing a chunk');
      await t.deps.sql`delete from blob_chunks where sha256 = ${doc.sha256} and seq = 1`;
      assert.deepEqual(await read(server, offender, doc.id), { status: 200, whole: false });
      const fields = brokeOff(doc.id);
      assert.ok(fields.bytes_sent < doc.pdf.length, JSON.stringify(fields));
      assert.match(fields.cause, /missing chunks/);
    } finally {
      await server.shutdown();
    }
  },
});

Deno.test({ name: 'local stores: teardown', ...DB_TEST, fn: () => t.close() });
