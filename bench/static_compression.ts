/**
 * What the precompressed build saves: every JavaScript and CSS file of a PWA build requested from the API's
 * static handler (api/http/pwa_static.ts) as a browser would, with `Accept-Encoding: identity`, `gzip` and
 * `br, gzip`, and the body bytes that come back summed per kind. The baseline is the identity answer, which
 * is what every browser downloaded before the build was precompressed.
 *
 *   node_modules/.bin/vite build --config pwa/vite.config.ts --outDir /tmp/dist --emptyOutDir
 *   node_modules/.bin/deno run -A bench/static_compression.ts /tmp/dist    # default: pwa/dist
 *
 * These are whole-build totals (every chunk, the back office and the pdf.js worker included), not what one
 * page loads. Then what the service worker precaches for a tablet, the shell apart from each folder of pdf.js's
 * optional resources (decoders, CMaps, fonts), stored and as sent.
 */
import { extname, join, relative } from 'node:path';
import { Hono } from 'hono';
import { pwaStatic } from '../api/http/pwa_static.ts';
import type { AppEnv } from '../api/http/context.ts';

const dist = Deno.args[0] ?? new URL('../pwa/dist', import.meta.url).pathname;
const KINDS: Record<string, 'js' | 'css'> = { '.js': 'js', '.mjs': 'js', '.css': 'css' };
const ACCEPT = { identity: 'identity', gzip: 'gzip', br: 'br, gzip' } as const;

function* files(dir: string): Generator<string> {
  for (const entry of Deno.readDirSync(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* files(path);
    else if (KINDS[extname(entry.name)]) yield path;
  }
}

const app = new Hono<AppEnv>().route('/', pwaStatic(dist));
const totals = {
  js: { files: 0, identity: 0, gzip: 0, br: 0 },
  css: { files: 0, identity: 0, gzip: 0, br: 0 },
};
for (const path of files(dist)) {
  const kind = KINDS[extname(path)];
  totals[kind].files++;
  for (const [name, accept] of Object.entries(ACCEPT) as [keyof typeof ACCEPT, string][]) {
    const response = await app.request(`/${relative(dist, path)}`, {
      headers: { 'Accept-Encoding': accept },
    });
    if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
    totals[kind][name] += (await response.arrayBuffer()).byteLength;
  }
}

const kb = (n: number) => `${(n / 1024).toFixed(1).padStart(8)} KB`;
const row = (label: string, t: { files: number; identity: number; gzip: number; br: number }) =>
  console.log(
    `${label.padEnd(8)} ${String(t.files).padStart(5)} ${kb(t.identity)} ${kb(t.gzip)} (${
      (t.gzip / t.identity).toFixed(3)
    }) ${kb(t.br)} (${(t.br / t.identity).toFixed(3)})`,
  );
console.log(`bytes the API answers for the build in ${dist}`);
console.log(
  `${'kind'.padEnd(8)} files ${'identity'.padStart(11)} ${'gzip'.padStart(11)} (ratio) ${
    'br'.padStart(11)
  } (ratio)`,
);
row('js', totals.js);
row('css', totals.css);
row('js+css', {
  files: totals.js.files + totals.css.files,
  identity: totals.js.identity + totals.css.identity,
  gzip: totals.js.gzip + totals.css.gzip,
  br: totals.js.br + totals.css.br,
});

/**
 * What a tablet's service worker downloads and keeps (the precache manifest vite-plugin-pwa writes into sw.js),
 * the shell apart from pdf.js's optional resources (pwa/src/viewer/pdfjsResources.ts), each folder of those on
 * its own: stored is what Cache Storage holds (the bytes as they are), sent what the API answers a browser that
 * takes brotli.
 */
const manifest = [...Deno.readTextFileSync(join(dist, 'sw.js')).matchAll(/url:"([^"]+)"/g)].map((m) => m[1]);
const groups = new Map<string, { files: number; stored: number; sent: number }>();
for (const url of manifest) {
  const folder = /^assets\/pdfjs-[^/]+\/([^/]+)\//.exec(url)?.[1];
  const group = folder ? `pdf.js ${folder}` : 'shell';
  const totalsOf = groups.get(group) ?? { files: 0, stored: 0, sent: 0 };
  const response = await app.request(`/${url}`, { headers: { 'Accept-Encoding': 'br, gzip' } });
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
  totalsOf.files++;
  totalsOf.stored += Deno.statSync(join(dist, url)).size;
  totalsOf.sent += (await response.arrayBuffer()).byteLength;
  groups.set(group, totalsOf);
}
const all = [...groups.values()].reduce(
  (sum, g) => ({ files: sum.files + g.files, stored: sum.stored + g.stored, sent: sum.sent + g.sent }),
  { files: 0, stored: 0, sent: 0 },
);
console.log(`\nthe service worker's precache (${dist}/sw.js)`);
console.log(`${'group'.padEnd(22)} files ${'stored'.padStart(11)} ${'sent (br)'.padStart(11)}`);
for (const [group, g] of [...groups.entries(), ['all', all] as const]) {
  console.log(`${group.padEnd(22)} ${String(g.files).padStart(5)} ${kb(g.stored)} ${kb(g.sent)}`);
}
