/**
 * The keys are not in the backup: an installation whose keys were generated into DATA_DIR (an admin with an
 * authenticator app, an offender with a PIN) is backed up with `npm run backup`, restored with `npm run restore`
 * into a new database with a new, empty DATA_DIR, and the start refuses, naming each key, until the key files are
 * carried over as docs/operations.md says; then the admin signs in with an authenticator code and the offender
 * with their PIN. Needs TEST_DATABASE_URL.
 */
import assert from 'node:assert/strict';
import { DENO, freshDatabase, type Instance, ROOT, signInAt, startInstance } from '../support/instance.ts';
import { filesHolding } from '../support/plaintext.ts';
import { enrolAuthenticator, signInWithTotp } from '../support/totp.ts';

const SERVER = Deno.env.get('TEST_DATABASE_URL');
const OPTIONS = { sanitizeResources: false, sanitizeOps: false, ignore: !SERVER } as const;
const ADMIN = { username: 'admin@demo.test', password: 'Demo-Admin-2026!' };

async function npmRun(script: 'backup' | 'restore', args: string[], env: Record<string, string>) {
  const out = await new Deno.Command(DENO, {
    args: ['run', '-A', `api/cli/${script}.ts`, ...args],
    cwd: ROOT,
    env: { NO_COLOR: '1', ...env },
    stdout: 'piped',
    stderr: 'piped',
  }).output();
  const text = new TextDecoder();
  return { code: out.code, output: text.decode(out.stdout) + text.decode(out.stderr) };
}

/** The start's refusal: the API exits before it listens, and what it printed. */
async function refusedStart(env: Record<string, string>): Promise<string> {
  const error = await startInstance(env).then(
    async (instance) => {
      await instance.stop();
      return undefined;
    },
    (e: Error) => e,
  );
  assert.ok(error, 'the API started');
  assert.match(error.message, /the API exited \(1\) before listening/);
  return error.message;
}

/** A demo letter of the offender (the first of the list, or `id`) and its bytes, read through the API. */
async function firstLetter(base: string, token: string, id?: string) {
  const headers = { authorization: `Bearer ${token}` };
  const list = await (await fetch(`${base}/api/documents/offender/100001`, { headers })).json();
  const chosen = id ?? list.documents[0].documentid;
  const r = await fetch(`${base}/api/documents/view/${chosen}`, { headers });
  assert.equal(r.status, 200);
  return { id: chosen as string, bytes: new Uint8Array(await r.arrayBuffer()) };
}

Deno.test({
  name:
    'a restore on a new host without the keys refuses to start, naming them; with the key files carried over, the admin signs in with an authenticator code and the offender with their PIN and reads a sealed letter, of which the backup holds nothing in plaintext',
  ...OPTIONS,
  fn: async () => {
    const source = await freshDatabase(SERVER!);
    const target = await freshDatabase(SERVER!);
    const sourceDir = await Deno.makeTempDir({ prefix: 'lmp-keys-src-' });
    const targetDir = await Deno.makeTempDir({ prefix: 'lmp-keys-dst-' });
    const backups = await Deno.makeTempDir({ prefix: 'lmp-keys-bak-' });
    const sourceEnv = { DATABASE_URL: source.url, DATA_DIR: sourceDir, PWA_DIST: `${sourceDir}/no-pwa` };
    const targetEnv = { DATABASE_URL: target.url, DATA_DIR: targetDir, PWA_DIST: `${targetDir}/no-pwa` };
    let portal: Instance | undefined = await startInstance({ ...sourceEnv, DEMO_SEED: '1' });
    try {
      const admin = await signInAt(portal.url, ADMIN.username, ADMIN.password);
      const secret = await enrolAuthenticator(portal.url, admin, ADMIN.password);
      // The offender's first sign-in hashes the demo PIN under the pepper; a demo letter, sealed under BLOB_KEY.
      const reader = await signInAt(portal.url, '100001', '246810');
      const letter = await firstLetter(portal.url, reader);

      const backup = await npmRun('backup', [`${backups}/today`], sourceEnv);
      assert.equal(backup.code, 0, backup.output);
      assert.match(
        backup.output,
        /The keys are not in this backup: BLOB_KEY, PIN_PEPPER, MFA_SECRET_KEY and SESSION_SECRET/,
      );
      await portal.stop();
      portal = undefined;
      for await (const entry of Deno.readDir(`${backups}/today`)) {
        assert.ok(
          !['blob-key', 'pin-pepper', 'mfa-key', 'session-secret'].includes(entry.name),
          `${entry.name} in the backup`,
        );
      }
      assert.deepEqual(await filesHolding(`${backups}/today`, letter.bytes), [], 'plaintext in the backup');
      const restore = await npmRun('restore', [`${backups}/today`], targetEnv);
      assert.equal(restore.code, 0, restore.output);

      // Without the keys: refused, naming both variables and their DATA_DIR files.
      const without = await refusedStart(targetEnv);
      assert.match(
        without,
        /Refusing to start: PIN_PEPPER, MFA_SECRET_KEY and BLOB_KEY do not match this database/,
      );
      assert.match(without, new RegExp(`PIN_PEPPER is not set and ${targetDir}/pin-pepper does not exist`));
      assert.match(without, new RegExp(`MFA_SECRET_KEY is not set and ${targetDir}/mfa-key does not exist`));
      assert.match(
        without,
        new RegExp(
          `BLOB_KEY is not set and ${targetDir}/blob-key does not exist.*no document could be opened`,
        ),
      );
      assert.equal(
        await Deno.stat(`${targetDir}/pin-pepper`).then(() => true, () => false),
        false,
        'no key generated in their place',
      );
      // Another pepper, set in the environment: refused too.
      const wrong = await refusedStart({
        ...targetEnv,
        PIN_PEPPER: 'a-pepper-of-another-installation-0123456789',
      });
      assert.match(wrong, /PIN_PEPPER does not match this database \(PIN_PEPPER from the environment\)/);

      // docs/operations.md, "Restoring on a new host": the key files carried apart from the backup, put back.
      for (const file of ['session-secret', 'pin-pepper', 'mfa-key', 'blob-key']) {
        await Deno.copyFile(`${sourceDir}/${file}`, `${targetDir}/${file}`);
        await Deno.chmod(`${targetDir}/${file}`, 0o600);
      }
      portal = await startInstance(targetEnv);
      const signedIn = await signInWithTotp(portal.url, { ...ADMIN, secret, steps: 1 });
      assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
      assert.equal(typeof signedIn.body.token, 'string');
      const again = await signInAt(portal.url, '100001', '246810');
      assert.deepEqual(
        (await firstLetter(portal.url, again, letter.id)).bytes,
        letter.bytes,
        'the letter reads',
      );
    } finally {
      await portal?.stop();
      await source.drop();
      await target.drop();
      for (const d of [sourceDir, targetDir, backups]) {
        await Deno.remove(d, { recursive: true }).catch(() => {});
      }
    }
  },
});
