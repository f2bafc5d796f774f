/**
 * The binary COPY decoder of the postgres blob store, on pieces split every way a socket may split them:
 * whole rows (a view of each piece, no copy), a value over several pieces, one byte at a time.
 */
import assert from 'node:assert/strict';
import { decodeCopyBinary } from '../../api/blobs/copy_binary.ts';

const SIGNATURE = [0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00];

function int(bytes: number, value: number): number[] {
  return Array.from({ length: bytes }, (_, i) => (value >> (8 * (bytes - 1 - i))) & 0xff);
}

/** A COPY output of one bytea column with these values, as PostgreSQL sends it: header, one message per row, trailer. */
function copyOutput(values: Uint8Array[]): Uint8Array[] {
  return [
    new Uint8Array([...SIGNATURE, ...int(4, 0), ...int(4, 0)]),
    ...values.map((v) => new Uint8Array([...int(2, 1), ...int(4, v.length), ...v])),
    new Uint8Array(int(2, -1 & 0xffff)),
  ];
}

function concat(pieces: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const values = [1000, 1, 0, 70_000].map((n, k) =>
  Uint8Array.from({ length: n }, (_, i) => (i * 7 + k) & 0xff)
);

Deno.test('binary COPY: one piece per row gives every value back, each a view of its piece', () => {
  const pieces = copyOutput(values);
  const decoded = decodeCopyBinary(pieces);
  assert.deepEqual(decoded, values);
  assert.equal(decoded[3].buffer, pieces[4].buffer);
});

Deno.test('binary COPY: any split of the bytes gives the same values', () => {
  const whole = concat(copyOutput(values));
  for (const size of [1, 3, 4096, 65_536, whole.length]) {
    const pieces: Uint8Array[] = [];
    for (let at = 0; at < whole.length; at += size) pieces.push(whole.slice(at, at + size));
    assert.deepEqual(decodeCopyBinary(pieces), values, `pieces of ${size}`);
  }
  assert.deepEqual(decodeCopyBinary([new Uint8Array(), whole, new Uint8Array()]), values);
});

Deno.test('binary COPY: a stream cut short, a wrong signature or a NULL is refused', () => {
  const whole = concat(copyOutput(values));
  assert.throws(() => decodeCopyBinary([whole.subarray(0, whole.length - 2)]), /trailer/);
  assert.throws(() => decodeCopyBinary([whole.subarray(0, 200)]), /trailer/);
  assert.throws(() => decodeCopyBinary([new Uint8Array(10)]), /not a binary COPY stream/);
  const wrong = whole.slice();
  wrong[0] = 0x51;
  assert.throws(() => decodeCopyBinary([wrong]), /not a binary COPY stream/);
  const nullRow = concat([
    copyOutput([])[0],
    new Uint8Array([...int(2, 1), ...int(4, -1 >>> 0)]),
    copyOutput([])[1],
  ]);
  assert.throws(() => decodeCopyBinary([nullRow]), /NULL/);
});
