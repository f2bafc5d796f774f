/**
 * Builds the PWA from pwa/ into pwa/dist. Run from the repository root:
 *   node_modules/.bin/vite build --config pwa/vite.config.ts
 * The dev server proxies /api to the API (API_PORT, default 5000), so the
 * browser always talks to its own origin.
 */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const pwaRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root: pwaRoot,
  // Static files copied as they are (manifest icons). Kept under src/ so the
  // whole PWA source lives in one tree.
  publicDir: 'src/public',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // antd is one large vendor chunk; portals are split off with React.lazy.
    chunkSizeWarningLimit: 1500,
  },
  server: {
    proxy: {
      '/api': { target: `http://localhost:${process.env.API_PORT ?? 5000}`, changeOrigin: false },
    },
    // The rules and shapes shared with the API live in contract/, outside pwa/.
    fs: { allow: [repoRoot] },
  },
  plugins: [
    react(),
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
        // mjs: the pdf.js worker is a file of our build (pwa/src/viewer/engine.ts).
        globPatterns: ['**/*.{js,mjs,css,html,svg,png,ico,webmanifest}'],
        navigateFallback: 'index.html',
        navigateFallbackDenylist: [/^\/api(\/|$)/],
        cleanupOutdatedCaches: true,
        maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
      },
    }),
  ],
});
