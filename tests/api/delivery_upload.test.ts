/**
 * One upload to several recipients (co-defendants, a class notice): the bytes stored once, a document of their own
 * per recipient with its own receipt; all or nothing when one recipient is unknown.
 */
import assert from 'node:assert/strict';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { countDocuments, storedBlobs, upload } from '../support/documents.ts';
import { makeUser } from '../support/factories.ts';
import { makePdf } from '../support/pdfs.ts';

let t: TestApp;
let attorney: string;
let offender1: string;
let offender2: string;

Deno.test({
  name: 'setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    attorney = await signIn(t, ...DEMO.attorney);
    offender1 = await signIn(t, ...DEMO.offender);
    offender2 = await signIn(t, ...DEMO.offender2);
  },
});

Deno.test({
  name: 'an upload to several recipients stores the bytes once; each recipient reads only their own document',
  ...DB_TEST,
  fn: async () => {
    const third = await makeUser(t, { role: 'offender' });
    const thirdToken = await signIn(t, third.username, third.secret);
    const blobsBefore = (await storedBlobs(t)).length;
    const file = await makePdf({ pages: 2, title: 'Class notice' });
    const r = await upload(t, attorney, {
      file,
      recipient: '100001',
      moreRecipients: ['100002', third.username, '100001'],
      title: 'Class notice',
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assert.deepEqual(r.body.documents.map((d: { offenderdocnumber: string }) => d.offenderdocnumber), [
      '100001',
      '100002',
      third.username,
    ], 'one document per recipient, a repeated number once, in the order given');
    assert.equal(r.body.document.documentid, r.body.documents[0].documentid, '`document` is the first');
    assert.equal((await storedBlobs(t)).length, blobsBefore + 1, 'the bytes are stored once');
    const ids = r.body.documents.map((d: { documentid: string }) => d.documentid);
    assert.equal(new Set(ids).size, 3);
    const shas = await t.deps.sql<
      { sha256: string }[]
    >`select distinct sha256 from documents where id = any(${ids})`;
    assert.equal(shas.length, 1);

    const tokens = [offender1, offender2, thirdToken];
    for (const [i, token] of tokens.entries()) {
      for (const [j, id] of ids.entries()) {
        const read = await call(t, 'GET', `/api/documents/${id}/info`, { token });
        assert.equal(read.status, i === j ? 200 : 404, `recipient ${i} reading document ${j}`);
      }
    }
    // Each has its own receipt: one recipient's reading opens only their own.
    const view = await t.app.request(`/api/documents/view/${ids[1]}`, {
      headers: { authorization: `Bearer ${offender2}` },
    });
    await view.body?.cancel();
    // ...and its screen shows it (the viewer's report is what "opened" means).
    assert.equal((await call(t, 'POST', `/api/documents/shown/${ids[1]}`, { token: offender2 })).status, 200);
    const list = (await call(t, 'GET', '/api/documents/attorney', { token: attorney })).body.documents;
    const states = ids.map((id: string) =>
      list.find((d: { documentid: string }) => d.documentid === id).state
    );
    assert.deepEqual(states, ['delivered', 'opened', 'delivered']);
    // And its own withdrawal.
    assert.equal(
      (await call(t, 'POST', `/api/documents/${ids[0]}/withdraw`, { token: attorney })).status,
      200,
    );
    assert.equal((await call(t, 'GET', `/api/documents/${ids[2]}/info`, { token: thirdToken })).status, 200);
    const audits = await t.deps.sql`
      select count(*)::int as n from audit_logs where event_type = 'document_uploaded' and resource_id = any(${ids})`;
    assert.equal(audits[0].n, 3, 'each document audited');
  },
});

Deno.test({
  name: 'one unknown recipient refuses the whole upload, naming it; more than 20 is refused',
  ...DB_TEST,
  fn: async () => {
    const before = { documents: await countDocuments(t), blobs: (await storedBlobs(t)).length };
    const file = await makePdf({ pages: 1 });
    const r = await upload(t, attorney, {
      file,
      recipient: '100001',
      moreRecipients: ['999999'],
      title: 'Nope',
    });
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 'upload_no_offender');
    assert.equal(r.body.message, 'No active offender has DOC number 999999.');
    const many = Array.from({ length: 21 }, (_, i) => String(700000 + i));
    const tooMany = await upload(t, attorney, {
      file,
      recipient: many[0],
      moreRecipients: many.slice(1),
      title: 'x',
    });
    assert.equal(tooMany.status, 400);
    assert.equal(tooMany.body.message, 'Please send to at most 20 recipients at once.');
    assert.deepEqual({ documents: await countDocuments(t), blobs: (await storedBlobs(t)).length }, before);
  },
});

Deno.test({ name: 'teardown', ...DB_TEST, fn: () => t.close() });
