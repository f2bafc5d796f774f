import assert from 'node:assert/strict';
import { logout, LOGOUT_WAIT_MS } from './authApi.ts';

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
