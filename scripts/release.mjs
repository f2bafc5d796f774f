// npm run release: builds the PWA once and packs what a server runs into
// release/legal-mail-portal-<version>.tar.gz: the tracked sources, the lock and the built pwa/dist.
// On the server: tar xzf …; cd legal-mail-portal; npm ci --omit=dev; npm start
// (no Vite there: start.mjs serves the shipped pwa/dist as it is).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const out = join(root, 'release');
const name = `legal-mail-portal-${version}.tar.gz`;

const build = spawnSync(join(root, 'node_modules/.bin/vite'), [
  'build',
  '--config',
  'pwa/vite.config.ts',
  '--logLevel',
  'warn',
], {
  cwd: root,
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(build.status ?? 1);

// Tracked files only: no node_modules, data, .env or local leftovers. Tests, benchmarks and CI stay home.
const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((f) => f && !/^(tests|bench|\.ci)\//.test(f) && existsSync(join(root, f)));
mkdirSync(out, { recursive: true });
const list = join(out, '.files');
writeFileSync(list, [...tracked, 'pwa/dist'].join('\n'));
rmSync(join(out, name), { force: true });
execFileSync('tar', [
  '-czf',
  join(out, name),
  '--transform',
  's,^,legal-mail-portal/,S',
  '-C',
  root,
  '-T',
  list,
], {
  stdio: 'inherit',
});
rmSync(list);
console.log(`release/${name}: ${tracked.length} source files and pwa/dist`);
