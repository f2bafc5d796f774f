/** The secrets the API generates for itself (api/secret_file.ts): one per DATA_DIR, never partial. */
import assert from 'node:assert/strict';
import { readOrCreateSecretFile } from '../../api/secret_file.ts';

Deno.test('instances starting together on one DATA_DIR all get the same whole secret', async () => {
  // One start in 200 (three processes) could read the file between its creation and its write: an empty
  // signing key. Here many starts race in one process, on a fresh folder each time.
  for (let round = 0; round < 20; round++) {
    const dir = await Deno.makeTempDir({ prefix: 'lmp-secret-' });
    try {
      const secrets = await Promise.all(
        Array.from({ length: 8 }, () => readOrCreateSecretFile(dir, 'session-secret')),
      );
      const texts = new Set(secrets.map((s) => new TextDecoder().decode(s)));
      assert.equal(texts.size, 1, 'one secret');
      assert.match([...texts][0], /^[0-9a-f]{64}$/);
      assert.equal((await Deno.stat(`${dir}/session-secret`)).mode! & 0o777, 0o600);
      assert.deepEqual(
        [...Deno.readDirSync(dir)].map((e) => e.name),
        ['session-secret'],
        'no temporary left',
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
});

Deno.test('an empty or cut-short secret file is refused with what to do, not used', async () => {
  const dir = await Deno.makeTempDir({ prefix: 'lmp-secret-' });
  try {
    for (const damaged of ['', 'abc123']) {
      await Deno.writeTextFile(`${dir}/pin-pepper`, damaged);
      await assert.rejects(
        () => readOrCreateSecretFile(dir, 'pin-pepper'),
        /is damaged\. Restore it from a backup/,
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
