import assert from 'node:assert/strict';
import {
  dataKeyBytes,
  importDataKey,
  PIN_ITERATIONS,
  seal,
  unseal,
  unwrapDataKey,
  wrapDataKey,
} from './crypto.ts';

const encoder = new TextEncoder();

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

async function freshKey(): Promise<{ raw: Uint8Array<ArrayBuffer>; key: CryptoKey }> {
  const raw = crypto.getRandomValues(new Uint8Array(32));
  return { raw, key: await importDataKey(raw.slice()) };
}

Deno.test('a sealed record opens with its key, store and id, and the key cannot be read back', async () => {
  const { key } = await freshKey();
  const plain = encoder.encode('%PDF-1.7 MARKER');
  const record = await seal(key, 'pdfs', 'doc-1', plain);
  assert.equal(record.iv.length, 12);
  assert.deepEqual(await unseal(key, 'pdfs', record), plain);
  assert.equal(key.extractable, false);
  await assert.rejects(crypto.subtle.exportKey('raw', key));
});

Deno.test('each seal has a fresh IV, so the same bytes never give the same ciphertext', async () => {
  const { key } = await freshKey();
  const plain = encoder.encode('same bytes');
  const a = await seal(key, 'pdfs', 'doc-1', plain);
  const b = await seal(key, 'pdfs', 'doc-1', plain);
  assert.notDeepEqual(a.iv, b.iv);
  assert.notDeepEqual(a.data, b.data);
});

Deno.test('a record does not open under another key, another id, another store, or with a byte changed', async () => {
  const { key } = await freshKey();
  const { key: other } = await freshKey();
  const record = await seal(key, 'pdfs', 'doc-1', encoder.encode('privileged'));
  assert.equal(await unseal(other, 'pdfs', record), null);
  assert.equal(await unseal(key, 'pdfs', { ...record, id: 'doc-2' }), null, 'moved to another id');
  assert.equal(await unseal(key, 'list', record), null, 'moved to another store');
  const altered = record.data.slice();
  altered[0] ^= 1;
  assert.equal(await unseal(key, 'pdfs', { ...record, data: altered }), null);
});

Deno.test('the data key wrapped under the PIN opens with that PIN and owner only', async () => {
  const { raw } = await freshKey();
  const wrap = await wrapDataKey(raw, '482913', 'user-1', 1000);
  assert.equal(wrap.salt.length, 16);
  assert.equal(wrap.iterations, 1000);
  assert.ok(!base64url(wrap.wrapped).includes(base64url(raw)));
  const key = await unwrapDataKey(wrap, '482913', 'user-1');
  assert.ok(key);
  assert.equal(key.extractable, false);
  // The unwrapped key reads what the original raw key sealed.
  const record = await seal(await importDataKey(raw.slice()), 'list', 'current', encoder.encode('list'));
  assert.deepEqual(await unseal(key, 'list', record), encoder.encode('list'));
  assert.equal(await unwrapDataKey(wrap, '482914', 'user-1'), null, 'wrong PIN');
  assert.equal(await unwrapDataKey(wrap, '482913', 'user-2'), null, 'another owner');
});

Deno.test('OfflineKey.key must be 32 bytes of base64url', () => {
  const raw = crypto.getRandomValues(new Uint8Array(32));
  assert.deepEqual(dataKeyBytes(base64url(raw)), raw);
  assert.equal(dataKeyBytes(base64url(raw.slice(0, 16))), null);
  assert.equal(dataKeyBytes('not base64url!'), null);
});

Deno.test('PBKDF2 cost: the PIN iterations, timed on this machine', async () => {
  assert.ok(PIN_ITERATIONS >= 600_000);
  const { raw } = await freshKey();
  const started = performance.now();
  const wrap = await wrapDataKey(raw, '482913', 'user-1');
  const wrapMs = performance.now() - started;
  const again = performance.now();
  assert.ok(await unwrapDataKey(wrap, '482913', 'user-1'));
  const unwrapMs = performance.now() - again;
  console.log(
    `PBKDF2-SHA256 x ${PIN_ITERATIONS}: wrap ${wrapMs.toFixed(0)} ms, unwrap ${unwrapMs.toFixed(0)} ms; ` +
      `all 10^6 six-digit PINs on one such core: ~${((unwrapMs * 1e6) / 3.6e6).toFixed(0)} h`,
  );
});
