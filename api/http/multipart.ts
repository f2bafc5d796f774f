/**
 * A strict streaming reader of multipart/form-data (RFC 7578): each part's bytes go to a sink as they arrive, so a
 * file part is never whole in memory; what is held at a time is one network chunk plus the delimiter's length.
 * Strict where the forms the PWA, browsers and `fetch` send are strict: no preamble, CRLF line ends, a
 * Content-Disposition `form-data` with a quoted or plain `name` on every part, headers of bounded size, a bounded
 * number of parts, and the closing delimiter before the body ends. Anything else is a `MultipartError`.
 */
import { Buffer } from 'node:buffer';

/** What a part says of itself. */
export interface PartInfo {
  name: string;
  /** Set when the part is a file (even to an empty name). */
  filename?: string;
}

/** Where a part's bytes go; `write` is awaited, so a slow sink slows the read (backpressure). */
export interface PartSink {
  write(chunk: Uint8Array): void | Promise<void>;
  /** The part's last byte was written (its delimiter is in). */
  end?(): void | Promise<void>;
}

/** The body is not a well-formed multipart form (or ended before its closing delimiter). */
export class MultipartError extends Error {}

/** The boundary of a `multipart/form-data` content type, or undefined. */
export function multipartBoundary(contentType: string | null): string | undefined {
  if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType)) return undefined;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

/** Reads `body` part by part, handing each part's bytes to the sink `onPart` gives for it. */
export async function readMultipart(
  body: ReadableStream<Uint8Array>,
  boundary: string,
  options: {
    onPart(part: PartInfo): PartSink | Promise<PartSink>;
    /** The most bytes one part's headers may take. */
    maxHeaderBytes: number;
    maxParts: number;
  },
): Promise<void> {
  const reader = body.getReader();
  let buf: Buffer = Buffer.alloc(0);
  const more = async (): Promise<void> => {
    const next = await reader.read();
    if (next.done) throw new MultipartError('the body ended before the closing delimiter');
    const chunk = Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
    // The tail kept from the previous chunk is small (at most a delimiter), so the copy is too.
    buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
  };
  const need = async (bytes: number) => {
    while (buf.length < bytes) await more();
  };
  try {
    const opening = Buffer.from(`--${boundary}\r\n`, 'latin1');
    const delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
    await need(opening.length);
    if (!buf.subarray(0, opening.length).equals(opening)) {
      throw new MultipartError('the body does not open with its boundary');
    }
    buf = buf.subarray(opening.length);
    for (let parts = 1;; parts++) {
      if (parts > options.maxParts) throw new MultipartError('too many parts');
      let headerEnd: number;
      while ((headerEnd = buf.indexOf('\r\n\r\n', 0, 'latin1')) < 0) {
        if (buf.length > options.maxHeaderBytes) throw new MultipartError('part headers too long');
        await more();
      }
      if (headerEnd > options.maxHeaderBytes) throw new MultipartError('part headers too long');
      const info = partInfo(buf.subarray(0, headerEnd).toString('utf8'));
      buf = buf.subarray(headerEnd + 4);
      const sink = await options.onPart(info);
      // Everything up to the next delimiter is the part's; a possible start of it is kept back.
      for (;;) {
        const at = buf.indexOf(delimiter);
        if (at >= 0) {
          if (at > 0) await sink.write(buf.subarray(0, at));
          buf = buf.subarray(at + delimiter.length);
          await sink.end?.();
          break;
        }
        const safe = buf.length - (delimiter.length - 1);
        if (safe > 0) {
          await sink.write(buf.subarray(0, safe));
          buf = buf.subarray(safe);
        }
        await more();
      }
      await need(2);
      if (buf[0] === 0x2d && buf[1] === 0x2d) return; // "--": the closing delimiter; the epilogue is not read.
      if (buf[0] !== 0x0d || buf[1] !== 0x0a) throw new MultipartError('a delimiter is not followed by CRLF');
      buf = buf.subarray(2);
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

/** The name and file name of a part's headers; a part without `Content-Disposition: form-data; name` is refused. */
function partInfo(headers: string): PartInfo {
  let info: PartInfo | undefined;
  for (const line of headers.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new MultipartError('a part header without a name');
    if (line.slice(0, colon).trim().toLowerCase() !== 'content-disposition') continue;
    const value = line.slice(colon + 1).trim();
    if (!/^form-data\s*(;|$)/i.test(value)) throw new MultipartError('a part that is not form-data');
    const name = parameter(value, 'name');
    if (name === undefined) throw new MultipartError('a part without a name');
    info = { name, filename: parameter(value, 'filename') };
  }
  if (!info) throw new MultipartError('a part without Content-Disposition');
  return info;
}

/** A Content-Disposition parameter: quoted (browsers percent-encode `"`, CR and LF in it) or a plain token. */
function parameter(value: string, key: string): string | undefined {
  const match = new RegExp(`;\\s*${key}=(?:"([^"]*)"|([^\\s;"]+))`, 'i').exec(value);
  if (!match) return undefined;
  return match[1] !== undefined ? match[1].replace(/%22/g, '"').replace(/%0D%0A/gi, '\r\n') : match[2];
}
