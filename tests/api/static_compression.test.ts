/**
 * The PWA's files are served precompressed: a small build folder (tests/support/pwa_dist.ts, its siblings
 * made by the build's own scripts/precompress.ts), served through the app (`app.request`) and once through the real server, so what
 * Deno.serve puts on the wire is seen too.
 */
import assert from 'node:assert/strict';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { preferredEncodings } from '../../api/http/pwa_static.ts';
import { MIN_BYTES } from '../../scripts/precompress.ts';
import { createTestApp, DB_TEST, type TestApp } from '../support/app.ts';
import { APP_JS, makeFakeDist, TINY_JS } from '../support/pwa_dist.ts';
import { rawRequest } from '../support/raw_http.ts';
import { startTestServer } from '../support/server.ts';

async function get(t: TestApp, path: string, headers: Record<string, string> = {}, method = 'GET') {
  const response = await t.app.request(path, { method, headers }, {
    remoteAddr: { hostname: '127.0.0.1', port: 40000, transport: 'tcp' },
  });
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

/** One app on one build folder for the whole file; each step states only what it asks. */
Deno.test({
  name: 'static assets: precompressed siblings served by negotiation, never by their own name',
  ...DB_TEST,
  fn: async (t) => {
    const dist = await makeFakeDist();
    const app = await createTestApp({ PWA_DIST: dist });
    const original = await Deno.readFile(`${dist}${APP_JS}`);
    const br = await Deno.readFile(`${dist}${APP_JS}.br`);
    const gz = await Deno.readFile(`${dist}${APP_JS}.gz`);
    try {
      await t.step(
        'the build made both siblings, each smaller, and none for a file under 1 KB or an image',
        async () => {
          assert.ok(br.byteLength < gz.byteLength && gz.byteLength < original.byteLength);
          assert.ok((await Deno.stat(`${dist}${TINY_JS}`)).size < MIN_BYTES);
          for (
            const absent of [`${TINY_JS}.br`, `${TINY_JS}.gz`, '/icon.png.br']
          ) {
            await assert.rejects(Deno.stat(`${dist}${absent}`), Deno.errors.NotFound, absent);
          }
        },
      );

      await t.step(
        'Accept-Encoding: br, gzip → brotli that decompresses to exactly the original',
        async () => {
          const { response, bytes } = await get(app, APP_JS, { 'Accept-Encoding': 'br, gzip' });
          assert.equal(response.status, 200);
          assert.equal(response.headers.get('Content-Encoding'), 'br');
          assert.equal(response.headers.get('Content-Type'), 'text/javascript; charset=utf-8');
          assert.equal(response.headers.get('Vary'), 'Accept-Encoding');
          assert.equal(response.headers.get('Content-Length'), String(br.byteLength));
          assert.equal(response.headers.get('Cache-Control'), 'public, max-age=31536000, immutable');
          assert.equal(response.headers.get('X-Content-Type-Options'), 'nosniff');
          assert.ok(response.headers.get('Content-Security-Policy'));
          assert.deepEqual(bytes, br);
          assert.deepEqual(new Uint8Array(brotliDecompressSync(bytes)), original);
        },
      );

      await t.step('gzip only → gzip that decompresses to exactly the original', async () => {
        const { response, bytes } = await get(app, APP_JS, { 'Accept-Encoding': 'gzip' });
        assert.equal(response.headers.get('Content-Encoding'), 'gzip');
        assert.equal(response.headers.get('Vary'), 'Accept-Encoding');
        assert.equal(response.headers.get('Content-Length'), String(gz.byteLength));
        assert.deepEqual(new Uint8Array(gunzipSync(bytes)), original);
      });

      await t.step('identity, no header, or every coding refused (q=0) → the original bytes', async () => {
        const cases: Record<string, string>[] = [
          { 'Accept-Encoding': 'identity' },
          {},
          { 'Accept-Encoding': 'br;q=0, gzip;q=0' },
          { 'Accept-Encoding': '*;q=0' },
          { 'Accept-Encoding': '' },
        ];
        for (const headers of cases) {
          const { response, bytes } = await get(app, APP_JS, headers);
          const label = JSON.stringify(headers);
          assert.equal(response.status, 200, label);
          assert.equal(response.headers.get('Content-Encoding'), null, label);
          assert.equal(response.headers.get('Vary'), 'Accept-Encoding', label);
          assert.equal(response.headers.get('Content-Length'), String(original.byteLength), label);
          assert.deepEqual(bytes, original, label);
        }
      });

      await t.step('each encoding has its own ETag, and If-None-Match is answered per encoding', async () => {
        const tags = await Promise.all(
          ['br', 'gzip', 'identity'].map(async (e) =>
            (await get(app, APP_JS, { 'Accept-Encoding': e })).response.headers.get('ETag')
          ),
        );
        assert.equal(new Set(tags).size, 3, `ETags: ${tags.join(' ')}`);
        const again = await get(app, APP_JS, { 'Accept-Encoding': 'br', 'If-None-Match': tags[0]! });
        assert.equal(again.response.status, 304);
        assert.equal(again.bytes.byteLength, 0);
        assert.equal(again.response.headers.get('Vary'), 'Accept-Encoding');
        assert.equal(again.response.headers.get('Cache-Control'), 'public, max-age=31536000, immutable');
        // The brotli copy's tag does not validate a gzip answer.
        const other = await get(app, APP_JS, { 'Accept-Encoding': 'gzip', 'If-None-Match': tags[0]! });
        assert.equal(other.response.status, 200);
        assert.equal(other.response.headers.get('Content-Encoding'), 'gzip');
      });

      await t.step('HEAD answers the same headers as GET, with no body', async () => {
        for (const encoding of ['br', 'gzip', 'identity']) {
          const head = await get(app, APP_JS, { 'Accept-Encoding': encoding }, 'HEAD');
          const full = await get(app, APP_JS, { 'Accept-Encoding': encoding });
          assert.equal(head.response.status, 200);
          assert.equal(head.bytes.byteLength, 0);
          for (
            const name of [
              'Content-Encoding',
              'Content-Length',
              'Content-Type',
              'ETag',
              'Vary',
              'Cache-Control',
            ]
          ) {
            assert.equal(
              head.response.headers.get(name),
              full.response.headers.get(name),
              `${encoding} ${name}`,
            );
          }
        }
      });

      await t.step(
        'a sibling asked for by its own name is a 404, never the compressed bytes as an asset',
        async () => {
          for (
            const path of [`${APP_JS}.br`, `${APP_JS}.gz`, '/index.html.br', `${APP_JS}.b%72`, `${APP_JS}.BR`]
          ) {
            const { response, bytes } = await get(app, path, { 'Accept-Encoding': 'br, gzip' });
            assert.equal(response.status, 404, path);
            assert.equal(response.headers.get('Content-Encoding'), null, path);
            const body = JSON.parse(new TextDecoder().decode(bytes));
            assert.equal(body.success, false, path);
            assert.equal(body.message, 'Not found.', path);
          }
        },
      );

      await t.step("the client's q-values decide, brotli first among equals", () => {
        assert.deepEqual(preferredEncodings('gzip, deflate, br, zstd'), ['br', 'gzip']);
        assert.deepEqual(preferredEncodings('gzip;q=1, br;q=0.5'), ['gzip', 'br']);
        assert.deepEqual(preferredEncodings('br;q=0, gzip'), ['gzip']);
        assert.deepEqual(preferredEncodings('*'), ['br', 'gzip']);
        assert.deepEqual(preferredEncodings('*;q=0.1, br;q=0'), ['gzip']);
        assert.deepEqual(preferredEncodings('x-gzip'), ['gzip']);
        assert.deepEqual(preferredEncodings('BR;Q=0.8'), ['br']);
        assert.deepEqual(
          preferredEncodings('br;q=2, gzip;q=0.x'),
          [],
          'malformed q-values count as not offered',
        );
        assert.deepEqual(preferredEncodings('deflate'), []);
        assert.deepEqual(preferredEncodings(undefined), []);
      });

      await t.step(
        'a file under 1 KB (no sibling) and an image: as they are; Vary only where it can vary',
        async () => {
          const tiny = await get(app, TINY_JS, { 'Accept-Encoding': 'br, gzip' });
          assert.equal(tiny.response.headers.get('Content-Encoding'), null);
          assert.equal(tiny.response.headers.get('Vary'), 'Accept-Encoding');
          const png = await get(app, '/icon.png', { 'Accept-Encoding': 'br, gzip' });
          assert.equal(png.response.headers.get('Content-Type'), 'image/png');
          assert.equal(png.response.headers.get('Content-Encoding'), null);
          assert.equal(png.response.headers.get('Vary'), null);
          assert.equal(png.response.headers.get('Cache-Control'), 'no-cache');
        },
      );

      await t.step(
        'client routes still get index.html (compressed, revalidated); a missing asset is a 404',
        async () => {
          const html = await Deno.readFile(`${dist}/index.html`);
          for (const path of ['/', '/offender/documents']) {
            const { response, bytes } = await get(app, path, { 'Accept-Encoding': 'br' });
            assert.equal(response.status, 200, path);
            assert.equal(response.headers.get('Content-Encoding'), 'br', path);
            assert.equal(response.headers.get('Content-Type'), 'text/html; charset=utf-8', path);
            assert.equal(response.headers.get('Cache-Control'), 'no-cache', path);
            assert.deepEqual(new Uint8Array(brotliDecompressSync(bytes)), html, path);
          }
          const missing = await get(app, '/assets/gone-00000000.js', { 'Accept-Encoding': 'br' });
          assert.equal(missing.response.status, 404);
          assert.equal(missing.response.headers.get('Cache-Control'), null);
        },
      );

      await t.step('a sibling older than its file (edited in place) is not served for it', async () => {
        const path = `${dist}/index.html`;
        await Deno.writeTextFile(path, (await Deno.readTextFile(path)).replace('Secure Mail', 'Edited'));
        const past = new Date(Date.now() - 60_000);
        await Deno.utime(`${path}.br`, past, past);
        await Deno.utime(`${path}.gz`, past, past);
        const { response, bytes } = await get(app, '/', { 'Accept-Encoding': 'br, gzip' });
        assert.equal(response.headers.get('Content-Encoding'), null);
        assert.match(new TextDecoder().decode(bytes), /<title>Edited<\/title>/);
      });
    } finally {
      await app.close();
      await Deno.remove(dist, { recursive: true });
    }
  },
});

Deno.test({
  name: 'static assets over a real socket: the brotli bytes and their length reach the client as they are',
  ...DB_TEST,
  fn: async () => {
    const dist = await makeFakeDist();
    const server = await startTestServer({ PWA_DIST: dist });
    try {
      const original = await Deno.readFile(`${dist}${APP_JS}`);
      const br = await Deno.readFile(`${dist}${APP_JS}.br`);
      const get = await rawRequest(server.url, 'GET', APP_JS, { 'Accept-Encoding': 'br, gzip' });
      assert.equal(get.status, 200);
      assert.equal(get.headers.get('content-encoding'), 'br');
      assert.equal(get.headers.get('content-length'), String(br.byteLength));
      assert.equal(get.headers.get('vary'), 'Accept-Encoding');
      assert.deepEqual(get.body, br);
      const head = await rawRequest(server.url, 'HEAD', APP_JS, { 'Accept-Encoding': 'br, gzip' });
      assert.equal(head.headers.get('content-encoding'), 'br');
      assert.equal(head.headers.get('content-length'), String(br.byteLength));
      assert.equal(head.body.byteLength, 0);
      // Deno.serve compresses some answers on its own; the original must still arrive as it is.
      const plain = await rawRequest(server.url, 'GET', APP_JS, { 'Accept-Encoding': 'identity' });
      assert.equal(plain.headers.get('content-encoding'), undefined);
      assert.deepEqual(plain.body, original);
    } finally {
      await server.stop();
      await Deno.remove(dist, { recursive: true });
    }
  },
});
