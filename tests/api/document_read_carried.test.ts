/**
 * A reading's document and the offender's list ride in the session check's statement (GuardOptions.alongside,
 * api/http/guard.ts): they are read before the session is known to be live, so these requests try to get them out
 * anyway. An ended session, a staff role, an offender off the whitelist, another offender and a malformed id all
 * get their usual refusal, with no bytes, no title and no trace of a reading; and what is carried is what a
 * statement of its own reads.
 */
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import {
  document_rows_from_json,
  document_to_read_json,
  documents_received_in_session_json,
  find_document_to_read,
  list_documents_for_recipient,
} from '../../api/db/documents.ts';
import { find_active_session } from '../../api/db/sessions.ts';
import { findDocumentToRead, toOffenderDocument } from '../../api/domain/documents.ts';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { upload } from '../support/documents.ts';
import { makePdf } from '../support/pdfs.ts';

let t: TestApp;
let attorney: string;
let id: string;
let pdfText: string;
const TITLE = 'Carried brief';

async function traces(): Promise<{ viewedAt: Date | null; readings: number }> {
  const [doc] = await t.deps.sql<
    { viewed_at: Date | null }[]
  >`select viewed_at from documents where id = ${id}`;
  const [events] = await t.deps.sql<{ n: number }[]>`
    select count(*)::int as n from audit_logs
    where event_type in ('document_viewed', 'document_printed', 'document_prefetched') and resource_id = ${id}`;
  return { viewedAt: doc.viewed_at, readings: events.n };
}

/** Every reading route refuses `token` with `status`, sends none of the document, and leaves no reading. */
async function refusedEverywhere(token: string, status: number, ip?: string) {
  const before = await traces();
  for (const kind of ['view', 'print', 'prefetch']) {
    const r = await call(t, 'GET', `/api/documents/${kind}/${id}`, { token, ip });
    assert.equal(r.status, status, `${kind}: ${JSON.stringify(r.body)}`);
    assert.equal(r.body.success, false);
    assert.ok(!String(r.headers.get('content-type')).includes('pdf'), kind);
    assert.ok(!JSON.stringify(r.body).includes(pdfText), `${kind} answered with the document's bytes`);
    assert.equal(r.headers.get('x-accel-redirect'), null);
  }
  const list = await call(t, 'GET', '/api/documents/offender/100001', { token, ip });
  assert.equal(list.status, status, `list: ${JSON.stringify(list.body)}`);
  assert.ok(!JSON.stringify(list.body).includes(TITLE), 'the list answered with the document');
  assert.deepEqual(await traces(), before);
}

Deno.test({
  name: 'setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    attorney = await signIn(t, ...DEMO.attorney);
    pdfText = 'Carried brief';
    const r = await upload(t, attorney, {
      file: await makePdf({ pages: 1, title: pdfText }),
      recipient: '100001',
      title: 'Carried brief',
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    id = r.body.document.documentid;
  },
});

Deno.test({
  name: 'an ended session gets 401 for every reading, and nothing is read or audited',
  ...DB_TEST,
  fn: async () => {
    const offender = await signIn(t, ...DEMO.offender);
    assert.equal((await call(t, 'POST', '/api/auth/logout', { token: offender })).status, 200);
    await refusedEverywhere(offender, 401);
  },
});

Deno.test({
  name: "a staff member gets 403 for a document's bytes, however the id is known",
  ...DB_TEST,
  fn: async () => {
    await refusedEverywhere(await signIn(t, ...DEMO.admin), 403);
    await refusedEverywhere(await signIn(t, ...DEMO.approver), 403);
  },
});

Deno.test({
  name: 'an offender outside the whitelist is refused before the carried document is used',
  ...DB_TEST,
  fn: async () => {
    const offender = await signIn(t, ...DEMO.offender, '10.1.2.3');
    await t.deps.sql`update entities set ip_ranges_configured_at = now() where slug = 'default'`;
    await t.deps.sql`
      insert into ip_ranges (entity_id, ip_range, is_active)
      select id, '10.1.0.0/16', true from entities where slug = 'default'`;
    try {
      await refusedEverywhere(offender, 403, '192.0.2.7');
    } finally {
      await t.deps.sql`delete from ip_ranges`;
      await t.deps.sql`update entities set ip_ranges_configured_at = null`;
    }
  },
});

Deno.test({
  name: "another offender's reading is the 404 of a missing document; a malformed id carries nothing",
  ...DB_TEST,
  fn: async () => {
    const other = await signIn(t, ...DEMO.offender2);
    const before = await traces();
    const list = await call(t, 'GET', '/api/documents/offender/100001', { token: other });
    assert.equal(list.status, 404);
    assert.ok(!JSON.stringify(list.body).includes(TITLE));
    for (const kind of ['view', 'print', 'prefetch']) {
      const r = await call(t, 'GET', `/api/documents/${kind}/${id}`, { token: other });
      assert.equal(r.status, 404, kind);
      assert.ok(!JSON.stringify(r.body).includes(pdfText));
      const bad = await call(t, 'GET', `/api/documents/${kind}/not-a-uuid'`, { token: other });
      assert.equal(bad.status, 404, `${kind}: ${JSON.stringify(bad.body)}`);
    }
    assert.deepEqual(await traces(), before);
  },
});

Deno.test({
  name: 'the carried document equals the one its own statement reads, before and after the first reading',
  ...DB_TEST,
  fn: async () => {
    const offender = await signIn(t, ...DEMO.offender);
    const sessionId = decodeJwt(offender).sid as string;
    const compare = async () => {
      const read = { sessionId, kind: 'view' as const };
      const carried = await find_active_session(
        t.deps.sql,
        sessionId,
        document_to_read_json(t.deps.sql, id, read),
      );
      assert.ok(carried);
      const reader = { id: carried.id, role: carried.role, session_id: sessionId };
      const own = await find_document_to_read(t.deps.sql, id, read);
      assert.ok(own);
      assert.deepEqual(
        await findDocumentToRead(t.deps.sql, reader, id, 'view', { value: carried.alongside }),
        own,
      );
      return own;
    };
    const unread = await compare();
    assert.equal(unread.viewed_at, null);
    assert.equal(unread.read_audited_recently, false);
    assert.equal((await call(t, 'GET', `/api/documents/view/${id}`, { token: offender })).status, 200);
    assert.equal((await call(t, 'POST', `/api/documents/shown/${id}`, { token: offender })).status, 200);
    const read = await compare();
    assert.ok(read.viewed_at instanceof Date);
    assert.equal(read.read_audited_recently, true);
    const missing = await find_active_session(
      t.deps.sql,
      sessionId,
      document_to_read_json(t.deps.sql, crypto.randomUUID(), { sessionId, kind: 'view' }),
    );
    assert.equal(missing?.alongside, null);
  },
});

Deno.test({
  name: "the carried list equals list_documents_for_recipient's, and is what the offender's list answers",
  ...DB_TEST,
  fn: async () => {
    const offender = await signIn(t, ...DEMO.offender);
    const sessionId = decodeJwt(offender).sid as string;
    const carried = await find_active_session(
      t.deps.sql,
      sessionId,
      documents_received_in_session_json(t.deps.sql, sessionId),
    );
    assert.ok(carried);
    const own = await list_documents_for_recipient(t.deps.sql, carried.id);
    assert.ok(own.some((d) => d.title === TITLE && d.viewed_at instanceof Date));
    assert.deepEqual(document_rows_from_json(carried.alongside), [...own]);
    const r = await call(t, 'GET', '/api/documents/offender/100001', { token: offender });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.documents, JSON.parse(JSON.stringify(own.map(toOffenderDocument))));
    // Someone with no documents gets an empty list, not nothing.
    const empty = await signIn(t, ...DEMO.offender2);
    const emptySession = decodeJwt(empty).sid as string;
    const none = await find_active_session(
      t.deps.sql,
      emptySession,
      documents_received_in_session_json(t.deps.sql, emptySession),
    );
    assert.deepEqual(
      document_rows_from_json(none?.alongside),
      [...await list_documents_for_recipient(t.deps.sql, none!.id)],
    );
  },
});

Deno.test({ name: 'teardown', ...DB_TEST, fn: () => t.close() });
