/**
 * Reads a multipart body under a byte limit and two deadlines: the declared Content-Length is checked first,
 * then the body is counted as it streams and the read fails the moment it passes the limit, so an oversized
 * upload is refused without reading the rest; and a body whose next bytes do not come within `idleMs`, or that
 * has not all come within `deadlineMs`, is dropped (Deno.serve has no body timeout of its own: a client that
 * stops sending would hold its request, and what it sent, for ever).
 */
import { AppError } from './errors.ts';

/** Parses the request's form; throws `tooLarge()` past `limitBytes`, 400 `malformed` on a broken body. */
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
  },
): Promise<FormData> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > options.limitBytes) throw options.tooLarge();
  if (!request.body) throw new AppError(400, options.malformed, 'invalid');
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
  const copy = new Request(request.url, {
    method: 'POST',
    headers: { 'content-type': request.headers.get('content-type') ?? '' },
    body: counted,
    duplex: 'half',
  } as RequestInit);
  try {
    return await copy.formData();
  } catch {
    if (exceeded) throw options.tooLarge();
    if (deadlines.timedOut) throw options.timedOut();
    // Not multipart, a broken body, or a client that went away: nothing was stored.
    throw new AppError(400, options.malformed, 'invalid');
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
