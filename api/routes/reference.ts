/**
 * /api/openapi.json and /api/docs: the API reference, made from the app's own routes on the first request (they
 * do not change once the app is built) and kept. Open to anyone, like the PWA's code: it says what the API
 * accepts, never what it holds.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { buildOpenApi, type RouteEntry } from '../http/openapi.ts';
import { renderReferencePage } from '../http/reference_page.ts';

/** The reference routes of the app whose routes `routesOf` gives (Hono's `app.routes`, read when first asked). */
export function referenceRoutes(routesOf: () => readonly RouteEntry[]) {
  let document: Record<string, unknown> | undefined;
  let page: string | undefined;
  const reference = () => (document ??= buildOpenApi(routesOf()));
  return new Hono<AppEnv>()
    .get('/openapi.json', (c) => c.json(reference()))
    .get('/docs', (c) => c.html(page ??= renderReferencePage(reference())));
}
