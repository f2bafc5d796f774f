/**
 * Reading, on both blob backends: exact bytes (SHA-256), headers, Range (first bytes, middle,
 * suffix, bad), HEAD, every read audited whatever its range (once per session, document and kind within
 * the audit window), the recipient's first view, Info and the lists.
 */
import assert from 'node:assert/strict';
import { createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { upload } from '../support/documents.ts';
import { makePdf, sha256Hex } from '../support/pdfs.ts';

async function get(
  t: TestApp,
  path: string,
  token: string,
  headers: Record<string, string> = {},
  method = 'GET',
) {
  const r = await t.app.request(path, { method, headers: { authorization: `Bearer ${token}`, ...headers } });
  return { status: r.status, headers: r.headers, bytes: new Uint8Array(await r.arrayBuffer()) };
}

async function auditCount(t: TestApp, type: string, id: string): Promise<number> {
  const [row] = await t.deps.sql<{ n: number }[]>`
    select count(*)::int as n from audit_logs where event_type = ${type} and resource_id = ${id}`;
  return row.n;
}

for (const backend of ['fs', 'postgres'] as const) {
  let t: TestApp;
  let attorney: string;
  let representative: string;
  let offender: string;
  let pdf: Uint8Array;
  let id: string;

  Deno.test({
    name: `${backend}: setup`,
    ...DB_TEST,
    fn: async () => {
      t = await createTestApp({ BLOB_STORE: backend });
      [attorney, representative, offender] = await Promise.all([
        signIn(t, ...DEMO.attorney),
        signIn(t, ...DEMO.representative),
        signIn(t, ...DEMO.offender),
      ]);
      // Several postgres chunks (256 KiB each), ending mid-chunk.
      pdf = await makePdf({ pages: 4, title: 'Brief', padTo: 700_000 });
      const r = await upload(t, attorney, {
        file: pdf,
        recipient: '100001',
        title: 'Brief',
        description: 'Appeal brief',
      });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      id = r.body.document.documentid;
    },
  });

  Deno.test({
    name: `${backend}: view streams the exact bytes with the contract's headers`,
    ...DB_TEST,
    fn: async () => {
      const r = await get(t, `/api/documents/view/${id}`, offender);
      assert.equal(r.status, 200);
      assert.equal(await sha256Hex(r.bytes), await sha256Hex(pdf));
      assert.equal(r.headers.get('content-type'), 'application/pdf');
      assert.equal(r.headers.get('content-length'), String(pdf.length));
      assert.equal(r.headers.get('etag'), `"${await sha256Hex(pdf)}"`);
      assert.equal(r.headers.get('accept-ranges'), 'bytes');
      assert.equal(r.headers.get('cache-control'), 'private, no-store');
      const p = await get(t, `/api/documents/print/${id}`, offender);
      assert.equal(p.status, 200);
      assert.deepEqual(p.bytes, pdf);
    },
  });

  Deno.test({
    name: `${backend}: Range gives the first bytes, a middle range, a suffix; a bad range is 416`,
    ...DB_TEST,
    fn: async () => {
      const first = await get(t, `/api/documents/view/${id}`, attorney, { range: 'bytes=0-1023' });
      assert.equal(first.status, 206);
      assert.deepEqual(first.bytes, pdf.subarray(0, 1024));
      assert.equal(first.headers.get('content-range'), `bytes 0-1023/${pdf.length}`);
      assert.equal(first.headers.get('content-length'), '1024');
      const middle = await get(t, `/api/documents/view/${id}`, attorney, { range: 'bytes=262000-530000' });
      assert.equal(middle.status, 206);
      assert.deepEqual(middle.bytes, pdf.subarray(262000, 530001));
      const tail = await get(t, `/api/documents/view/${id}`, attorney, { range: 'bytes=-100' });
      assert.deepEqual(tail.bytes, pdf.subarray(pdf.length - 100));
      const open = await get(t, `/api/documents/view/${id}`, attorney, {
        range: `bytes=${pdf.length - 10}-`,
      });
      assert.deepEqual(open.bytes, pdf.subarray(pdf.length - 10));
      const bad = await get(t, `/api/documents/view/${id}`, attorney, { range: `bytes=${pdf.length}-` });
      assert.equal(bad.status, 416);
      assert.equal(bad.headers.get('content-range'), `bytes */${pdf.length}`);
      const reversed = await get(t, `/api/documents/view/${id}`, attorney, { range: 'bytes=500-100' });
      assert.equal(reversed.status, 416);
      // Not a byte range we serve: the whole file, as RFC 9110 allows.
      const multi = await get(t, `/api/documents/view/${id}`, attorney, { range: 'bytes=0-1,5-9' });
      assert.equal(multi.status, 200);
      assert.equal(multi.bytes.length, pdf.length);
    },
  });

  Deno.test({
    name: `${backend}: HEAD tells the size and reads nothing`,
    ...DB_TEST,
    fn: async () => {
      const before = await auditCount(t, 'document_viewed', id);
      const r = await get(t, `/api/documents/view/${id}`, attorney, {}, 'HEAD');
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('content-length'), String(pdf.length));
      assert.equal(r.bytes.length, 0);
      assert.equal(await auditCount(t, 'document_viewed', id), before);
    },
  });

  Deno.test({
    name: `${backend}: a session's ranges of one document are one reading per kind within the window`,
    ...DB_TEST,
    fn: async () => {
      // A fresh session: the window is per session, document and kind.
      const session = await signIn(t, ...DEMO.offender);
      const views = await auditCount(t, 'document_viewed', id);
      const prints = await auditCount(t, 'document_printed', id);
      await get(t, `/api/documents/view/${id}`, session, { range: 'bytes=0-65535' });
      await get(t, `/api/documents/view/${id}`, session, { range: 'bytes=65536-131071' });
      await get(t, `/api/documents/view/${id}`, session, { range: 'bytes=131072-' });
      assert.equal(await auditCount(t, 'document_viewed', id), views + 1);
      await get(t, `/api/documents/print/${id}`, session);
      await get(t, `/api/documents/print/${id}`, session, { range: 'bytes=100-' });
      assert.equal(await auditCount(t, 'document_printed', id), prints + 1);
    },
  });

  Deno.test({
    name: `${backend}: Range bytes=1- (nearly the whole file) is audited; the read time waits for the screen`,
    ...DB_TEST,
    fn: async () => {
      const fresh = (await upload(t, attorney, {
        file: await makePdf({ pages: 1 }),
        recipient: '100001',
        title: 'Skip the first byte',
      })).body.document.documentid;
      const session = await signIn(t, ...DEMO.offender);
      const r = await get(t, `/api/documents/view/${fresh}`, session, { range: 'bytes=1-' });
      assert.equal(r.status, 206);
      assert.equal(await auditCount(t, 'document_viewed', fresh), 1);
      const read = async () =>
        (await t.deps.sql<{ viewed_at: Date | null }[]>`select viewed_at from documents where id = ${fresh}`)[
          0
        ];
      assert.equal((await read()).viewed_at, null, 'bytes leaving the server are not a reading');
      assert.equal((await get(t, `/api/documents/shown/${fresh}`, session, {}, 'POST')).status, 200);
      assert.ok((await read()).viewed_at, "the read time is set by the viewer's report that it showed it");
      const [event] = await t.deps.sql<{ event_data: any; user_id: string }[]>`
        select event_data, user_id from audit_logs where event_type = 'document_viewed' and resource_id = ${fresh}`;
      // The last byte is the size less one, which is also the length of bytes=1-.
      assert.equal(event.event_data.range, `1-${r.headers.get('content-length')}`);
    },
  });

  Deno.test({
    name:
      `${backend}: 20 concurrent range requests of one session write one event; after the window, another`,
    ...DB_TEST,
    fn: async () => {
      const session = await signIn(t, ...DEMO.attorney);
      const before = await auditCount(t, 'document_viewed', id);
      const ranges = Array.from({ length: 20 }, (_, i) => `bytes=${i * 30_000 + 1}-${i * 30_000 + 29_999}`);
      const answers = await Promise.all(
        ranges.map((range) => get(t, `/api/documents/view/${id}`, session, { range })),
      );
      assert.ok(answers.every((a) => a.status === 206));
      assert.equal(await auditCount(t, 'document_viewed', id), before + 1, 'one event for the burst');
      // The window (document_read_audit_window_minutes, 10 by default) passes.
      await t.deps.sql`update document_read_audits set last_audited_at = now() - interval '11 minutes'
        where document_id = ${id} and kind = 'view'`;
      await Promise.all(
        ranges.slice(0, 5).map((range) => get(t, `/api/documents/view/${id}`, session, { range })),
      );
      assert.equal(await auditCount(t, 'document_viewed', id), before + 2, 'a new window, a new event');
      // The setting decides the window: at 1 minute, a claim 2 minutes old is over.
      await t.deps.sql`update settings set value = jsonb_set(value, '{value}', '1')
        where key = 'document_read_audit_window_minutes'`;
      await t.deps.sql`update document_read_audits set last_audited_at = now() - interval '2 minutes'
        where document_id = ${id} and kind = 'view'`;
      await get(t, `/api/documents/view/${id}`, session, { range: 'bytes=5-9' });
      assert.equal(await auditCount(t, 'document_viewed', id), before + 3);
      await t.deps.sql`update settings set value = jsonb_set(value, '{value}', '10')
        where key = 'document_read_audit_window_minutes'`;
    },
  });

  Deno.test({
    name: `${backend}: the sender's view does not set viewed_at; the recipient's first shown view does`,
    ...DB_TEST,
    fn: async () => {
      const r = await upload(t, representative, {
        file: await makePdf({ pages: 1 }),
        recipient: '100001',
        title: 'Unread',
      }, '/api/representative/upload');
      const fresh = r.body.document.documentid;
      await get(t, `/api/documents/view/${fresh}`, representative);
      await get(t, `/api/documents/shown/${fresh}`, representative, {}, 'POST');
      let info = await t.app.request(`/api/documents/${fresh}/info`, {
        headers: { authorization: `Bearer ${attorney}` },
      });
      assert.equal((await info.json()).data.document.viewed_at, null);
      await get(t, `/api/documents/view/${fresh}`, offender);
      await get(t, `/api/documents/shown/${fresh}`, offender, {}, 'POST');
      info = await t.app.request(`/api/documents/${fresh}/info`, {
        headers: { authorization: `Bearer ${attorney}` },
      });
      const first = (await info.json()).data.document.viewed_at;
      assert.ok(first, 'viewed_at set by the recipient');
      await new Promise((r) => setTimeout(r, 20));
      await get(t, `/api/documents/view/${fresh}`, offender);
      await get(t, `/api/documents/shown/${fresh}`, offender, {}, 'POST');
      const list = await (await t.app.request('/api/documents/attorney', {
        headers: { authorization: `Bearer ${attorney}` },
      })).json();
      assert.equal(
        list.documents.find((d: any) => d.documentid === fresh).viewed_at,
        first,
        'the first view is kept',
      );
    },
  });

  Deno.test({
    name: `${backend}: Info carries the delivery receipt and the metadata`,
    ...DB_TEST,
    fn: async () => {
      const r = await t.app.request(`/api/documents/${id}/info`, {
        headers: { authorization: `Bearer ${offender}` },
      });
      assert.equal(r.status, 200);
      const d = (await r.json()).data.document;
      assert.equal(d.sha256, await sha256Hex(pdf));
      assert.equal(d.pages, 4);
      assert.equal(d.description, 'Appeal brief');
      assert.equal(d.from, 'Atticus Counsel');
      assert.match(d.to, /100001/);
      for (
        const k of [
          'title',
          'author',
          'subject',
          'keywords',
          'creator',
          'producer',
          'creationDate',
          'modDate',
          'pdfVersion',
        ]
      ) {
        assert.ok(k in d.metadata, k);
      }
      assert.ok(new Date(d.deletedate).getTime() - new Date(d.date).getTime() === 90 * 86400_000);
    },
  });

  Deno.test({
    name: `${backend}: the lists carry the spec's field names`,
    ...DB_TEST,
    fn: async () => {
      const auth = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
      const off = await (await t.app.request('/api/documents/offender/100001', auth(offender))).json();
      assert.equal(off.success, true);
      const row = off.documents.find((d: any) => d.documentid === id);
      for (
        const k of [
          'documentid',
          'id',
          'name',
          'attorney_name',
          'attorney',
          'description',
          'date',
          'pages',
          'deletedate',
          'eformDue',
          'approval_status',
          'viewed_at',
          'encrypted',
          'print_allowed',
        ]
      ) assert.ok(k in row, `offender list: ${k}`);
      assert.equal(row.attorney_name, 'Atticus Counsel');
      assert.equal((await t.app.request('/api/documents/offender/100002', auth(offender))).status, 404);

      const att = await (await t.app.request('/api/documents/attorney', auth(attorney))).json();
      assert.equal(att.success, true);
      const kinds = new Set(att.documents.map((d: any) => d.sent_by));
      assert.deepEqual(
        [...kinds].sort(),
        ['attorney', 'representative'],
        "own and the representatives' documents",
      );
      for (
        const k of [
          'documentid',
          'name',
          'offenderdocnumber',
          'date',
          'pages',
          'deletedate',
          'description',
          'approval_status',
          'sender_name',
        ]
      ) assert.ok(k in att.documents[0], `attorney list: ${k}`);

      const rep = await (await t.app.request('/api/representative/documents', auth(representative))).json();
      assert.ok(rep.documents.length >= 1);
      assert.ok(
        rep.documents.every((d: any) => d.offenderDocNumber === '100001' && d.offenderdocnumber === '100001'),
      );
      assert.ok(!rep.documents.some((d: any) => d.documentid === id), 'not what the attorney sent');

      const mine = await (await t.app.request('/api/documents/mine', auth(offender))).json();
      assert.ok(mine.documents.some((d: any) => d.documentid === id && d.from && d.to));
      const admin = await signIn(t, ...DEMO.admin);
      assert.deepEqual(
        (await (await t.app.request('/api/documents/mine', auth(admin))).json()).documents,
        [],
      );
    },
  });

  Deno.test({
    name: `${backend}: teardown`,
    ...DB_TEST,
    fn: async () => {
      await t.close();
    },
  });
}
