/** HTTP byte ranges (RFC 9110 §14): one range per request, the only kind a PDF viewer sends. */

/** Inclusive first and last byte. */
export interface ByteRange {
  start: number;
  end: number;
}

export type RangeRequest =
  | { kind: 'full' }
  | { kind: 'partial'; range: ByteRange }
  | { kind: 'unsatisfiable' };

/**
 * Reads a Range header against a blob of `size` bytes. A header that is absent, malformed,
 * not in bytes or asks for several ranges is ignored (the whole body), as RFC 9110 allows.
 */
export function parseRange(header: string | undefined | null, size: number): RangeRequest {
  if (!header) return { kind: 'full' };
  const match = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return { kind: 'full' };
  if (match[1] === '') {
    // Suffix range: the last n bytes.
    const n = Number(match[2]);
    if (n === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', range: { start: Math.max(0, size - n), end: size - 1 } };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (!Number.isSafeInteger(start) || start >= size || end < start) return { kind: 'unsatisfiable' };
  return { kind: 'partial', range: { start, end } };
}
