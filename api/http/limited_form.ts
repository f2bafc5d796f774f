/**
 * Reads a multipart body under a byte limit and two deadlines, its file part spooled to disk as it arrives: the declared Content-Length is checked first,
 * then the body is counted as it streams and the read fails the moment it passes the limit, so an oversized
 * upload is refused without reading the rest; and a body whose next bytes do not come within `idleMs`, or that
 * has not all come within `deadlineMs`, is dropped (Deno.serve has no body timeout of its own: a client that
 * stops sending would hold its request, and what it sent, for ever).
 */
import { AppError } from './errors.ts';
import { multipartBoundary, MultipartError, type PartSink, readMultipart } from './multipart.ts';

/** A form as received: its text fields, and its one file part (read back from disk once the body is complete). */
export interface ReceivedForm {
  get(name: string): string | undefined;
  getAll(name: string): string[];
  file?: File;
}

/**
 * Reads the request's form; throws `tooLarge()` past `limitBytes`, 400 `malformed` on a broken body. The file
 * part is written to a temporary file under `tempDir` as it arrives (so a slow or stalled upload holds a file on
 * disk, not its bytes in memory) and read back only once the whole body is in; the temporary file is removed
 * before this returns or throws. Text parts together may take `textBytes`.
 */
export async function readLimitedForm(
  request: Request,
  options: {
    limitBytes: number;
    tooLarge: () => AppError;
    malformed: string;
    /** Longest wait for the body's next bytes, and for all of it; past either `timedOut()` is thrown. */
    idleMs: number;
    deadlineMs: number;
    timedOut: () => AppError;
    /** Where the file part is spooled (created 0700 when missing); unwritable: the part is held in memory. */
    tempDir: string;
    textBytes: number;
    /** The most parts a form may have. */
    maxParts: number;
    /**
     * A look at the file part's first `bytes` (or all of it, when shorter) as soon as they are in: `refuse()` is
     * thrown when `accept` says no, before the rest of the body is read.
     */
    fileHead?: { bytes: number; accept(head: Uint8Array): boolean; refuse: () => AppError };
  },
): Promise<ReceivedForm> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > options.limitBytes) throw options.tooLarge();
  const boundary = multipartBoundary(request.headers.get('content-type'));
  if (!request.body || !boundary) throw new AppError(400, options.malformed, 'invalid');
  let seen = 0;
  let exceeded = false;
  const deadlines = { timedOut: false };
  const counted = withDeadlines(request.body, options, deadlines).pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.length;
        if (seen > options.limitBytes) {
          exceeded = true;
          controller.error(options.tooLarge());
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
  const fields = new Map<string, string[]>();
  let textBytes = 0;
  let spool: Spool | undefined;
  let fileName = '';
  try {
    await readMultipart(counted, boundary, {
      maxHeaderBytes: 4096,
      maxParts: options.maxParts,
      onPart: async (part) => {
        if (part.filename !== undefined) {
          // Only the form's `file` part is kept; another file part is read past and forgotten.
          if (part.name !== 'file') return { write() {} };
          if (spool) throw new MultipartError('a second file');
          fileName = part.filename;
          spool = await Spool.open(options.tempDir);
          return options.fileHead ? checkedHead(spool, options.fileHead) : spool;
        }
        const chunks: Uint8Array[] = [];
        const values = fields.get(part.name) ?? [];
        fields.set(part.name, values);
        values.push('');
        const index = values.length - 1;
        return {
          write(chunk: Uint8Array) {
            textBytes += chunk.length;
            if (textBytes > options.textBytes) throw new MultipartError('text fields too long');
            chunks.push(chunk.slice());
            values[index] = new TextDecoder().decode(concat(chunks));
          },
        };
      },
    });
    const file = spool ? new File([await spool.bytes() as BlobPart], fileName) : undefined;
    return {
      get: (name) => fields.get(name)?.[0],
      getAll: (name) => fields.get(name) ?? [],
      file,
    };
  } catch (error) {
    if (exceeded) throw options.tooLarge();
    if (deadlines.timedOut) throw options.timedOut();
    if (error instanceof AppError) throw error;
    // Not multipart, a broken body, or a client that went away: nothing was stored.
    throw new AppError(400, options.malformed, 'invalid');
  } finally {
    await spool?.remove();
  }
}

/** `sink` behind a look at the part's head: `head.accept` decides once `head.bytes` are in, or at the part's end. */
function checkedHead(
  sink: PartSink,
  head: NonNullable<Parameters<typeof readLimitedForm>[1]['fileHead']>,
): PartSink {
  let seen: Uint8Array[] = [];
  let length = 0;
  let decided = false;
  const decide = () => {
    decided = true;
    const bytes = concat(seen);
    seen = [];
    if (!head.accept(bytes.subarray(0, head.bytes))) throw head.refuse();
  };
  return {
    async write(chunk) {
      if (!decided) {
        seen.push(chunk.slice(0, head.bytes - length));
        length += Math.min(chunk.length, head.bytes - length);
        if (length >= head.bytes) decide();
      }
      await sink.write(chunk);
    },
    end() {
      if (!decided) decide();
    },
  };
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return all;
}

/** A file part on its way in: a temporary file (mode 0600), or memory where no file can be made. */
class Spool {
  private chunks: Uint8Array[] = [];
  private constructor(private file: Deno.FsFile | undefined, private path: string | undefined) {}

  static async open(dir: string): Promise<Spool> {
    try {
      await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
      const path = `${dir}/${crypto.randomUUID()}`;
      const file = await Deno.open(path, { write: true, read: true, createNew: true, mode: 0o600 });
      return new Spool(file, path);
    } catch {
      // A host without a writable disk (Deno Deploy): the part is held in memory, as every part once was.
      return new Spool(undefined, undefined);
    }
  }

  async write(chunk: Uint8Array): Promise<void> {
    if (!this.file) {
      this.chunks.push(chunk.slice());
      return;
    }
    for (let done = 0; done < chunk.length;) done += await this.file.write(chunk.subarray(done));
  }

  /** The whole part, once the body is complete. */
  async bytes(): Promise<Uint8Array> {
    if (!this.file) return concat(this.chunks);
    this.file.close();
    this.file = undefined;
    return await Deno.readFile(this.path!);
  }

  async remove(): Promise<void> {
    this.chunks = [];
    try {
      this.file?.close();
    } catch { /* closed */ }
    this.file = undefined;
    if (this.path) await Deno.remove(this.path).catch(() => {});
  }
}

/** `body` read under the idle and overall deadlines; `state.timedOut` tells the caller why the read failed. */
function withDeadlines(
  body: ReadableStream<Uint8Array>,
  limits: { idleMs: number; deadlineMs: number; timedOut: () => AppError },
  state: { timedOut: boolean },
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const end = Date.now() + limits.deadlineMs;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const expired = new Promise<'expired'>((resolve) => {
        timer = setTimeout(() => resolve('expired'), Math.max(0, Math.min(limits.idleMs, end - Date.now())));
      });
      const next = await Promise.race([reader.read(), expired]).finally(() => clearTimeout(timer));
      if (next === 'expired') {
        state.timedOut = true;
        // Cancelling the request's body gives up the connection: Deno closes it after the answer.
        reader.cancel().catch(() => {});
        controller.error(limits.timedOut());
      } else if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
}
