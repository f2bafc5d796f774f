/**
 * BLOB_OFFLOAD=nginx in the API alone (the nginx half: tests/deploy/blob_offload.test.ts). nginx can send only a
 * plaintext blob of an installation from before sealing (a sealed one needs BLOB_KEY, which only the API holds):
 * the API streams a sealed document itself. For a plaintext blob, an authorized view,
 * print or prefetch is audited and answered with X-Accel-Redirect to the blob's place, the usual headers and no
 * body; a Range is left to nginx (no 206 of ours), an unsatisfiable one is still our 416; HEAD is unchanged;
 * a refused request gets no redirect; with OFFLOAD_CHECK_URL, a front that fails the canary gets no read recorded.
 */
import assert from 'node:assert/strict';
import { createApp } from '../../api/app.ts';
import { createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { storeAsBefore, upload } from '../support/documents.ts';
import { makePdf, sha256Hex } from '../support/pdfs.ts';

let t: TestApp;
let offender: string;
let other: string;
let id: string;
let pdf: Uint8Array;
let place: string;

async function get(
  path: string,
  token: string | undefined,
  headers: Record<string, string> = {},
  method = 'GET',
) {
  const r = await t.app.request(path, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });
  return { status: r.status, headers: r.headers, bytes: new Uint8Array(await r.arrayBuffer()) };
}

async function auditCount(type: string): Promise<number> {
  const [row] = await t.deps.sql<{ n: number }[]>`
    select count(*)::int as n from audit_logs where event_type = ${type} and resource_id = ${id}`;
  return row.n;
}

Deno.test({
  name: 'offload: setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp({ BLOB_OFFLOAD: 'nginx' });
    const attorney = await signIn(t, ...DEMO.attorney);
    offender = await signIn(t, ...DEMO.offender);
    other = await signIn(t, '100002', '135790');
    pdf = await makePdf({ pages: 2, title: 'Offload', padTo: 100_000 });
    const r = await upload(t, attorney, { file: pdf, recipient: '100001', title: 'Offload' });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    id = r.body.document.documentid;
    await storeAsBefore(t, pdf);
    const sha = await sha256Hex(pdf);
    place = `/_blobs/${sha.slice(0, 2)}/${sha.slice(2, 4)}/${sha}`;
  },
});

Deno.test({
  name: 'offload: a sealed document is streamed by the API itself, never handed to nginx',
  ...DB_TEST,
  fn: async () => {
    const attorney = await signIn(t, ...DEMO.attorney);
    const sealed = await makePdf({ pages: 1, title: 'Sealed', padTo: 70_000 });
    const r = await upload(t, attorney, { file: sealed, recipient: '100001', title: 'Sealed' });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const read = await get(`/api/documents/view/${r.body.document.documentid}`, offender, {
      range: 'bytes=10-65600',
    });
    assert.equal(read.status, 206);
    assert.equal(read.headers.get('x-accel-redirect'), null);
    assert.deepEqual(read.bytes, sealed.subarray(10, 65601));
  },
});

Deno.test({
  name: 'offload: a view is audited once and handed to nginx with the usual headers and no body',
  ...DB_TEST,
  fn: async () => {
    for (const range of [undefined, 'bytes=0-99', 'bytes=-10']) {
      const r = await get(`/api/documents/view/${id}`, offender, range ? { range } : {});
      assert.equal(r.status, 200, `${range}: the whole document's answer; nginx applies the range`);
      assert.equal(r.bytes.length, 0);
      assert.equal(r.headers.get('x-accel-redirect'), place);
      assert.equal(r.headers.get('content-range'), null);
      assert.equal(r.headers.get('accept-ranges'), null, "nginx's own, not twice");
      assert.equal(r.headers.get('content-type'), 'application/pdf');
      assert.equal(r.headers.get('cache-control'), 'private, no-store');
      assert.equal(r.headers.get('etag'), `"${await sha256Hex(pdf)}"`);
      assert.match(r.headers.get('content-disposition') ?? '', /^inline; filename\*=UTF-8''/);
      assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
    }
    assert.equal(await auditCount('document_viewed'), 1);
    const print = await get(`/api/documents/print/${id}`, offender);
    assert.equal(print.headers.get('x-accel-redirect'), place);
    assert.equal(await auditCount('document_printed'), 1);
    const pre = await get(`/api/documents/prefetch/${id}`, offender);
    assert.equal(pre.headers.get('x-accel-redirect'), place);
    assert.equal(await auditCount('document_prefetched'), 1);
  },
});

Deno.test({
  name: 'offload: an unsatisfiable range is our 416, HEAD tells the size, refusals carry no redirect',
  ...DB_TEST,
  fn: async () => {
    const beyond = await get(`/api/documents/view/${id}`, offender, { range: `bytes=${pdf.length}-` });
    assert.equal(beyond.status, 416);
    assert.equal(beyond.headers.get('x-accel-redirect'), null);
    const head = await get(`/api/documents/view/${id}`, offender, {}, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), String(pdf.length));
    assert.equal(head.headers.get('x-accel-redirect'), null);
    for (const [token, status] of [[undefined, 401], [other, 404]] as const) {
      for (const kind of ['view', 'print', 'prefetch']) {
        const r = await get(`/api/documents/${kind}/${id}`, token);
        assert.equal(r.status, status, kind);
        assert.equal(r.headers.get('x-accel-redirect'), null, kind);
      }
    }
    // A blob gone from the disk is the API's 404, not nginx's after an audited reading.
    const sha = await sha256Hex(pdf);
    await t.deps.blobs.delete(sha);
    const gone = await get(`/api/documents/view/${id}`, offender);
    assert.equal(gone.status, 404);
    assert.equal(gone.headers.get('x-accel-redirect'), null);
  },
});

Deno.test({
  name:
    'offload: with OFFLOAD_CHECK_URL and a front that does not send the canary, a read is refused (503) and not recorded',
  ...DB_TEST,
  fn: async () => {
    // A front that is not there: nothing listens on the port.
    const closed = Deno.listen({ hostname: '127.0.0.1', port: 0 });
    const port = (closed.addr as Deno.NetAddr).port;
    closed.close();
    const config = { ...t.deps.config, offloadCheckUrl: `http://127.0.0.1:${port}` };
    const deps = { ...t.deps, config };
    const app = { ...t, deps, app: createApp(deps) };
    const attorney = await signIn(app, ...DEMO.attorney);
    const fresh = await makePdf({ pages: 1, title: 'Not through this front', padTo: 20_000 });
    const up = await upload(app, attorney, {
      file: fresh,
      recipient: '100001',
      title: 'Not through this front',
    });
    assert.equal(up.status, 201, JSON.stringify(up.body));
    // A plaintext blob from before sealing: the one kind the front would send.
    await storeAsBefore(app, fresh);
    const freshId = up.body.document.documentid;
    const token = await signIn(app, ...DEMO.offender);
    const r = await app.app.request(`/api/documents/view/${freshId}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(r.status, 503, await r.clone().text());
    assert.equal(r.headers.get('retry-after'), '30');
    assert.equal(r.headers.get('x-accel-redirect'), null);
    const [row] = await t.deps.sql<{ n: number; viewed: boolean }[]>`
      select (select count(*)::int from audit_logs where event_type = 'document_viewed' and resource_id = d.id::text) as n,
             d.viewed_at is not null as viewed
      from documents d where d.id = ${freshId}`;
    assert.deepEqual({ ...row }, { n: 0, viewed: false });
    const ready = await app.app.request('/api/health/ready');
    assert.equal(ready.status, 503);
    assert.deepEqual(await ready.json(), { success: false, message: 'Not ready.' });
  },
});

Deno.test({ name: 'offload: teardown', ...DB_TEST, fn: () => t.close() });
