/**
 * The 404 wall: only the recipient, the sender and the sender's supervising attorney may
 * read a document; everyone else gets the same 404 as for a missing, malformed or expired id.
 */
import assert from 'node:assert/strict';
import { createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { setNumberSetting, upload } from '../support/documents.ts';
import { makeUser } from '../support/factories.ts';
import { makePdf } from '../support/pdfs.ts';

let t: TestApp;
const tokens: Record<string, string> = {};
let id: string;

const READ_PATHS = (
  docId: string,
) => [`/api/documents/view/${docId}`, `/api/documents/print/${docId}`, `/api/documents/${docId}/info`];

async function status(path: string, token: string): Promise<{ status: number; body: string }> {
  const r = await t.app.request(path, { headers: { authorization: `Bearer ${token}` } });
  return { status: r.status, body: await r.text() };
}

Deno.test({
  name: 'setup: a document sent by the demo representative to offender 100001',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    for (
      const role of ['attorney', 'representative', 'offender', 'offender2', 'admin', 'approver'] as const
    ) {
      tokens[role] = await signIn(t, DEMO[role][0], DEMO[role][1]);
    }
    const otherAttorney = await makeUser(t, { role: 'attorney' });
    const otherRep = await makeUser(t, { role: 'representative', supervisingAttorneyId: otherAttorney.id });
    const [demoAttorney] = await t.deps.sql`select id from users where email = 'attorney@demo.test'`;
    const siblingRep = await makeUser(t, { role: 'representative', supervisingAttorneyId: demoAttorney.id });
    const otherOffender = await makeUser(t, { role: 'offender' });
    tokens.otherAttorney = await signIn(t, otherAttorney.username, otherAttorney.secret);
    tokens.otherRep = await signIn(t, otherRep.username, otherRep.secret);
    tokens.siblingRep = await signIn(t, siblingRep.username, siblingRep.secret);
    tokens.otherOffender = await signIn(t, otherOffender.username, otherOffender.secret);
    const r = await upload(t, tokens.representative, {
      file: await makePdf(),
      recipient: '100001',
      title: 'Private',
    }, '/api/representative/upload');
    assert.equal(r.status, 201);
    id = r.body.document.documentid;
  },
});

Deno.test({
  name: "the recipient, the sender and the sender's supervising attorney can read it",
  ...DB_TEST,
  fn: async () => {
    for (const who of ['offender', 'representative', 'attorney']) {
      for (const path of READ_PATHS(id)) {
        assert.equal((await status(path, tokens[who])).status, 200, `${who} ${path}`);
      }
    }
  },
});

Deno.test({
  name: 'every other offender, attorney and representative gets 404 Document not found.',
  ...DB_TEST,
  fn: async () => {
    for (const who of ['offender2', 'otherOffender', 'otherAttorney', 'otherRep', 'siblingRep']) {
      for (const path of READ_PATHS(id)) {
        const r = await status(path, tokens[who]);
        assert.equal(r.status, 404, `${who} ${path}`);
        assert.equal(JSON.parse(r.body).message, 'Document not found.');
      }
    }
  },
});

Deno.test({
  name: 'they do not see it in any list either',
  ...DB_TEST,
  fn: async () => {
    for (const who of ['offender2', 'otherOffender', 'otherAttorney', 'otherRep', 'siblingRep']) {
      const r = await status('/api/documents/mine', tokens[who]);
      assert.ok(!r.body.includes(id), who);
    }
    assert.ok(!(await status('/api/documents/attorney', tokens.otherAttorney)).body.includes(id));
    assert.ok(!(await status('/api/representative/documents', tokens.siblingRep)).body.includes(id));
    assert.equal((await status('/api/documents/offender/100001', tokens.offender2)).status, 404);
  },
});

Deno.test({
  name: 'admins and approvers never receive the bytes (403 before anything is looked up)',
  ...DB_TEST,
  fn: async () => {
    for (const who of ['admin', 'approver']) {
      for (const path of READ_PATHS(id)) {
        assert.equal((await status(path, tokens[who])).status, 403, `${who} ${path}`);
      }
    }
  },
});

Deno.test({
  name: 'a missing, a malformed and an expired id are the same 404',
  ...DB_TEST,
  fn: async () => {
    const ids = [
      crypto.randomUUID(),
      'not-a-uuid',
      '1 or 1=1',
      '..%2F..%2Fetc',
      id.toUpperCase().replace(/-/g, ''),
    ];
    for (const bad of ids) {
      for (const path of READ_PATHS(encodeURIComponent(bad))) {
        const r = await status(path, tokens.offender);
        assert.equal(r.status, 404, `${path}`);
        assert.equal(JSON.parse(r.body).message, 'Document not found.');
      }
    }
    await setNumberSetting(t, 'document_retention_days', 0);
    try {
      for (const path of READ_PATHS(id)) {
        assert.equal((await status(path, tokens.offender)).status, 404, `expired ${path}`);
      }
      assert.ok(!(await status('/api/documents/mine', tokens.offender)).body.includes(id));
    } finally {
      await setNumberSetting(t, 'document_retention_days', 90);
    }
    assert.equal((await status(`/api/documents/view/${id}`, tokens.offender)).status, 200);
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
  },
});
