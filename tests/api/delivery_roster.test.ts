/**
 * The roster cannot be read through the upload either: a file that is not a PDF is refused before any recipient is
 * looked at, every recipient an upload checks spends the sender's lookup budget and is audited as a lookup is, and
 * a sender sees an offender's name only as the lookup shows it ('KOWALSKI, T.').
 */
import assert from 'node:assert/strict';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { setNumberSetting, upload } from '../support/documents.ts';
import { makeUser } from '../support/factories.ts';
import { makePdf } from '../support/pdfs.ts';

/** The lowest limit the setting allows: a test spends it in a few calls. */
const LIMIT = 10;
const GARBAGE = new Uint8Array([0x13, 0x37, 0xde, 0xad, 0xbe, 0xef, 0x00]);

let t: TestApp;
let pdf: Uint8Array;

Deno.test({
  name: 'setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    pdf = await makePdf({ pages: 1, title: 'Notice' });
    await setNumberSetting(t, 'recipient_lookup_limit_per_hour', LIMIT);
  },
});

/** A fresh attorney of the demo entity, signed in. */
async function sender(): Promise<{ id: string; token: string }> {
  const user = await makeUser(t, { role: 'attorney' });
  return { id: user.id, token: await signIn(t, user.username, user.secret) };
}

/** Spends `n` of the sender's lookups through GET /api/recipients. */
async function lookUp(token: string, n: number): Promise<number[]> {
  const statuses = [];
  for (let i = 0; i < n; i++) {
    statuses.push(
      (await call(t, 'GET', `/api/recipients/${i % 2 ? '100001' : `55500${i}`}`, { token })).status,
    );
  }
  return statuses;
}

/** The sender's audit rows of one type, oldest first. */
async function auditRows(userId: string, eventType: string) {
  return await t.deps.sql<{ event_data: Record<string, unknown>; resource_id: string | null }[]>`
    select event_data, resource_id from audit_logs where user_id = ${userId} and event_type = ${eventType}
    order by id`;
}

/** Twenty DOC numbers: two of the demo roster's and eighteen nobody has. */
const PROBE = ['100001', '100002', ...Array.from({ length: 18 }, (_, i) => String(200000 + i))];

Deno.test({
  name: 'after the lookup answers 429, a file that is not a PDF is refused (415) without a recipient probed',
  ...DB_TEST,
  fn: async () => {
    const { id, token } = await sender();
    await lookUp(token, LIMIT);
    assert.equal((await call(t, 'GET', '/api/recipients/100001', { token })).status, 429);
    for (let i = 0; i < 5; i++) {
      const r = await upload(t, token, {
        file: GARBAGE,
        recipient: PROBE[0],
        moreRecipients: PROBE.slice(1),
        title: 'x',
      });
      assert.equal(r.status, 415, JSON.stringify(r.body));
      assert.deepEqual(r.body, { success: false, message: 'The file is not a PDF.', code: 'upload_not_pdf' });
    }
    assert.equal((await auditRows(id, 'recipient_lookup')).length, LIMIT, 'no recipient was looked at');
  },
});

Deno.test({
  name: 'a file part that does not open as a PDF is refused as soon as its first KiB is in',
  ...DB_TEST,
  fn: async () => {
    const { token } = await sender();
    let sent = 0;
    const head = new TextEncoder().encode(
      '--x\r\nContent-Disposition: form-data; name="recipient_doc_number"\r\n\r\n100001\r\n' +
        '--x\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n',
    );
    // Garbage for ever: only a look at the file's first bytes can stop it before the size limit does.
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) {
          sent += head.length;
          return controller.enqueue(head);
        }
        sent += 4096;
        if (sent > 100 * 1024 * 1024) return controller.close();
        controller.enqueue(new Uint8Array(4096).fill(0x41));
      },
    });
    const r = await t.app.request('/api/documents/upload', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'multipart/form-data; boundary=x' },
      body,
      duplex: 'half',
    } as RequestInit);
    assert.equal(r.status, 415);
    await r.body?.cancel();
    assert.ok(sent < 256 * 1024, `read ${sent} bytes of a file that was not a PDF from its first KiB`);
  },
});

Deno.test({
  name: 'after the lookup answers 429, an upload of a real PDF is refused with 429 too, audited once an hour',
  ...DB_TEST,
  fn: async () => {
    const { id, token } = await sender();
    await lookUp(token, LIMIT + 1);
    for (let i = 0; i < 3; i++) {
      const r = await upload(t, token, {
        file: pdf,
        recipient: PROBE[0],
        moreRecipients: PROBE.slice(1),
        title: 'Probe',
      });
      assert.equal(r.status, 429, JSON.stringify(r.body));
      assert.equal(r.body.code, 'recipient_lookup_throttled');
      assert.equal(r.body.message, 'Too many DOC number lookups in the last hour. Please try again later.');
      assert.ok(!JSON.stringify(r.body).includes('200001'), 'no DOC number is named');
    }
    // Even one known recipient, alone, is refused: the budget is spent.
    assert.equal((await upload(t, token, { file: pdf, recipient: '100001', title: 'One' })).status, 429);
    assert.equal((await auditRows(id, 'recipient_lookup')).length, LIMIT, 'no recipient was looked at');
    assert.equal((await auditRows(id, 'recipient_lookup_throttled')).length, 1, 'one refusal row an hour');
  },
});

Deno.test({
  name: 'recipients an upload checks spend the lookup budget: lookups are refused once uploads spent it',
  ...DB_TEST,
  fn: async () => {
    const { id, token } = await sender();
    const unknown = await upload(t, token, {
      file: pdf,
      recipient: '100001',
      moreRecipients: ['100002', '300001'],
      title: 'Co-defendants',
    });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.message, 'No active offender has DOC number 300001.');
    // Each recipient checked is audited as a lookup is, the miss as the lookup audits a miss.
    const rows = await auditRows(id, 'recipient_lookup');
    assert.deepEqual(rows.map((r) => r.event_data), [
      { docNumber: '100001', found: true, via: 'upload' },
      { docNumber: '100002', found: true, via: 'upload' },
      { docNumber: '300001', found: false, via: 'upload' },
    ]);
    assert.equal(rows[2].resource_id, null);
    assert.notEqual(rows[0].resource_id, null);
    assert.equal((await upload(t, token, { file: pdf, recipient: '100001', title: 'Sent' })).status, 201);
    // 4 spent by the uploads: 6 lookups left.
    const statuses = await lookUp(token, LIMIT - 4 + 1);
    assert.deepEqual(statuses.slice(0, -1).filter((s) => s === 429), []);
    assert.equal(statuses.at(-1), 429);
  },
});

Deno.test({
  name: 'uploads are refused once lookups spent the budget, and never check part of their recipients',
  ...DB_TEST,
  fn: async () => {
    const { id, token } = await sender();
    await lookUp(token, LIMIT - 2);
    const over = await upload(t, token, {
      file: pdf,
      recipient: '100001',
      moreRecipients: ['100002', '300002'],
      title: 'Three',
    });
    assert.equal(over.status, 429, 'three recipients do not fit in the two lookups left');
    assert.equal((await auditRows(id, 'recipient_lookup')).length, LIMIT - 2);
    const [refusal] = await auditRows(id, 'recipient_lookup_throttled');
    assert.deepEqual(refusal.event_data, { docNumber: '100001', limit: LIMIT, via: 'upload' });
    const fits = await upload(t, token, {
      file: pdf,
      recipient: '100001',
      moreRecipients: ['100002'],
      title: 'Two',
    });
    assert.equal(fits.status, 201, JSON.stringify(fits.body));
    assert.equal((await call(t, 'GET', '/api/recipients/100001', { token })).status, 429);
  },
});

Deno.test({
  name: "a sender's receipt, upload answer and lists show the recipient only as the lookup does (LAST, F.)",
  ...DB_TEST,
  fn: async () => {
    const offender = await makeUser(t, { role: 'offender', firstName: 'Tomas', lastName: 'Kowalski' });
    const attorney = await sender();
    const representative = await signIn(t, ...DEMO.representative);
    const masked = `KOWALSKI, T. (${offender.username})`;
    const sent = await upload(t, attorney.token, {
      file: pdf,
      recipient: offender.username,
      title: 'Letter',
    });
    assert.equal(sent.status, 201, JSON.stringify(sent.body));
    assert.equal(sent.body.document.to, masked);
    const id = sent.body.document.documentid;
    const byRep = await upload(
      t,
      representative,
      { file: pdf, recipient: offender.username, title: 'Visit' },
      '/api/representative/upload',
    );
    assert.equal(byRep.status, 201, JSON.stringify(byRep.body));
    assert.equal(byRep.body.document.to, masked);
    const answers = [
      sent.body,
      byRep.body,
      (await call(t, 'GET', `/api/documents/${id}/info`, { token: attorney.token })).body,
      (await call(t, 'GET', `/api/documents/${byRep.body.document.documentid}/info`, {
        token: representative,
      }))
        .body,
      (await call(t, 'GET', '/api/documents/mine', { token: attorney.token })).body,
      (await call(t, 'GET', '/api/documents/mine', { token: representative })).body,
      (await call(t, 'GET', '/api/documents/attorney', { token: attorney.token })).body,
      (await call(t, 'GET', '/api/representative/documents', { token: representative })).body,
      (await call(t, 'POST', `/api/documents/${id}/withdraw`, { token: attorney.token })).body,
      (await call(t, 'GET', `/api/documents/${id}/info`, { token: attorney.token })).body,
    ];
    for (const [i, body] of answers.entries()) {
      assert.equal(body.success, true, `answer ${i}: ${JSON.stringify(body)}`);
      assert.ok(
        !/Tomas|Kowalski/.test(JSON.stringify(body)),
        `answer ${i} names more: ${JSON.stringify(body)}`,
      );
    }
    assert.equal(answers[2].data.document.to, masked);
    const mine = answers[4].documents.find((d: { documentid: string }) => d.documentid === id);
    assert.equal(mine.to, masked);
  },
});

Deno.test({ name: 'teardown', ...DB_TEST, fn: () => t.close() });
