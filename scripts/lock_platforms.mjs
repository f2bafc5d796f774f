// Adds lock entries for the optional platform packages (@napi-rs/canvas-*, @deno/*, @rollup/rollup-*)
// of the other platforms. The npm registry reachable on our build machines serves only the Linux
// glibc builds, so `npm install` leaves the others out of package-lock.json, and `npm ci` then refuses
// the lock as out of sync. Each entry names the version and its os/cpu/libc, so npm skips it on a
// platform it does not fit and fetches it by name and version on one it fits.
// Run after any `npm install` that changes the lock: node scripts/lock_platforms.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
const OS = ['android', 'darwin', 'linux', 'win32', 'freebsd', 'openbsd', 'openharmony'];
const CPU = {
  arm64: 'arm64',
  x64: 'x64',
  arm: 'arm',
  ia32: 'ia32',
  riscv64: 'riscv64',
  loong64: 'loong64',
  ppc64: 'ppc64',
  s390x: 's390x',
};

/** os, cpu and libc from a platform package's name, e.g. canvas-linux-arm64-musl. */
function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.map((p) => CPU[p]).find(Boolean);
  if (!os || !cpu) return null;
  const entry = { os: [os], cpu: [cpu] };
  if (os === 'linux') entry.libc = [parts.some((p) => p.startsWith('musl')) ? 'musl' : 'glibc'];
  return entry;
}

let added = 0;
for (const [key, entry] of Object.entries(lock.packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const at = `node_modules/${dep}`;
    if (lock.packages[at] || lock.packages[`${key}/${at}`]) continue;
    const platform = platformOf(dep);
    if (!platform) {
      throw new Error(`${dep} (optional in ${key}) is missing from the lock and names no platform`);
    }
    lock.packages[at] = { version, ...(entry.dev ? { dev: true } : {}), optional: true, ...platform };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => a.localeCompare(b, 'en')),
);
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: ${added} platform entries added`);
