/**
 * The version package.json gives is the release CHANGELOG.md and docs/upgrading.md describe, and no migration
 * waits under [Unreleased]: each migration records the version that applied it (api/version.ts), so a migration
 * shipped under an already released version would be recorded as that release's, and the later real release of
 * that number would be confused with it.
 */
import assert from 'node:assert/strict';

const root = new URL('../../', import.meta.url);
const read = (file: string) => Deno.readTextFile(new URL(file, root));

Deno.test("package.json's version is the newest release in CHANGELOG.md and docs/upgrading.md", async () => {
  const { version } = JSON.parse(await read('package.json'));
  const lock = JSON.parse(await read('package-lock.json'));
  assert.equal(lock.version, version, 'package-lock.json');
  assert.equal(lock.packages[''].version, version, "package-lock.json's root package");

  const changelog = await read('CHANGELOG.md');
  const released = [...changelog.matchAll(/^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$/gm)].map((m) =>
    m[1]
  );
  assert.equal(released[0], version, 'the newest release in CHANGELOG.md');

  const upgrading = await read('docs/upgrading.md');
  assert.match(upgrading, new RegExp(`^### \\d+\\.\\d+\\.\\d+ → ${version.replaceAll('.', '\\.')}$`, 'm'));
});

Deno.test("no migration waits under CHANGELOG.md's [Unreleased]: one ships with the version it records", async () => {
  const changelog = await read('CHANGELOG.md');
  const start = changelog.indexOf('## [Unreleased]');
  if (start < 0) return;
  const end = changelog.indexOf('\n## [', start + 1);
  const unreleased = changelog.slice(start, end < 0 ? undefined : end);
  assert.doesNotMatch(
    unreleased,
    /^### Migrations/m,
    'a release with migrations gets its own version in package.json and CHANGELOG.md',
  );
  const { version } = JSON.parse(await read('package.json'));
  const newest = (await Array.fromAsync(Deno.readDir(new URL('db/migrations/', root))))
    .map((entry) => entry.name).filter((name) => /^\d{4}_.*\.sql$/.test(name)).sort().at(-1)!;
  // The newest migration is named in a released section (this release's, or an earlier one's).
  const number = newest.slice(0, 4);
  const releasedText = changelog.slice(changelog.indexOf(`## [${version}] - `));
  assert.ok(releasedText.includes(number), `migration ${number} in a released section of CHANGELOG.md`);
});
