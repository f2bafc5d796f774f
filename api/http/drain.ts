/**
 * Draining for graceful shutdown, around the whole server's fetch handler.
 *
 * Deno 2.9's `server.shutdown()` makes the bodies of requests in flight unreadable at once (denoland/deno
 * #36809), so an upload still arriving when SIGTERM comes would be cut off. So shutdown goes in two steps:
 * first wait (bounded) until every request that carries a body has been handled, answering requests that
 * arrive meanwhile with 503 and `Connection: close` (a balancer sends them elsewhere); then `shutdown()`,
 * which closes the listener and waits for the answers still being sent.
 */
type Handler = (request: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>) => Response | Promise<Response>;

export interface Drain {
  fetch: Handler;
  /** Stops taking requests; resolves once no request with a body is being handled. */
  drain(): Promise<void>;
}

/** Wraps `handler`; `drain` starts the first step of a shutdown. */
export function createDrain(handler: Handler): Drain {
  let draining = false;
  let withBody = 0;
  const { promise: idle, resolve: becameIdle } = Promise.withResolvers<void>();
  return {
    async fetch(request, info) {
      if (draining) {
        return Response.json({ success: false, message: 'The server is restarting. Please try again.' }, {
          status: 503,
          headers: { connection: 'close', 'retry-after': '1', 'cache-control': 'no-store' },
        });
      }
      if (request.body === null) return await handler(request, info);
      withBody++;
      try {
        return await handler(request, info);
      } finally {
        if (--withBody === 0 && draining) becameIdle();
      }
    },
    drain() {
      draining = true;
      if (withBody === 0) becameIdle();
      return idle;
    },
  };
}
