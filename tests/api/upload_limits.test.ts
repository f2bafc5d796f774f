/**
 * A sender cannot hold the API's memory with uploads that never finish: uploads are counted per sender and in all
 * before their body is read (429 / 503 with Retry-After), and a body that stops arriving is dropped (408).
 */
import assert from 'node:assert/strict';
import { createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { makeUser } from '../support/factories.ts';
import { makePdf } from '../support/pdfs.ts';

let t: TestApp;
let attorney: string;
let representative: string;
let otherAttorney: string;

Deno.test({
  name: 'setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp({
      UPLOADS_PER_SENDER: '1',
      UPLOADS_IN_FLIGHT: '2',
      UPLOAD_IDLE_SECONDS: '2',
    });
    attorney = await signIn(t, ...DEMO.attorney);
    representative = await signIn(t, ...DEMO.representative);
    const other = await makeUser(t, { role: 'attorney' });
    otherAttorney = await signIn(t, other.username, other.secret);
  },
});

const BOUNDARY = 'stalled';
const HEAD = new TextEncoder().encode(
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="recipient_doc_number"\r\n\r\n100001\r\n` +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="title"\r\n\r\nStalled\r\n` +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="s.pdf"\r\n\r\n%PDF-1.7\n`,
);

/** An upload whose body sends its first part and then nothing; `pulled` counts the reads of it. */
function stalledUpload(token: string, path = '/api/documents/upload') {
  const state = { pulled: 0, stop: () => {} };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      state.stop = () => {
        try {
          controller.close();
        } catch { /* already closed */ }
      };
    },
    pull(controller) {
      state.pulled++;
      if (state.pulled === 1) controller.enqueue(HEAD);
      // Then nothing: the read waits as a stalled client's does.
      return new Promise(() => {});
    },
    // Pulled only when the server reads, so `pulled` counts its reads.
  }, { highWaterMark: 0 });
  const answer = t.app.request(path, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
    },
    body,
    duplex: 'half',
  } as RequestInit);
  return { answer, state };
}

async function uploadComplete(token: string, path = '/api/documents/upload') {
  const form = new FormData();
  form.set('recipient_doc_number', '100001');
  form.set('title', 'Complete');
  form.set('file', new File([await makePdf({ pages: 1 }) as BlobPart], 'c.pdf', { type: 'application/pdf' }));
  return await t.app.request(path, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
}

/** The answer, or 'still waiting' when none came within `ms`. */
async function within(answer: Response | Promise<Response>, ms: number): Promise<Response | 'still waiting'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'still waiting'>((resolve) =>
    timer = setTimeout(() => resolve('still waiting'), ms)
  );
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

Deno.test({
  name: 'an upload whose body stops arriving is dropped with 408 after the idle limit, and frees its slot',
  ...DB_TEST,
  fn: async () => {
    const stalled = stalledUpload(attorney);
    const r = await within(stalled.answer, 20_000);
    assert.notEqual(r, 'still waiting', 'a stalled body must not be waited on for ever');
    const answer = r as Response;
    assert.equal(answer.status, 408);
    assert.deepEqual(await answer.json(), {
      success: false,
      message: 'The upload stopped arriving, so it was not stored. Please try again.',
      code: 'upload_timed_out',
    });
    assert.equal((await uploadComplete(attorney)).status, 201, 'the slot is free again');
  },
});

Deno.test({
  name:
    'past their concurrent uploads a sender gets 429, and past the total everyone 503, before the body is read',
  ...DB_TEST,
  fn: async () => {
    const first = stalledUpload(attorney);
    const second = stalledUpload(representative, '/api/representative/upload');
    // Both are being read (their first part arrived) before the others come.
    while (first.state.pulled < 1 || second.state.pulled < 1) await new Promise((r) => setTimeout(r, 20));

    const again = stalledUpload(attorney);
    const busy = await within(again.answer, 10_000) as Response;
    assert.equal(busy.status, 429);
    assert.equal(busy.headers.get('retry-after'), '10');
    assert.deepEqual(await busy.json(), {
      success: false,
      message: 'You have other uploads still arriving. Please wait for them to finish, then try again.',
      code: 'upload_sender_busy',
    });
    assert.equal(again.state.pulled, 0, 'not a byte of the refused body was read');

    const full = stalledUpload(otherAttorney);
    const refused = await within(full.answer, 10_000) as Response;
    assert.equal(refused.status, 503);
    assert.equal(refused.headers.get('retry-after'), '30');
    assert.equal((await refused.json()).code, 'upload_server_busy');
    assert.equal(full.state.pulled, 0);

    // The stalled ones end (408 at the idle limit); then everyone may upload again.
    assert.equal((await first.answer).status, 408);
    assert.equal((await second.answer).status, 408);
    assert.equal((await uploadComplete(otherAttorney)).status, 201);
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
  },
});
