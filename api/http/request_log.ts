/**
 * One log line per request (request id, method, route pattern, status, duration, user id where known) and
 * the request id in the `X-Request-Id` answer header, so an operator can find a user's report in the log.
 *
 * The id is generated here, except that one sent by a trusted proxy (TRUSTED_PROXIES, e.g. nginx's
 * $request_id) is kept so both logs share it; from anyone else an incoming id is ignored, as a client could
 * otherwise forge or collide with ids in the log. The route is the pattern (`/api/documents/:id`), never the
 * path with its query, which may carry search words.
 */
import type { MiddlewareHandler } from 'hono';
import { getConnInfo } from 'hono/deno';
import { routePath } from 'hono/route';
import type { Logger } from '../log.ts';
import { normalizeAddress } from './client_address.ts';
import type { AppEnv } from './context.ts';

const ACCEPTED_ID = /^[A-Za-z0-9._:-]{8,128}$/;

function peer(c: Parameters<MiddlewareHandler>[0]): string {
  try {
    return normalizeAddress(getConnInfo(c).remote.address ?? '');
  } catch {
    return '';
  }
}

/** The middleware; `isTrustedProxy` is the same matcher the client address uses. */
export function requestLog(
  log: Logger,
  isTrustedProxy: (address: string) => boolean,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const incoming = c.req.header('x-request-id');
    const id = incoming && ACCEPTED_ID.test(incoming) && isTrustedProxy(peer(c))
      ? incoming
      : crypto.randomUUID();
    c.set('requestId', id);
    c.set('log', log);
    // Before the handler, so an answer made with c.json or c.body carries it from the start; one built as a
    // Response of its own (a file, the CSV export) gets it after. Hono makes a new Response for a header set on an
    // answer already made, and with this header and Cache-Control set after it, that copying was about a quarter of
    // the API's time on its cheapest request (/api/health/live).
    c.header('X-Request-Id', id);
    try {
      await next();
    } finally {
      if (!c.res.headers.has('X-Request-Id')) c.header('X-Request-Id', id);
      const status = c.res.status;
      const path = c.req.path;
      // Static PWA files would drown the API's lines: only API requests and failures are logged.
      if (path.startsWith('/api/') || status >= 500) {
        const fields = {
          request_id: id,
          method: c.req.method,
          route: routePath(c),
          status,
          duration_ms: Math.round((performance.now() - started) * 10) / 10,
          user_id: c.get('session')?.id,
          client: c.get('clientAddress'),
        };
        if (status >= 500) log.error('request', fields);
        else log.info('request', fields);
      }
    }
  };
}
