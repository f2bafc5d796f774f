/**
 * Serves the built PWA on the API's own origin. Unknown paths outside /api and /assets get index.html, so
 * client-side routes survive a reload.
 *
 * The build leaves a `.br` and a `.gz` beside each compressible file (scripts/precompress.ts). Nothing else
 * compresses for the embedded default and Deno Deploy (no front server there), so the API negotiates the
 * encoding itself: the sibling's bytes with `Content-Encoding` when the browser accepts it, the file as it is
 * otherwise, `Vary: Accept-Encoding` on both, and an ETag per encoding so no cache hands one for the other.
 */
import { join } from 'node:path';
import { type Context, Hono } from 'hono';
import { serveStatic } from 'hono/serve-static';
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from 'hono/utils/compress';
import { getMimeType } from 'hono/utils/mime';
import type { AppEnv } from './context.ts';
import { notFound } from './errors.ts';

/** The encodings the build makes, best first, and their siblings' suffixes (scripts/precompress.ts). */
const ENCODINGS = [['br', '.br'], ['gzip', '.gz']] as const;
type Encoding = typeof ENCODINGS[number][0];

/** A sibling named in the URL: not an asset, whatever its extension says. */
const SIBLING_NAME = /\.(?:br|gz)$/i;

/**
 * The quality the client gives each coding (RFC 9110 §12.5.3): `br`, `gzip` (or its old alias `x-gzip`)
 * and `*` for any coding not named. A malformed q-value drops its element; a coding absent is refused.
 */
export function acceptedQualities(header: string | undefined): Map<string, number> {
  const qualities = new Map<string, number>();
  for (const element of (header ?? '').split(',')) {
    const [name, ...params] = element.split(';').map((part) => part.trim());
    if (!name) continue;
    let q = 1;
    let valid = true;
    for (const param of params) {
      const [key, value = ''] = param.split('=').map((part) => part.trim());
      if (key.toLowerCase() !== 'q') continue;
      // qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )
      valid = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(value);
      q = Number(value);
    }
    if (!valid) continue;
    const coding = name.toLowerCase() === 'x-gzip' ? 'gzip' : name.toLowerCase();
    // The same coding named twice: the higher quality stands, rather than whichever came last.
    qualities.set(coding, Math.max(q, qualities.get(coding) ?? 0));
  }
  return qualities;
}

/**
 * The encodings to try, the client's preference first (brotli first among equals). Empty means the file
 * as it is: identity is always acceptable to us, even when a client refuses it, since it is all that is left.
 */
export function preferredEncodings(header: string | undefined): Encoding[] {
  const qualities = acceptedQualities(header);
  const quality = (coding: string) => qualities.get(coding) ?? qualities.get('*') ?? 0;
  return ENCODINGS.map(([encoding]) => encoding)
    .filter((encoding) => quality(encoding) > 0)
    .sort((a, b) => quality(b) - quality(a));
}

async function statFile(path: string): Promise<Deno.FileInfo | null> {
  try {
    const info = await Deno.stat(path);
    return info.isFile ? info : null;
  } catch {
    return null;
  }
}

/** Strong, and different per encoding: the compressed bytes are another representation. */
function etagOf(info: Deno.FileInfo, encoding: Encoding | null): string {
  const mtime = info.mtime?.getTime() ?? 0;
  return `"${info.size.toString(16)}-${mtime.toString(16)}${encoding ? `-${encoding}` : ''}"`;
}

/** If-None-Match names this representation (or `*`): the browser's copy is current. */
function notModified(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}

/** One file of the build as an answer: encoding negotiated, ETag, Content-Length, and no body for HEAD. */
async function fileAnswer(path: string, c: Context<AppEnv>): Promise<Response | null> {
  const original = await statFile(path);
  if (!original) return null;
  const type = getMimeType(path) ?? 'application/octet-stream';
  const headers = new Headers({ 'Content-Type': type });
  let served = { path, info: original, encoding: null as Encoding | null };
  if (COMPRESSIBLE_CONTENT_TYPE_REGEX.test(type)) {
    headers.set('Vary', 'Accept-Encoding');
    for (const encoding of preferredEncodings(c.req.header('Accept-Encoding'))) {
      const suffix = ENCODINGS.find(([e]) => e === encoding)![1];
      const sibling = await statFile(path + suffix);
      // A sibling older than its file is left from another build (or the file was edited in place): its
      // bytes are not this file's.
      if (sibling && (sibling.mtime?.getTime() ?? 0) >= (original.mtime?.getTime() ?? 0)) {
        served = { path: path + suffix, info: sibling, encoding };
        break;
      }
    }
  }
  if (served.encoding) headers.set('Content-Encoding', served.encoding);
  const etag = etagOf(served.info, served.encoding);
  headers.set('ETag', etag);
  if (notModified(c.req.header('If-None-Match'), etag)) return new Response(null, { status: 304, headers });
  headers.set('Content-Length', String(served.info.size));
  // Hono answers HEAD by running GET and dropping the body; not opening the file leaves nothing to close.
  if (c.req.method === 'HEAD') return new Response(null, { headers });
  return new Response((await Deno.open(served.path)).readable, { headers });
}

/** Static files under `root`, with long caching only for content-hashed assets. */
export function pwaStatic(root: string) {
  const app = new Hono<AppEnv>();
  const cacheable = (c: Context) => c.res.ok || c.res.status === 304;
  app.use('/assets/*', async (c, next) => {
    await next();
    if (cacheable(c)) c.header('Cache-Control', 'public, max-age=31536000, immutable');
  });
  app.use('*', async (c, next) => {
    await next();
    // The shell and the service worker must be revalidated, or an update never arrives.
    if (cacheable(c) && !c.req.path.startsWith('/assets/')) c.header('Cache-Control', 'no-cache');
  });
  app.use('*', async (c, next) => {
    let path = c.req.path;
    try {
      path = decodeURIComponent(path);
    } catch { /* serveStatic refuses it below */ }
    // Never a sibling by its own name: served as the asset, its bytes would be read as JavaScript or HTML.
    if (SIBLING_NAME.test(path)) throw notFound();
    await next();
  });
  const options = {
    root,
    join,
    getContent: fileAnswer,
    isDir: async (path: string) => (await Deno.stat(path).catch(() => null))?.isDirectory ?? false,
  };
  app.use('*', serveStatic(options));
  // A hashed asset that is not there is a 404, not the shell: HTML under a script's name, cached for a year.
  app.get('/assets/*', () => {
    throw notFound();
  });
  app.get('*', serveStatic({ ...options, path: 'index.html' }));
  return app;
}
