/**
 * Reads a multipart body under a byte limit: the declared Content-Length is checked first,
 * then the body is counted as it streams and the read fails the moment it passes the limit,
 * so an oversized upload is refused without reading the rest.
 */
import { AppError } from './errors.ts';

/** Parses the request's form; throws `tooLarge()` past `limitBytes`, 400 `malformed` on a broken body. */
export async function readLimitedForm(
  request: Request,
  options: { limitBytes: number; tooLarge: () => AppError; malformed: string },
): Promise<FormData> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > options.limitBytes) throw options.tooLarge();
  if (!request.body) throw new AppError(400, options.malformed, 'invalid');
  let seen = 0;
  let exceeded = false;
  const counted = request.body.pipeThrough(
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
    // Not multipart, a broken body, or a client that went away: nothing was stored.
    throw new AppError(400, options.malformed, 'invalid');
  }
}
