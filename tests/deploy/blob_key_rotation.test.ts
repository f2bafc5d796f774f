/**
 * docs/operations.md, "Rotating BLOB_KEY", step 3 as written, with the service's environment file: every blob file
 * is left as it was, every document reads with the new key alone, and a start with the old key is refused, naming
 * BLOB_KEY. Needs TEST_DATABASE_URL.
 */
import assert from 'node:assert/strict';
import { docCommands } from '../support/doc_commands.ts';
import { freshDatabase, type Instance, ROOT, signInAt, startInstance } from '../support/instance.ts';
import { filesUnder } from '../support/plaintext.ts';
import { run } from './helpers.ts';

const SERVER = Deno.env.get('TEST_DATABASE_URL');

/** Every document of the demo offender with its bytes, read through the API. */
async function letters(base: string): Promise<Map<string, Uint8Array>> {
  const headers = { authorization: `Bearer ${await signInAt(base, '100001', '246810')}` };
  const list = await (await fetch(`${base}/api/documents/offender/100001`, { headers })).json();
  const out = new Map<string, Uint8Array>();
  for (const doc of list.documents) {
    const r = await fetch(`${base}/api/documents/view/${doc.documentid}`, { headers });
    assert.equal(r.status, 200);
    out.set(doc.documentid, new Uint8Array(await r.arrayBuffer()));
  }
  return out;
}

/** Each blob file under the data folder with its SHA-256. */
async function blobFiles(dataDir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const path of await filesUnder(`${dataDir}/blobs`)) {
    const digest = await crypto.subtle.digest('SHA-256', await Deno.readFile(path));
    out.set(path, Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join(''));
  }
  return out;
}

Deno.test({
  name:
    'BLOB_KEY rotates as documented: no blob file changes, every document reads under the new key alone, the old key is refused naming BLOB_KEY',
  sanitizeResources: false,
  sanitizeOps: false,
  ignore: !SERVER,
  fn: async () => {
    const commands = (await docCommands('docs/operations.md', '### Rotating BLOB_KEY')).flat();
    assert.equal(commands.length, 1);
    assert.match(commands[0], /npm run keys:rotate-blob$/);
    const db = await freshDatabase(SERVER!);
    const dataDir = await Deno.makeTempDir({ prefix: 'lmp-blob-rotate-' });
    const envFile = `${dataDir}/portal.env`;
    const newKeyFile = `${dataDir}/blob-key.new`;
    const oldKey = 'blob-rotation-old-key-0123456789abcdef';
    const newKey = 'blob-rotation-new-key-0123456789abcdef';
    const env = {
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      PWA_DIST: `${dataDir}/no-pwa`,
      SESSION_SECRET: 'blob-rotation-session-secret-0123456789',
      PIN_PEPPER: 'blob-rotation-pin-pepper-0123456789abcd',
      MFA_SECRET_KEY: 'blob-rotation-mfa-key-0123456789abcdef',
      AUDIT_SIGNING_KEY: 'c4'.repeat(32),
    };
    await Deno.writeTextFile(
      envFile,
      Object.entries({ ...env, BLOB_KEY: oldKey }).map(([k, v]) => `${k}=${v}`).join('\n') + '\n',
    );
    await Deno.writeTextFile(newKeyFile, newKey);
    let portal: Instance | undefined;
    try {
      portal = await startInstance({ ...env, BLOB_KEY: oldKey, DEMO_SEED: '1' });
      const before = await letters(portal.url);
      assert.ok(before.size >= 2);
      assert.equal(await portal.stop(), 0);
      portal = undefined;
      const files = await blobFiles(dataDir);
      assert.ok(files.size >= before.size);

      const command = commands[0]
        .replaceAll('/opt/legal-mail-portal', ROOT)
        .replaceAll('/etc/legal-mail-portal.env', envFile)
        .replaceAll('/root/blob-key.new', newKeyFile);
      const rotated = await run('sh', ['-ec', command], {
        env: { PATH: Deno.env.get('PATH')!, HOME: Deno.env.get('HOME') ?? '/tmp' },
      });
      assert.equal(rotated.code, 0, rotated.output);
      assert.match(rotated.output, /under the new BLOB_KEY; no blob was rewritten/);
      assert.deepEqual(await blobFiles(dataDir), files, 'every blob file as it was');

      // The old key is gone from everywhere: the new one alone opens every document.
      portal = await startInstance({ ...env, BLOB_KEY: newKey });
      assert.deepEqual(await letters(portal.url), before);
      assert.equal(await portal.stop(), 0);
      portal = undefined;

      const refused = await startInstance({ ...env, BLOB_KEY: oldKey }).then(
        async (instance) => {
          await instance.stop();
          return 'started';
        },
        (error: Error) => error.message,
      );
      assert.match(refused, /Refusing to start: BLOB_KEY does not match this database/);

      // Run again: already done, nothing changed.
      const again = await run('sh', ['-ec', command], {
        env: { PATH: Deno.env.get('PATH')!, HOME: Deno.env.get('HOME') ?? '/tmp' },
      });
      assert.equal(again.code, 0, again.output);
      assert.match(again.output, /already under the new BLOB_KEY/);
    } finally {
      await portal?.stop();
      await db.drop();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});
