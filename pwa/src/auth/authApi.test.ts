import assert from 'node:assert/strict';
import { logout, LOGOUT_WAIT_MS, sendUnsentLogouts, unsentLogoutCount } from './authApi.ts';

Deno.test('a Log Off does not wait on a hung API for longer than LOGOUT_WAIT_MS', async () => {
  // A hung API must not keep the token in the browser for the next person.
  const realFetch = globalThis.fetch;
  globalThis.fetch =
    ((_input: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      })) as typeof fetch;
  try {
    const started = Date.now();
    assert.equal(await logout('token'), false);
    const waited = Date.now() - started;
    assert.ok(waited >= LOGOUT_WAIT_MS - 50 && waited < LOGOUT_WAIT_MS + 2_000, `waited ${waited} ms`);
  } finally {
    globalThis.fetch = realFetch;
  }
});

Deno.test('a Log Off without the network is sent again when it returns, and only until the API has it', async () => {
  const realFetch = globalThis.fetch;
  const sent: string[] = [];
  let network = false;
  globalThis.fetch = ((_input: RequestInfo | URL, init?: RequestInit) => {
    if (!network) return Promise.reject(new TypeError('Failed to fetch'));
    sent.push(new Headers(init?.headers).get('authorization') ?? '');
    return Promise.resolve(Response.json({ success: true, message: 'Logged out' }));
  }) as typeof fetch;
  try {
    // The hung Log Off of the test above is still owed: it goes first.
    network = true;
    await sendUnsentLogouts();
    sent.length = 0;
    network = false;
    assert.equal(await logout('offline-token'), false);
    assert.equal(unsentLogoutCount(), 1);
    network = true;
    await sendUnsentLogouts();
    assert.deepEqual(sent, ['Bearer offline-token']);
    assert.equal(unsentLogoutCount(), 0);
    await sendUnsentLogouts();
    assert.equal(sent.length, 1, 'sent once');
  } finally {
    globalThis.fetch = realFetch;
  }
});
