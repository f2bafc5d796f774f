/**
 * The readings a tablet sends after an outage are receipts the sender relies on ("read at 13:42"): the API takes
 * only what the tablet could have done. A document the session never received, a time before the upload or before
 * the bytes reached the session, a print of a PDF that forbids printing are refused; one view and one print per
 * document are recorded within the read-audit window however many are sent; refusals are summed up in one audit
 * row per batch, and one session can send only so many.
 */
import assert from 'node:assert/strict';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { setNumberSetting, upload } from '../support/documents.ts';
import { makeUser } from '../support/factories.ts';
import { encryptPdf, makePdf } from '../support/pdfs.ts';

let t: TestApp;
let attorney: string;
let ipCounter = 0;
const freshIp = () => `10.78.0.${++ipCounter}`;

interface Reader {
  id: string;
  token: string;
  ip: string;
  sessionId: string;
}

/** A new offender, signed in, and a document sent to them (after the sign-in, as mail arrives). */
async function offenderWithMail(options: { file?: Uint8Array } = {}) {
  const user = await makeUser(t, { role: 'offender' });
  const ip = freshIp();
  const token = await signIn(t, user.username, user.secret, ip);
  const r = await upload(t, attorney, {
    file: options.file ?? await makePdf({ pages: 1, title: 'Receipt' }),
    recipient: user.username,
    title: 'Receipt',
  });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const [session] = await t.deps.sql<{ id: string }[]>`
    select id from sessions where user_id = ${user.id} order by created_at desc limit 1`;
  const documentId = r.body.document.documentid as string;
  const [doc] = await t.deps.sql<
    { uploaded_at: Date }[]
  >`select uploaded_at from documents where id = ${documentId}`;
  return { id: user.id, token, ip, sessionId: session.id, documentId, uploadedAt: new Date(doc.uploaded_at) };
}

/** The tablet fetches the document ahead for offline reading (its bytes reach this session). */
async function prefetch(o: Reader & { documentId: string }) {
  const r = await t.app.request(`/api/documents/prefetch/${o.documentId}`, {
    headers: { authorization: `Bearer ${o.token}` },
  });
  assert.equal(r.status, 200);
  await r.arrayBuffer();
}

const send = (o: Reader, events: unknown[]) =>
  call(t, 'POST', '/api/documents/offline-events', { token: o.token, ip: o.ip, body: { events } });

const reading = (documentId: string, kind: 'view' | 'print', at: number) => ({
  id: crypto.randomUUID(),
  documentId,
  kind,
  occurredAt: new Date(at).toISOString(),
});

async function viewedAt(documentId: string): Promise<Date | null> {
  const [row] = await t.deps.sql<{ viewed_at: Date | null }[]>`
    select viewed_at from documents where id = ${documentId}`;
  return row.viewed_at ? new Date(row.viewed_at) : null;
}

async function auditRows(userId: string, type: string) {
  return await t.deps.sql<{ resource_id: string | null; event_data: any }[]>`
    select resource_id, event_data from audit_logs where user_id = ${userId} and event_type = ${type} order by id`;
}

Deno.test({
  name: 'setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    attorney = await signIn(t, ...DEMO.attorney);
  },
});

Deno.test({
  name: 'offline events: a reading of a document this session never received is refused; no read time is set',
  ...DB_TEST,
  fn: async () => {
    const o = await offenderWithMail();
    const event = reading(o.documentId, 'view', Date.now());
    const r = await send(o, [event]);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.data.recorded, []);
    assert.deepEqual(r.body.data.refused, [{
      id: event.id,
      message:
        'This document never reached this tablet in this session, so it cannot have been read offline.',
    }]);
    assert.equal(await viewedAt(o.documentId), null, "the attorney's list does not show it read");
    assert.equal((await auditRows(o.id, 'document_viewed')).length, 0);
  },
});

Deno.test({
  name:
    'offline events: a reading before the upload is refused; one a little before the bytes arrived is taken at their arrival',
  ...DB_TEST,
  fn: async () => {
    const o = await offenderWithMail();
    // Signed in and sent the letter five minutes ago; the tablet fetches it now.
    await t.deps
      .sql`update sessions set created_at = created_at - interval '5 minutes' where id = ${o.sessionId}`;
    const [{ uploaded_at }] = await t.deps.sql<{ uploaded_at: Date }[]>`
      update documents set uploaded_at = uploaded_at - interval '5 minutes' where id = ${o.documentId}
      returning uploaded_at`;
    const uploadedAt = new Date(uploaded_at);
    const beforeFetch = Date.now();
    await prefetch(o);
    const beforeUpload = reading(o.documentId, 'view', uploadedAt.getTime() - 30_000);
    const r = await send(o, [beforeUpload]);
    assert.deepEqual(r.body.data.refused, [{
      id: beforeUpload.id,
      message: 'The time of this reading is not possible.',
    }]);
    assert.equal(await viewedAt(o.documentId), null);

    // A tablet whose clock runs 20 s slow: the reading is recorded, at the moment the bytes arrived, never earlier.
    const slowClock = reading(o.documentId, 'view', Date.now() - 20_000);
    assert.deepEqual((await send(o, [slowClock])).body.data.recorded, [slowClock.id]);
    const readAt = await viewedAt(o.documentId);
    assert.ok(readAt && readAt.getTime() >= beforeFetch - 1000, `read at ${readAt?.toISOString()}`);
    assert.ok(readAt!.getTime() >= uploadedAt.getTime());
    const [audit] = await auditRows(o.id, 'document_viewed');
    assert.equal(audit.event_data.occurredAt, readAt!.toISOString());
    assert.equal(
      audit.event_data.tabletTime,
      slowClock.occurredAt,
      "the tablet's own time is kept beside it",
    );
  },
});

Deno.test({
  name: 'offline events: a print of a PDF that forbids printing is refused; its view is recorded',
  ...DB_TEST,
  fn: async () => {
    const noPrint = await encryptPdf(await makePdf({ pages: 1 }), { userPassword: '' });
    const o = await offenderWithMail({ file: noPrint });
    const [doc] = await t.deps.sql<{ print_allowed: boolean }[]>`
      select print_allowed from documents where id = ${o.documentId}`;
    assert.equal(doc.print_allowed, false);
    await prefetch(o);
    const view = reading(o.documentId, 'view', Date.now());
    const prints = Array.from({ length: 5 }, () => reading(o.documentId, 'print', Date.now()));
    const r = await send(o, [view, ...prints]);
    assert.deepEqual(r.body.data.recorded, [view.id]);
    assert.deepEqual(
      r.body.data.refused,
      prints.map((p) => ({ id: p.id, message: 'The document does not allow to print' })),
    );
    assert.equal((await auditRows(o.id, 'document_printed')).length, 0);
  },
});

Deno.test({
  name:
    'offline events: one view and one print per document within the read-audit window, however many are sent',
  ...DB_TEST,
  fn: async () => {
    await setNumberSetting(t, 'document_read_audit_window_minutes', 1);
    try {
      const o = await offenderWithMail();
      await prefetch(o);
      const start = Date.now();
      const burst = Array.from(
        { length: 100 },
        (_, i) => reading(o.documentId, i % 2 ? 'print' : 'view', start + (i % 30) * 1000),
      );
      const r = await send(o, burst);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(r.body.data.refused, []);
      assert.equal(r.body.data.recorded.length, 100, 'each is accounted for: the tablet drops them all');
      assert.equal((await auditRows(o.id, 'document_viewed')).length, 1);
      assert.equal((await auditRows(o.id, 'document_printed')).length, 1);
      // Sent again, in another batch and in reverse order: still one each.
      assert.equal((await send(o, [...burst].reverse())).body.data.recorded.length, 100);
      const again = burst.map((e) => ({ ...e, id: crypto.randomUUID() }));
      await send(o, again);
      assert.equal((await auditRows(o.id, 'document_viewed')).length, 1);
      assert.equal((await auditRows(o.id, 'document_printed')).length, 1);
      // A reading past the window is a new one.
      const later = reading(o.documentId, 'view', start + 100_000);
      assert.deepEqual((await send(o, [later])).body.data.recorded, [later.id]);
      assert.equal((await auditRows(o.id, 'document_viewed')).length, 2);
    } finally {
      await setNumberSetting(t, 'document_read_audit_window_minutes', 10);
    }
  },
});

Deno.test({
  name: "offline events: a batch's refusals are one audit row, with no text of the sender's in it",
  ...DB_TEST,
  fn: async () => {
    const o = await offenderWithMail();
    const probes = Array.from({ length: 60 }, () => reading(crypto.randomUUID(), 'view', Date.now()));
    const junk = Array.from(
      { length: 40 },
      (_, i) => reading(`https://doc-verify.example/${i}?URGENT`, 'print', Date.now()),
    );
    const r = await send(o, [...probes, ...junk]);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.data.refused.length, 100);
    assert.equal((await auditRows(o.id, 'document_not_found')).length, 0, 'not one row per refused event');
    const rows = await auditRows(o.id, 'offline_events_refused');
    assert.equal(rows.length, 1);
    const [row] = rows;
    assert.equal(row.resource_id, o.sessionId);
    assert.deepEqual(row.event_data.counts, { document_not_found: 100 });
    const ids: string[] = row.event_data.documentIds;
    assert.ok(ids.length > 0 && ids.length <= 20, `${ids.length} ids listed`);
    for (const id of ids) assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.ok(!JSON.stringify(row).includes('doc-verify'), "the sender's text is not in the log");
  },
});

Deno.test({
  name: 'offline events: past 500 in one session the rest are refused, and add no audit row',
  ...DB_TEST,
  fn: async () => {
    const o = await offenderWithMail();
    await prefetch(o);
    const probes = () => Array.from({ length: 100 }, () => reading(crypto.randomUUID(), 'view', Date.now()));
    for (let i = 0; i < 5; i++) assert.equal((await send(o, probes())).body.data.refused.length, 100);
    const rows = await auditRows(o.id, 'offline_events_refused');
    assert.equal(rows.length, 5, 'one row per batch');
    assert.deepEqual(
      rows.map((r) => r.event_data.sessionLimitReached),
      [false, false, false, false, true],
      'the row of the batch that reached the limit says so',
    );
    const real = reading(o.documentId, 'view', Date.now());
    const past = await send(o, [real, ...probes().slice(1)]);
    assert.equal(past.status, 200);
    assert.deepEqual(past.body.data.recorded, []);
    assert.equal(past.body.data.refused.length, 100);
    assert.deepEqual(past.body.data.refused[0], {
      id: real.id,
      message: 'This session has sent more offline readings than a tablet can make. These were not recorded.',
    });
    for (let i = 0; i < 3; i++) await send(o, probes());
    assert.equal((await auditRows(o.id, 'offline_events_refused')).length, 5, 'later batches add no row');
    assert.equal((await auditRows(o.id, 'document_viewed')).length, 0);
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
  },
});
