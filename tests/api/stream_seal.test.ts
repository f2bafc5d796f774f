/**
 * The STREAM construction of documents' bytes (api/blobs/stream_seal.ts, docs/security.md "Document bytes at
 * rest"), checked byte for byte, both ways, against a second implementation of the construction written from the
 * description alone over the node:crypto cipher API (under Deno perhaps the same AES underneath: what it checks is
 * the segmenting, the nonces and the final flag), and against a known answer computed by Node.js (OpenSSL's
 * AES-GCM); then ranges, and every way a stored blob can be damaged.
 */
import assert from 'node:assert/strict';
import { createCipheriv, createDecipheriv } from 'node:crypto';
import {
  importDataKey,
  openSegments,
  SealBroken,
  SEALED_SEGMENT_SIZE,
  sealedRangeFor,
  sealedSize,
  sealStream,
  SEGMENT_SIZE,
} from '../../api/blobs/stream_seal.ts';
import { streamOf } from '../support/pdfs.ts';

const KEY = Uint8Array.from({ length: 32 }, (_, i) => i);

/** age's STREAM as the documentation states it: 64 KiB segments, nonce = 11-byte BE counter || final flag. */
function referenceNonce(index: number, final: boolean): Uint8Array {
  const nonce = new Uint8Array(12);
  new DataView(nonce.buffer).setBigUint64(3, BigInt(index)); // bytes 3..10: the counter's low 8 bytes
  nonce[11] = final ? 1 : 0;
  return nonce;
}

function referenceSeal(key: Uint8Array, plain: Uint8Array): Uint8Array {
  const count = Math.max(1, Math.ceil(plain.length / SEGMENT_SIZE));
  const out: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const cipher = createCipheriv('aes-256-gcm', key, referenceNonce(i, i === count - 1));
    out.push(cipher.update(plain.subarray(i * SEGMENT_SIZE, (i + 1) * SEGMENT_SIZE)), cipher.final());
    out.push(cipher.getAuthTag());
  }
  return concat(out);
}

function referenceOpen(key: Uint8Array, sealed: Uint8Array): Uint8Array {
  const count = Math.ceil(sealed.length / SEALED_SEGMENT_SIZE);
  const out: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const piece = sealed.subarray(i * SEALED_SEGMENT_SIZE, (i + 1) * SEALED_SEGMENT_SIZE);
    const decipher = createDecipheriv('aes-256-gcm', key, referenceNonce(i, i === count - 1));
    decipher.setAuthTag(piece.subarray(piece.length - 16));
    out.push(decipher.update(piece.subarray(0, piece.length - 16)), decipher.final());
  }
  return concat(out);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function randomBytes(n: number): Uint8Array {
  const b = new Uint8Array(n);
  for (let at = 0; at < n; at += 65536) crypto.getRandomValues(b.subarray(at, at + 65536));
  return b;
}

async function seal(plain: Uint8Array, chunk = 10_007): Promise<Uint8Array> {
  const key = await importDataKey(KEY);
  return new Uint8Array(await new Response(sealStream(key, streamOf(plain, chunk))).arrayBuffer());
}

async function open(sealed: Uint8Array, size: number, range?: { start: number; end: number }) {
  const key = await importDataKey(KEY);
  const span = sealedRangeFor(size, range);
  const parts: Uint8Array[] = [];
  for await (
    const p of openSegments(key, streamOf(sealed.subarray(span.start, span.end + 1), 7_919), { size, range })
  ) {
    parts.push(p.slice());
  }
  return concat(parts);
}

const SIZES = [
  0,
  1,
  5,
  SEGMENT_SIZE - 1,
  SEGMENT_SIZE,
  SEGMENT_SIZE + 1,
  3 * SEGMENT_SIZE,
  3 * SEGMENT_SIZE + 777,
];

Deno.test('sealing matches a second implementation byte for byte, and each opens the other', async () => {
  for (const size of SIZES) {
    const plain = randomBytes(size);
    const ours = await seal(plain);
    assert.equal(ours.length, sealedSize(size), `sealed size of ${size}`);
    assert.deepEqual(ours, referenceSeal(KEY, plain), `sealed bytes of ${size}`);
    assert.deepEqual(referenceOpen(KEY, ours), plain, `reference opens ours (${size})`);
    assert.deepEqual(await open(referenceSeal(KEY, plain), size), plain, `we open the reference's (${size})`);
  }
});

Deno.test('a known answer: "hello" under key 00..1f is one final segment', async () => {
  const sealed = await seal(new TextEncoder().encode('hello'));
  // AES-256-GCM of "hello", key 000102..1f, nonce 00×11 || 01 (the final segment), computed once by Node.js
  // (OpenSSL) and written down here.
  assert.equal(
    Array.from(sealed, (b) => b.toString(16).padStart(2, '0')).join(''),
    '7db3d3902b668586cf2edee656e1ea5fe36d7bf3d1',
  );
});

Deno.test('a range opens only the segments it touches and gives exactly its bytes', async () => {
  const size = 3 * SEGMENT_SIZE + 777;
  const plain = randomBytes(size);
  const sealed = await seal(plain);
  for (
    const [start, end] of [
      [0, 0],
      [SEGMENT_SIZE - 1, SEGMENT_SIZE],
      [SEGMENT_SIZE - 10, 2 * SEGMENT_SIZE + 10],
      [2 * SEGMENT_SIZE, 3 * SEGMENT_SIZE - 1],
      [size - 1, size - 1],
      [12_345, size - 1],
    ]
  ) {
    const span = sealedRangeFor(size, { start, end });
    assert.equal(span.first, Math.floor(start / SEGMENT_SIZE));
    assert.equal(span.last, Math.floor(end / SEGMENT_SIZE));
    assert.deepEqual(
      await open(sealed, size, { start, end }),
      plain.subarray(start, end + 1),
      `${start}-${end}`,
    );
  }
});

Deno.test('a changed byte, swapped segments, a cut or an extra segment: an error, never other bytes', async () => {
  const size = 3 * SEGMENT_SIZE;
  const plain = randomBytes(size);
  const sealed = await seal(plain);
  const broken = async (bytes: Uint8Array, what: string, range?: { start: number; end: number }) => {
    const key = await importDataKey(KEY);
    const got: Uint8Array[] = [];
    await assert.rejects(
      async () => {
        for await (const p of openSegments(key, streamOf(bytes, 50_000), { size, range })) got.push(p);
      },
      SealBroken,
      what,
    );
    return got.length;
  };
  const changed = sealed.slice();
  changed[SEALED_SEGMENT_SIZE + 100] ^= 1;
  assert.equal(await broken(changed, 'a byte changed in segment 1'), 1, 'segment 0 only, before the error');
  const swapped = concat([
    sealed.subarray(SEALED_SEGMENT_SIZE, 2 * SEALED_SEGMENT_SIZE),
    sealed.subarray(0, SEALED_SEGMENT_SIZE),
    sealed.subarray(2 * SEALED_SEGMENT_SIZE),
  ]);
  assert.equal(await broken(swapped, 'segments 0 and 1 swapped'), 0);
  await broken(sealed.subarray(0, 2 * SEALED_SEGMENT_SIZE), 'the last segment dropped');
  await broken(sealed.subarray(0, sealed.length - 1), 'the last byte cut');
  await broken(concat([sealed, sealed.subarray(0, SEALED_SEGMENT_SIZE)]), 'a segment appended');
  // The last full segment sealed as not final (a longer document cut there) does not pass as the end.
  const longer = await seal(randomBytes(size + 10));
  await broken(longer.subarray(0, sealed.length), 'a longer blob cut at a segment boundary');
});
