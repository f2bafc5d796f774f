/**
 * The sealed form of a document's bytes: age's STREAM construction over WebCrypto's AES-256-GCM
 * (docs/security.md, "Document bytes at rest").
 *
 * The plaintext is cut into 64 KiB segments, each sealed on its own under the document's data key with the nonce
 * `segment index (11 bytes, big-endian) || final flag (1 byte: 1 on the last segment, else 0)` and no associated
 * data; a sealed segment is the segment's ciphertext followed by its 16-byte tag. The data key is random and used
 * for one document only, so a nonce never repeats under a key. Every segment but the last is full; the last holds
 * 1 to 64 KiB, or nothing when the document is empty (then it is the only one). Because the index and the final
 * flag are in the nonce, a segment moved, swapped, dropped from the end or cut short does not authenticate, and a
 * reader that expects N segments (the size is known from the database) notices a blob cut after a full segment.
 * A byte range is read by opening only the segments it touches.
 */

/** age's chunk size: large enough that a tag per segment costs 0.02 %, small enough that a range reads little. */
export const SEGMENT_SIZE = 64 * 1024;
/** AES-GCM's tag. */
export const TAG_SIZE = 16;
export const SEALED_SEGMENT_SIZE = SEGMENT_SIZE + TAG_SIZE;

/** A segment that does not open under its key at its place: a changed, moved, swapped or cut blob. */
export class SealBroken extends Error {
  constructor(readonly segment: number, reason: string) {
    super(`sealed segment ${segment} ${reason}`);
    this.name = 'SealBroken';
  }
}

/** How many segments a plaintext of `size` bytes is sealed in (an empty one is one empty segment). */
export function segmentCount(size: number): number {
  return Math.max(1, Math.ceil(size / SEGMENT_SIZE));
}

/** The sealed size of a plaintext of `size` bytes. */
export function sealedSize(size: number): number {
  return size + segmentCount(size) * TAG_SIZE;
}

/** The nonce of segment `index`: 11-byte big-endian counter, then the final flag (age's layout). */
export function segmentNonce(index: number, final: boolean): Uint8Array {
  const nonce = new Uint8Array(12);
  let rest = index;
  for (let at = 10; at >= 0 && rest > 0; at--) {
    nonce[at] = rest % 256;
    rest = Math.floor(rest / 256);
  }
  nonce[11] = final ? 1 : 0;
  return nonce;
}

/** A new random data key (AES-256-GCM) as raw bytes, for one document. */
export function newDataKey(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(32));
}

/** The data key as a WebCrypto key that seals and opens, never extractable. */
export function importDataKey(raw: Uint8Array): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', raw as BufferSource, { name: 'AES-GCM' }, false, [
    'encrypt',
    'decrypt',
  ]);
}

async function sealSegment(key: CryptoKey, index: number, final: boolean, plain: Uint8Array) {
  const iv = segmentNonce(index, final) as BufferSource;
  return new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, plain as BufferSource));
}

async function openSegment(key: CryptoKey, index: number, final: boolean, sealed: Uint8Array) {
  const iv = segmentNonce(index, final) as BufferSource;
  try {
    return new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, key, sealed as BufferSource));
  } catch {
    throw new SealBroken(index, 'does not authenticate: the stored blob was changed, reordered or cut');
  }
}

/** Collects a byte stream into pieces of exactly `size` bytes (the last may be shorter). */
async function* pieces(source: ReadableStream<Uint8Array>, size: number): AsyncGenerator<Uint8Array> {
  let buffer = new Uint8Array(size);
  let filled = 0;
  const reader = source.getReader();
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      let at = 0;
      while (at < value.length) {
        const take = Math.min(size - filled, value.length - at);
        buffer.set(value.subarray(at, at + take), filled);
        filled += take;
        at += take;
        if (filled === size) {
          yield buffer;
          buffer = new Uint8Array(size);
          filled = 0;
        }
      }
    }
    if (filled > 0) yield buffer.subarray(0, filled);
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** The sealed stream of `source` under `key`. One segment is held back until the next shows it was not the last. */
export function sealStream(key: CryptoKey, source: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  async function* sealed() {
    let index = 0;
    let held: Uint8Array | undefined;
    for await (const piece of pieces(source, SEGMENT_SIZE)) {
      if (held) yield await sealSegment(key, index++, false, held);
      held = piece;
    }
    yield await sealSegment(key, index, true, held ?? new Uint8Array(0));
  }
  return ReadableStream.from(sealed());
}

/** The sealed bytes (an inclusive range of them) a plaintext range needs: whole segments. */
export function sealedRangeFor(
  size: number,
  range: { start: number; end: number } | undefined,
): { first: number; last: number; start: number; end: number } {
  const lastIndex = segmentCount(size) - 1;
  const first = range ? Math.floor(range.start / SEGMENT_SIZE) : 0;
  const last = range ? Math.min(lastIndex, Math.floor(range.end / SEGMENT_SIZE)) : lastIndex;
  return {
    first,
    last,
    start: first * SEALED_SEGMENT_SIZE,
    end: Math.min((last + 1) * SEALED_SEGMENT_SIZE, sealedSize(size)) - 1,
  };
}

/**
 * The plaintext of segments `first`..`last` of a blob of plaintext size `size`, read from `sealed` (those
 * segments' sealed bytes and nothing else), cut to `range` when given. Throws SealBroken as soon as a segment does
 * not open, or when the stored bytes end short or run long: never a byte that did not authenticate.
 */
export async function* openSegments(
  key: CryptoKey,
  sealed: ReadableStream<Uint8Array>,
  options: { size: number; range?: { start: number; end: number } },
): AsyncGenerator<Uint8Array> {
  const { size, range } = options;
  const lastIndex = segmentCount(size) - 1;
  const { first, last } = sealedRangeFor(size, range);
  const from = range?.start ?? 0;
  const to = range ? Math.min(range.end, size - 1) : size - 1;
  let index = first;
  for await (const piece of pieces(sealed, SEALED_SEGMENT_SIZE)) {
    if (index > last) throw new SealBroken(index, 'is one too many: the stored blob runs long');
    const final = index === lastIndex;
    const expected = final ? size - index * SEGMENT_SIZE + TAG_SIZE : SEALED_SEGMENT_SIZE;
    if (piece.length !== expected) throw new SealBroken(index, 'ends short: the stored blob was cut');
    const plain = await openSegment(key, index, final, piece);
    const base = index * SEGMENT_SIZE;
    const start = Math.max(0, from - base);
    const end = Math.min(plain.length, to - base + 1);
    if (end > start) yield plain.subarray(start, end);
    index++;
  }
  if (index <= last) throw new SealBroken(index, 'is missing: the stored blob was cut');
}
