/**
 * Withdrawing a document and the receipt's states: a sender (or the supervising attorney who can see it) takes
 * back a document the recipient does not have yet; once opened, printed or fetched ahead it stays. The sender's
 * list says where each document stands, offline reads included once they arrive; the opt-in e-mail goes once.
 */
import assert from 'node:assert/strict';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { upload } from '../support/documents.ts';
import { makeUser } from '../support/factories.ts';
import { makePdf } from '../support/pdfs.ts';

let t: TestApp;
let attorney: string;
let offender: string;
let pdf: Uint8Array;

async function send(token: string, title: string, path?: string, extra: Record<string, string> = {}) {
  const r = await upload(t, token, { file: pdf, recipient: '100001', title, ...extra }, path);
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body.document.documentid as string;
}

async function attorneyRow(id: string, token = attorney) {
  const r = await call(t, 'GET', '/api/documents/attorney', { token });
  return r.body.documents.find((d: { documentid: string }) => d.documentid === id);
}

async function offenderIds(): Promise<string[]> {
  const r = await call(t, 'GET', '/api/documents/offender/100001', { token: offender });
  return r.body.documents.map((d: { documentid: string }) => d.documentid);
}

const withdraw = (id: string, token: string) => call(t, 'POST', `/api/documents/${id}/withdraw`, { token });

Deno.test({
  name: 'setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    attorney = await signIn(t, ...DEMO.attorney);
    offender = await signIn(t, ...DEMO.offender);
    pdf = await makePdf({ pages: 2 });
  },
});

Deno.test({
  name: 'the sender withdraws an unopened document: gone from the recipient, reads 404, listed as withdrawn',
  ...DB_TEST,
  fn: async () => {
    const id = await send(attorney, 'Wrong client');
    assert.equal((await attorneyRow(id)).state, 'delivered');
    assert.ok((await offenderIds()).includes(id));
    const r = await withdraw(id, attorney);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.data.state, 'withdrawn');
    assert.ok(!(await offenderIds()).includes(id), 'it leaves the recipient list at once');
    for (
      const path of [
        `/api/documents/view/${id}`,
        `/api/documents/print/${id}`,
        `/api/documents/prefetch/${id}`,
      ]
    ) {
      assert.equal((await call(t, 'GET', path, { token: offender })).status, 404, path);
    }
    assert.equal((await call(t, 'GET', `/api/documents/${id}/info`, { token: offender })).status, 404);
    assert.equal((await call(t, 'GET', `/api/documents/view/${id}`, { token: attorney })).status, 404);
    const row = await attorneyRow(id);
    assert.equal(row.state, 'withdrawn');
    assert.ok(row.withdrawn_at);
    const info = await call(t, 'GET', `/api/documents/${id}/info`, { token: attorney });
    assert.deepEqual(info.body.data.document.timeline.map((e: { event: string }) => e.event), [
      'sent',
      'withdrawn',
    ]);
    const [audit] = await t.deps.sql`
      select event_type, event_data from audit_logs where resource_id = ${id} and event_type = 'document_withdrawn'`;
    assert.equal(audit.event_data.bySupervisingAttorney, false);
    const again = await withdraw(id, attorney);
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'document_already_withdrawn');
  },
});

Deno.test({
  name: 'withdrawing after the first read is refused with the date it was opened',
  ...DB_TEST,
  fn: async () => {
    const id = await send(attorney, 'Read already');
    assert.equal((await call(t, 'GET', `/api/documents/view/${id}`, { token: offender })).status, 200);
    await t.deps.sql`update documents set viewed_at = '2026-01-05T15:00:00Z' where id = ${id}`;
    const r = await withdraw(id, attorney);
    assert.equal(r.status, 409);
    assert.equal(r.body.message, 'This document was already opened on Jan 5, 2026 and cannot be withdrawn.');
    assert.equal(r.body.code, 'document_already_opened');
    assert.ok((await offenderIds()).includes(id));
  },
});

Deno.test({
  name: 'withdrawing after the tablet fetched it ahead is refused: the copy there cannot be taken back',
  ...DB_TEST,
  fn: async () => {
    const id = await send(attorney, 'Fetched ahead');
    assert.equal((await call(t, 'GET', `/api/documents/prefetch/${id}`, { token: offender })).status, 200);
    const r = await withdraw(id, attorney);
    assert.equal(r.status, 409);
    assert.equal(r.body.code, 'document_already_fetched');
    assert.equal((await attorneyRow(id)).state, 'delivered', 'fetched ahead is not opened');
  },
});

Deno.test({
  name: 'the supervising attorney withdraws what a representative shared; nobody else can (404)',
  ...DB_TEST,
  fn: async () => {
    const [boss] = await t.deps.sql<{ id: string }[]>`select id from users where email = ${DEMO.attorney[0]}`;
    const rep = await makeUser(t, {
      role: 'representative',
      supervisingAttorneyId: boss.id,
      supervisorAccepted: true,
    });
    const repToken = await signIn(t, rep.username, rep.secret);
    const first = await send(repToken, 'Shared by rep', '/api/representative/upload');
    const stranger = await makeUser(t, { role: 'attorney' });
    const strangerToken = await signIn(t, stranger.username, stranger.secret);
    const otherRep = await makeUser(t, { role: 'representative' });
    const otherRepToken = await signIn(t, otherRep.username, otherRep.secret);
    for (const token of [strangerToken, otherRepToken, offender]) {
      const r = await withdraw(first, token);
      assert.equal(r.status, 404, JSON.stringify(r.body));
      assert.equal(r.body.message, 'Document not found.');
    }
    for (const id of [first, 'not-a-uuid', crypto.randomUUID()]) {
      assert.equal((await withdraw(id, strangerToken)).status, 404);
    }
    const r = await withdraw(first, attorney);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const [audit] = await t.deps.sql`
      select user_id, event_data from audit_logs where resource_id = ${first} and event_type = 'document_withdrawn'`;
    assert.equal(audit.user_id, boss.id);
    assert.equal(audit.event_data.bySupervisingAttorney, true);
    const repList = await call(t, 'GET', '/api/representative/documents', { token: repToken });
    assert.equal(
      repList.body.documents.find((d: { documentid: string }) => d.documentid === first).state,
      'withdrawn',
    );
    // The representative withdraws their own too.
    const second = await send(repToken, 'Own withdraw', '/api/representative/upload');
    assert.equal((await withdraw(second, repToken)).status, 200);
  },
});

Deno.test({
  name: 'the sender list shows delivered, opened (with its date), printed; the receipt lists them with dates',
  ...DB_TEST,
  fn: async () => {
    const id = await send(attorney, 'Receipt states');
    assert.equal((await attorneyRow(id)).state, 'delivered');
    await call(t, 'GET', `/api/documents/view/${id}`, { token: offender });
    assert.equal((await attorneyRow(id)).state, 'delivered', 'the bytes were served; nobody saw them yet');
    await call(t, 'POST', `/api/documents/shown/${id}`, { token: offender });
    const opened = await attorneyRow(id);
    assert.equal(opened.state, 'opened');
    assert.ok(opened.opened_at);
    // The sender's own reading changes nothing of the receipt.
    await call(t, 'GET', `/api/documents/print/${id}`, { token: attorney });
    assert.equal((await attorneyRow(id)).state, 'opened');
    await call(t, 'GET', `/api/documents/print/${id}`, { token: offender });
    const printed = await attorneyRow(id);
    assert.equal(printed.state, 'printed');
    const info = (await call(t, 'GET', `/api/documents/${id}/info`, { token: attorney })).body.data.document;
    assert.equal(info.sha256.length, 64);
    assert.equal(info.pages, 2);
    assert.deepEqual(info.timeline.map((e: { event: string }) => e.event), ['sent', 'opened', 'printed']);
    for (const e of info.timeline) assert.ok(!Number.isNaN(Date.parse(e.at)));
  },
});

Deno.test({
  name: 'an offline reading that arrives later makes the document opened at the time it was read',
  ...DB_TEST,
  fn: async () => {
    const id = await send(attorney, 'Read offline');
    // The tablet fetches ahead, then the reading happens offline and is sent when the network returns.
    assert.equal((await call(t, 'GET', `/api/documents/prefetch/${id}`, { token: offender })).status, 200);
    assert.equal((await attorneyRow(id)).state, 'delivered');
    // Read offline after the bytes arrived: the receipt keeps the tablet's time.
    const occurredAt = new Date().toISOString();
    const sent = await call(t, 'POST', '/api/documents/offline-events', {
      token: offender,
      body: { events: [{ id: crypto.randomUUID(), documentId: id, kind: 'view', occurredAt }] },
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.deepEqual(sent.body.data.refused, [], JSON.stringify(sent.body));
    const row = await attorneyRow(id);
    assert.equal(row.state, 'opened');
    assert.equal(row.opened_at, occurredAt);
  },
});

Deno.test({
  name: 'the opt-in e-mail: off by default; once on, one e-mail per document however often it is read',
  ...DB_TEST,
  fn: async () => {
    const sender = await makeUser(t, { role: 'attorney' });
    const token = await signIn(t, sender.username, sender.secret);
    const outbox = () =>
      t.deps.sql<{ kind: string; subject: string; body: string }[]>`
      select kind, subject, body from email_outbox where to_address = ${sender.username} order by id`;
    assert.deepEqual((await call(t, 'GET', '/api/preferences', { token })).body.preferences, {
      notifyOnOpen: false,
    });
    const quiet = await send(token, 'Quiet one');
    await call(t, 'GET', `/api/documents/view/${quiet}`, { token: offender });
    assert.equal((await outbox()).length, 0, 'off by default');

    const saved = await call(t, 'PUT', '/api/preferences', { token, body: { notifyOnOpen: true } });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.deepEqual((await call(t, 'GET', '/api/preferences', { token })).body.preferences, {
      notifyOnOpen: true,
    });
    assert.equal(
      (await call(t, 'PUT', '/api/preferences', { token, body: { notifyOnOpen: 'yes' } })).status,
      400,
    );
    // Opened before the e-mail was turned on: no late e-mail for it.
    await call(t, 'GET', `/api/documents/print/${quiet}`, { token: offender });
    assert.equal((await outbox()).length, 0);

    const loud = await send(token, 'Plea offer');
    await call(t, 'GET', `/api/documents/view/${loud}`, { token: offender });
    await call(t, 'GET', `/api/documents/print/${loud}`, { token: offender });
    await call(t, 'POST', '/api/documents/offline-events', {
      token: offender,
      body: {
        events: [{
          id: crypto.randomUUID(),
          documentId: loud,
          kind: 'view',
          occurredAt: new Date().toISOString(),
        }],
      },
    });
    const mails = await outbox();
    assert.equal(mails.length, 1, 'at most one e-mail per document');
    const [{ viewed_at }] = await t.deps.sql`select viewed_at from documents where id = ${loud}`;
    const day = new Intl.DateTimeFormat('en-US', {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    })
      .format(viewed_at);
    assert.match(
      mails[0].body,
      new RegExp(`Your document 'Plea offer' to DOC 100001 was opened on ${day}\\.`),
    );
  },
});

Deno.test({
  name: 'a time-sensitive document sorts first on the recipient list, with its respond-by date',
  ...DB_TEST,
  fn: async () => {
    const urgent = await send(attorney, 'Urgent: sign by Friday', undefined, {
      time_sensitive: 'true',
      respond_by: '2099-12-03',
    });
    await send(attorney, 'Newer but ordinary');
    const list = (await call(t, 'GET', '/api/documents/offender/100001', { token: offender })).body.documents;
    assert.equal(list[0].documentid, urgent);
    assert.equal(list[0].time_sensitive, true);
    assert.equal(list[0].respond_by, '2099-12-03');
    assert.equal(list[1].time_sensitive, false);
    const past = await upload(t, attorney, {
      file: pdf,
      recipient: '100001',
      title: 'Late',
      respond_by: '2001-01-01',
    });
    assert.equal(past.status, 400);
    assert.match(past.body.message, /respond-by date/);
    const odd = await upload(t, attorney, {
      file: pdf,
      recipient: '100001',
      title: 'Odd',
      time_sensitive: 'maybe',
    });
    assert.equal(odd.status, 400);
  },
});

Deno.test({ name: 'teardown', ...DB_TEST, fn: () => t.close() });
