/**
 * A receipt says only what happened: a PDF that forbids printing is refused by the API (no print copy, no print
 * time, the sender never sees "printed"), and "opened" comes from the viewer's report that the reader's screen
 * showed the document (POST /api/documents/shown/{id}), never from its bytes leaving the server.
 */
import assert from 'node:assert/strict';
import { createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { upload } from '../support/documents.ts';
import { encryptPdf, makePdf } from '../support/pdfs.ts';

let t: TestApp;
let attorney: string;
let offender: string;

async function call(path: string, token: string, method = 'GET') {
  const r = await t.app.request(path, { method, headers: { authorization: `Bearer ${token}` } });
  const text = await r.text();
  let body: any = null;
  try {
    body = JSON.parse(text);
  } catch { /* the PDF's bytes */ }
  return { status: r.status, body };
}

async function senderState(
  id: string,
): Promise<{ state: string; printed_at: string | null; opened_at: string | null }> {
  const list = await call('/api/documents/attorney', attorney);
  return list.body.documents.find((d: { documentid: string }) => d.documentid === id);
}

async function auditCount(type: string, id: string): Promise<number> {
  const [row] = await t.deps.sql<{ n: number }[]>`
    select count(*)::int as n from audit_logs where event_type = ${type} and resource_id = ${id}`;
  return row.n;
}

async function send(file: Uint8Array, title: string): Promise<string> {
  const r = await upload(t, attorney, { file, recipient: '100001', title });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body.document.documentid;
}

Deno.test({
  name: 'setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    [attorney, offender] = await Promise.all([signIn(t, ...DEMO.attorney), signIn(t, ...DEMO.offender)]);
  },
});

Deno.test({
  name:
    "the offender's print of a PDF that forbids printing is refused (403) and the sender never sees 'printed'",
  ...DB_TEST,
  fn: async () => {
    const id = await send(await encryptPdf(await makePdf({ pages: 2 }), { userPassword: '' }), 'No printing');
    const refused = await call(`/api/documents/print/${id}`, offender);
    assert.equal(refused.status, 403);
    assert.deepEqual(
      { success: refused.body.success, code: refused.body.code, message: refused.body.message },
      { success: false, code: 'print_not_allowed', message: 'The document does not allow to print' },
    );
    // HEAD as well: no way around the refusal.
    assert.equal((await call(`/api/documents/print/${id}`, offender, 'HEAD')).status, 403);
    // Viewing is allowed, and shown: "opened", never "printed".
    assert.equal((await call(`/api/documents/view/${id}`, offender)).status, 200);
    assert.equal((await call(`/api/documents/shown/${id}`, offender, 'POST')).status, 200);
    assert.equal((await call(`/api/documents/print/${id}`, offender)).status, 403);
    const row = await senderState(id);
    assert.equal(row.state, 'opened');
    assert.equal(row.printed_at, null);
    assert.equal(await auditCount('document_printed', id), 0);
    assert.equal(await auditCount('document_print_refused', id), 3);
    const info = await call(`/api/documents/${id}/info`, attorney);
    assert.deepEqual(info.body.data.document.timeline.map((e: { event: string }) => e.event), [
      'sent',
      'opened',
    ]);
    // The sender's own print is refused too: the PDF's permission holds for every reader.
    assert.equal((await call(`/api/documents/print/${id}`, attorney)).status, 403);
  },
});

Deno.test({
  name: 'a PDF that allows printing is printed: the print time is set without claiming it was opened',
  ...DB_TEST,
  fn: async () => {
    const id = await send(await makePdf({ pages: 1 }), 'Printable');
    assert.equal((await call(`/api/documents/print/${id}`, offender)).status, 200);
    const row = await senderState(id);
    assert.equal(row.state, 'printed');
    assert.ok(row.printed_at);
    assert.equal(row.opened_at, null);
  },
});

Deno.test({
  name: 'bytes served are not "opened": only the viewer\'s report that it showed the document is',
  ...DB_TEST,
  fn: async () => {
    const id = await send(
      await encryptPdf(await makePdf({ pages: 2 }), { userPassword: 'secret' }),
      'Locked',
    );
    // A report before any bytes reached this session cannot be true.
    const early = await call(`/api/documents/shown/${id}`, offender, 'POST');
    assert.equal(early.status, 409);
    assert.equal(early.body.code, 'shown_not_received');
    assert.equal((await call(`/api/documents/view/${id}`, offender)).status, 200);
    assert.equal(await auditCount('document_viewed', id), 1, 'the download is audited');
    let row = await senderState(id);
    assert.equal(row.state, 'delivered', 'the bytes left the server, nobody saw them yet');
    assert.equal(row.opened_at, null);
    // The sender's own report does not open it for the recipient.
    assert.equal((await call(`/api/documents/view/${id}`, attorney)).status, 200);
    assert.equal((await call(`/api/documents/shown/${id}`, attorney, 'POST')).status, 200);
    assert.equal((await senderState(id)).state, 'delivered');
    // The recipient's viewer showed it: opened, once however often it says so.
    assert.equal((await call(`/api/documents/shown/${id}`, offender, 'POST')).status, 200);
    row = await senderState(id);
    assert.equal(row.state, 'opened');
    assert.ok(row.opened_at);
    assert.equal((await call(`/api/documents/shown/${id}`, offender, 'POST')).status, 200);
    assert.equal((await senderState(id)).opened_at, row.opened_at);
    assert.equal(await auditCount('document_shown', id), 2, "one for each reader's session");
  },
});

Deno.test({
  name: 'a "shown" report is held to the reading\'s rule: another offender and staff get the same 404',
  ...DB_TEST,
  fn: async () => {
    const id = await send(await makePdf({ pages: 1 }), 'Private');
    const [other, admin] = await Promise.all([signIn(t, ...DEMO.offender2), signIn(t, ...DEMO.admin)]);
    assert.equal((await call(`/api/documents/shown/${id}`, other, 'POST')).status, 404);
    assert.equal((await call(`/api/documents/shown/${id}`, admin, 'POST')).status, 403);
    assert.equal((await call('/api/documents/shown/not-a-uuid', offender, 'POST')).status, 404);
    assert.equal((await senderState(id)).state, 'delivered');
  },
});

Deno.test({ name: 'teardown', ...DB_TEST, fn: () => t.close() });
