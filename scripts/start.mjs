// npm start: build the PWA when its build is missing or older than its sources,
// then run the API (which applies migrations and serves the PWA) under Deno.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
// The API serves PWA_DIST (default pwa/dist, what the build writes).
const dist = join(
  process.env.PWA_DIST ? resolve(root, process.env.PWA_DIST) : join(root, 'pwa/dist'),
  'index.html',
);

function newestMtime(path) {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

const sources = [
  'pwa/src',
  'pwa/public',
  'pwa/index.html',
  'pwa/vite.config.ts',
  'scripts/precompress.ts',
  // The rules and shapes the PWA shares with the API.
  'contract',
]
  .map((p) => join(root, p))
  .filter(existsSync);
const vite = join(root, 'node_modules/.bin/vite');
// A production install (npm ci --omit=dev) has no Vite: it serves the pwa/dist shipped in the release as it is.
const canBuild = existsSync(vite) && process.env.SKIP_PWA_BUILD !== '1';
const stale = !existsSync(dist) || Math.max(...sources.map(newestMtime)) > statSync(dist).mtimeMs;
if (!existsSync(dist) && !canBuild) {
  console.error(
    'pwa/dist is missing and Vite is not installed: run `npm run build` (or install the release tarball, which ships it).',
  );
  process.exit(1);
}
if (stale && canBuild) {
  console.log('Building the PWA…');
  const build = spawnSync(vite, ['build', '--config', 'pwa/vite.config.ts', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const api = spawn(join(root, 'node_modules/.bin/deno'), ['run', '-A', 'api/main.ts'], {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => api.kill(signal));
api.on('exit', (code) => process.exit(code ?? 0));
