/**
 * GET /metrics: the Prometheus text format (api/http/metrics.ts), outside /api like any exporter's, for the
 * operator's scraper alone. It answers only to `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise, the token
 * compared in constant time); without METRICS_TOKEN the route does not exist (404), and in either case the PWA's
 * page never answers for it.
 */
import { timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { refusal } from '../http/failures.ts';
import type { AppMetrics } from '../http/metrics.ts';

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
}

/**
 * True when `header` is `Bearer <token>`. Both sides are hashed first, so the comparison takes the same time
 * whatever the length or the first wrong character of what was sent.
 */
async function bearerMatches(header: string | undefined, token: string): Promise<boolean> {
  const sent = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1] ?? '';
  return timingSafeEqual(await digest(sent), await digest(token));
}

/** The route, for the metrics of this app; `token` unset: a 404 in its place. */
export function metricsRoutes(token: string | undefined, metrics: AppMetrics) {
  const routes = new Hono<AppEnv>();
  if (token === undefined) {
    return routes.all('/metrics', () => {
      throw notFound();
    });
  }
  return routes
    .get('/metrics', async (c) => {
      if (!(await bearerMatches(c.req.header('authorization'), token))) {
        c.header('WWW-Authenticate', 'Bearer realm="metrics"');
        throw refusal('metrics_token_required');
      }
      const text = await metrics.registry.metrics();
      return c.body(text, 200, { 'Content-Type': metrics.registry.contentType });
    })
    .all('/metrics', () => {
      throw notFound();
    });
}
