/**
 * Builds the PWA from pwa/ into pwa/dist. Run from the repository root:
 *   node_modules/.bin/vite build --config pwa/vite.config.ts
 * The dev server proxies /api to the API (API_PORT, default 5000), so the
 * browser always talks to its own origin.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { visualizer } from 'rollup-plugin-visualizer';
import { defineConfig, type Plugin, type ResolvedConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { precompressDir } from '../scripts/precompress.ts';
import { NOT_PRECACHED, pdfjsResourceBase, PRECACHED, SERVED } from './src/viewer/pdfjsResources.ts';

const pwaRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * `.br` and `.gz` beside each compressible file of the build (scripts/precompress.ts), for the API to serve
 * to a browser that accepts them. Last of all, after vite-plugin-pwa has written sw.js, so the service
 * worker and its Workbox runtime are compressed too.
 */
function precompress(): Plugin {
  let outDir = '';
  let logger: ResolvedConfig['logger'] | undefined;
  return {
    name: 'portal:precompress',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
      logger = config.logger;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        const files = precompressDir(outDir);
        const sum = (key: 'raw' | 'br' | 'gzip') => files.reduce((n, f) => n + (f[key] ?? f.raw), 0);
        const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
        logger?.info(
          `precompressed ${files.length} files: ${kb(sum('raw'))} raw, ${kb(sum('br'))} br, ${
            kb(sum('gzip'))
          } gzip`,
        );
      },
    },
  };
}

/**
 * pdf.js's decoders, CMaps, standard fonts and ICC profile (pwa/src/viewer/pdfjsResources.ts), copied from
 * node_modules/pdfjs-dist into the build as files of their own, as the worker is: pdf.js fetches them by name
 * from the folder it is given, so they keep their names, under a folder named after pdf.js's version.
 */
function pdfjsResources(): Plugin {
  const dist = fileURLToPath(new URL('../node_modules/pdfjs-dist/', import.meta.url));
  const { version } = JSON.parse(readFileSync(join(dist, 'package.json'), 'utf8')) as { version: string };
  const base = pdfjsResourceBase(version).replace(/^\//, '');
  return {
    name: 'portal:pdfjs-resources',
    apply: 'build',
    generateBundle() {
      for (const [folder, served] of Object.entries(SERVED)) {
        for (const name of readdirSync(join(dist, folder)).filter((file) => served.test(file))) {
          const source = readFileSync(join(dist, folder, name));
          this.emitFile({ type: 'asset', fileName: `${base}${folder}/${name}`, source });
        }
      }
    },
  };
}

/**
 * antd's Table always bundles its column-filter dropdown (antd Tree, Menu, Radio, Checkbox: @rc-component/tree
 * and @rc-component/menu) and its row-selection column (Dropdown, Checkbox, Radio, @rc-component/tree), even
 * for a table that uses neither; no table of the portal does (no `filters`, `filterDropdown` or
 * `rowSelection`). Both modules are replaced by stand-ins that keep what Table calls on every render and fail
 * loudly if a table ever asks for either feature, so the offender's list (DocumentTable) loads ~25 KB less
 * (the tablet's 200 KB budget). Drop a stand-in here when a table needs the feature.
 */
const ANTD_TABLE_STAND_INS: Record<string, string> = {
  'antd/es/table/hooks/useFilter/FilterDropdown.js': `
    export function flattenKeys(filters) {
      const keys = [];
      for (const { value, children } of filters || []) keys.push(value, ...flattenKeys(children));
      return keys;
    }
    export default function FilterDropdown() {
      throw new Error('antd Table column filters are left out of this build (pwa/vite.config.ts)');
    }`,
  'antd/es/table/hooks/useSelection.js': `
    export const SELECTION_COLUMN = {};
    export const SELECTION_ALL = 'SELECT_ALL';
    export const SELECTION_INVERT = 'SELECT_INVERT';
    export const SELECTION_NONE = 'SELECT_NONE';
    const NONE = new Set();
    const withoutSelection = (columns) => columns.filter((column) => column !== SELECTION_COLUMN);
    export default function useSelection(_config, rowSelection) {
      if (rowSelection) throw new Error('antd Table row selection is left out of this build (pwa/vite.config.ts)');
      return [withoutSelection, NONE];
    }`,
};

function antdTableStandIns(): Plugin {
  return {
    name: 'portal:antd-table-stand-ins',
    enforce: 'pre',
    load(id) {
      const path = id.split('?')[0].replaceAll('\\', '/');
      const key = Object.keys(ANTD_TABLE_STAND_INS).find((name) => path.endsWith(`/node_modules/${name}`));
      return key ? ANTD_TABLE_STAND_INS[key] : null;
    },
  };
}

/**
 * ANALYZE=<file.html>: a treemap of what each chunk holds, with its gzip and brotli sizes (find where
 * the offender route's weight comes from). Written outside the build so it is neither served nor precached.
 */
const analyze = process.env.ANALYZE;

export default defineConfig({
  root: pwaRoot,
  // Static files copied as they are (manifest icons). Kept under src/ so the
  // whole PWA source lives in one tree.
  publicDir: 'src/public',
  resolve: {
    alias: [
      // antd/locale/* is the CommonJS build, which drags in the CommonJS locales of every picker; the ES module
      // is the same text and shares antd's own modules.
      { find: /^antd\/locale\/(\w+)$/, replacement: 'antd/es/locale/$1' },
    ],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Two chunks are large by nature and load only where they are needed: the pdf.js worker (1.3 MB, with the
    // viewer) and the password-strength estimator's dictionaries (zxcvbn-ts's common passwords and English words,
    // 1.6 MB, on the screens that set a password). Anything larger than those is a mistake worth a warning.
    chunkSizeWarningLimit: 1700,
    // Every browser the portal supports preloads modules natively; the polyfill would only add bytes.
    modulePreload: { polyfill: false },
  },
  server: {
    proxy: {
      '/api': { target: `http://localhost:${process.env.API_PORT ?? 5000}`, changeOrigin: false },
    },
    // The rules and shapes shared with the API live in contract/, outside pwa/.
    fs: { allow: [repoRoot] },
  },
  plugins: [
    antdTableStandIns(),
    react(),
    pdfjsResources(),
    VitePWA({
      registerType: 'autoUpdate',
      // main.tsx registers through virtual:pwa-register: no script is injected
      // into index.html (the CSP allows scripts from 'self' only).
      injectRegister: false,
      includeAssets: ['icon.svg'],
      manifest: {
        name: 'Attorney/Client Secure Mail',
        short_name: 'Secure Mail',
        description: 'Secure legal mail between attorneys and the people they represent.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#ffffff',
        theme_color: '#1f3a5f',
        icons: [
          { src: 'icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
          { src: 'icon-maskable.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'maskable' },
        ],
      },
      workbox: {
        // Only the app shell is precached. There is deliberately no
        // runtimeCaching: privileged /api answers must never sit in a
        // service-worker cache.
        // mjs: the pdf.js worker is a file of our build (pwa/src/viewer/engine.ts); then what pdf.js fetches
        // when a document needs it, within reason (pwa/src/viewer/pdfjsResources.ts).
        globPatterns: ['**/*.{js,mjs,css,html,svg,png,ico,webmanifest}', ...PRECACHED],
        // The browser asks for the encoding over HTTP; the precompressed siblings are never cached by name.
        // The password-strength dictionaries (1.6 MB, usePasswordStrength.ts) serve only screens that need the
        // network anyway (registration, a new password): no tablet should download them ahead.
        globIgnores: ['**/*.br', '**/*.gz', ...NOT_PRECACHED, '**/passwordEstimator-*.js'],
        navigateFallback: 'index.html',
        navigateFallbackDenylist: [/^\/api(\/|$)/],
        cleanupOutdatedCaches: true,
        maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
      },
    }),
    precompress(),
    analyze && visualizer({ filename: analyze, template: 'treemap', gzipSize: true, brotliSize: true }),
  ],
});
