/**
 * A document's bytes on their way from the store to a reader, watched: a store that stops sending (no bytes for
 * `idleMs` while the reader waits for more) or whose read breaks or ends short of the length the answer promised
 * errors the stream, so the server aborts the connection. The reader then sees an incomplete transfer, never a
 * clean short 200, and `onBroken` says why with the bytes that were sent. The time counts only while the store is
 * asked for bytes: a slow reader that has not asked for more is never cut by it.
 *
 * The cost: each chunk passes through JavaScript once (the stores' own streams were handed to the socket as they
 * were); correctness of what a reader and the audit are told comes first.
 */

/** Why a read broke, for the log: the store's error, a store that went silent, or one that ended early. */
export interface BrokenRead {
  cause: string;
  bytesSent: number;
}

/** The stream `source`, errored when the store goes silent for `idleMs` or ends before `expected` bytes. */
export function watchedRead(
  source: ReadableStream<Uint8Array>,
  options: { expected: number; idleMs: number; onBroken(broken: BrokenRead): void },
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let sent = 0;
  const broken = (controller: ReadableStreamDefaultController<Uint8Array>, cause: string) => {
    options.onBroken({ cause, bytesSent: sent });
    controller.error(new Error(`document read broke off after ${sent} bytes: ${cause}`));
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const silent = new Promise<'silent'>((resolve) => {
        timer = setTimeout(() => resolve('silent'), options.idleMs);
      });
      let next: ReadableStreamReadResult<Uint8Array> | 'silent';
      try {
        next = await Promise.race([reader.read(), silent]);
      } catch (error) {
        broken(controller, (error as Error).message || String(error));
        return;
      } finally {
        clearTimeout(timer);
      }
      if (next === 'silent') {
        reader.cancel().catch(() => {});
        broken(controller, `the store sent nothing for ${options.idleMs / 1000} s`);
        return;
      }
      if (next.done) {
        if (sent < options.expected) {
          broken(controller, `the store ended the read at ${sent} of ${options.expected} bytes`);
        } else controller.close();
        return;
      }
      sent += next.value.length;
      controller.enqueue(next.value);
    },
    cancel(reason) {
      // The reader went away: nothing broke on our side.
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
}
