/**
 * Serves the built PWA on the API's own origin. Unknown paths outside /api get
 * index.html, so client-side routes survive a reload.
 */
import { Hono } from 'hono';
import { serveStatic } from 'hono/deno';
import type { AppEnv } from './context.ts';

/** Static files under `root`, with long caching only for content-hashed assets. */
export function pwaStatic(root: string) {
  const app = new Hono<AppEnv>();
  app.use('/assets/*', async (c, next) => {
    await next();
    if (c.res.ok) c.header('Cache-Control', 'public, max-age=31536000, immutable');
  });
  app.use('*', async (c, next) => {
    await next();
    // The shell and the service worker must be revalidated, or an update never arrives.
    if (c.res.ok && !c.req.path.startsWith('/assets/')) c.header('Cache-Control', 'no-cache');
  });
  app.use('*', serveStatic({ root }));
  app.get('*', serveStatic({ root, path: 'index.html' }));
  return app;
}
