/**
 * docs/operations.md, "Sealing the documents of an earlier installation", run as written on an installation whose
 * documents are plaintext blobs named by their SHA-256 (as a release before sealing stored them), while the portal
 * serves it: afterwards no file of the data folder holds 48 bytes of any letter in a row, and every letter reads
 * back the same, before, during and after. Run again, it finds nothing to do. Needs TEST_DATABASE_URL.
 */
import assert from 'node:assert/strict';
import { SealedBlobStore } from '../../api/blobs/sealed_store.ts';
import { createBlobStore } from '../../api/blobs/store.ts';
import { connectPostgres } from '../../api/db/client.ts';
import { blobKekOf } from '../../api/domain/keys.ts';
import { docCommands } from '../support/doc_commands.ts';
import { freshDatabase, type Instance, ROOT, signInAt, startInstance } from '../support/instance.ts';
import { makePdf } from '../support/pdfs.ts';
import { filesHolding } from '../support/plaintext.ts';
import { run } from './helpers.ts';

const SERVER = Deno.env.get('TEST_DATABASE_URL');
const BLOB_KEY = 'blobs-encrypt-test-key-0123456789abcdef';

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

/** Turns every sealed blob back into a plaintext one under its digest, and forgets BLOB_KEY's fingerprint. */
async function asBeforeSealing(databaseUrl: string, dataDir: string): Promise<number> {
  const db = connectPostgres(databaseUrl, { max: 2 });
  try {
    const raw = createBlobStore({ blobStore: 'fs', dataDir }, db);
    const kek = await blobKekOf(new TextEncoder().encode(BLOB_KEY));
    const sealed = new SealedBlobStore(raw, { sql: db.sql, kek });
    const rows = await db.sql<{ sha256: string; name: string }[]>`select sha256, name from sealed_blobs`;
    for (const row of rows) {
      const plain = new Uint8Array(await new Response(await sealed.open(row.sha256)).arrayBuffer());
      assert.equal((await raw.put(new Blob([plain]).stream())).sha256, row.sha256);
      await db.sql`delete from sealed_blobs where sha256 = ${row.sha256}`;
      await raw.delete(row.name);
    }
    await db.sql`delete from key_fingerprints where name = 'BLOB_KEY'`;
    return rows.length;
  } finally {
    await db.close();
  }
}

Deno.test({
  name:
    'blobs:encrypt as documented seals a plaintext installation in place while it serves: no plaintext left in DATA_DIR, every letter reads the same',
  sanitizeResources: false,
  sanitizeOps: false,
  ignore: !SERVER,
  fn: async () => {
    const [command] =
      (await docCommands('docs/operations.md', '### Sealing the documents of an earlier installation'))
        .flat();
    assert.match(command, /npm run blobs:encrypt$/);
    const db = await freshDatabase(SERVER!);
    const dataDir = await Deno.makeTempDir({ prefix: 'lmp-blobs-encrypt-' });
    const envFile = `${dataDir}/portal.env`;
    const env = {
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      PWA_DIST: `${dataDir}/no-pwa`,
      SESSION_SECRET: 'blobs-encrypt-session-secret-0123456789',
      PIN_PEPPER: 'blobs-encrypt-pin-pepper-0123456789abcd',
      MFA_SECRET_KEY: 'blobs-encrypt-mfa-key-0123456789abcdef',
      AUDIT_SIGNING_KEY: 'c5'.repeat(32),
      BLOB_KEY,
    };
    await Deno.writeTextFile(envFile, Object.entries(env).map(([k, v]) => `${k}=${v}`).join('\n') + '\n');
    const encrypt = () =>
      run('sh', [
        '-ec',
        command.replaceAll('/opt/legal-mail-portal', ROOT).replaceAll('/etc/legal-mail-portal.env', envFile),
      ], { env: { PATH: Deno.env.get('PATH')!, HOME: Deno.env.get('HOME') ?? '/tmp' } });
    let portal: Instance | undefined;
    try {
      // An installation with the demo letters and a larger one (several segments), then made plaintext.
      portal = await startInstance({ ...env, DEMO_SEED: '1' });
      const attorney = await signInAt(portal.url, 'attorney@demo.test', 'Demo-Attorney-2026!');
      const form = new FormData();
      const big = await makePdf({ pages: 3, title: 'Long brief', padTo: 400_000 });
      form.set('file', new File([big as BlobPart], 'brief.pdf', { type: 'application/pdf' }));
      form.set('recipient_doc_number', '100001');
      form.set('title', 'Long brief');
      const up = await fetch(`${portal.url}/api/documents/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${attorney}` },
        body: form,
      });
      assert.equal(up.status, 201, await up.text());
      const original = await letters(portal.url);
      assert.equal(await portal.stop(), 0);
      portal = undefined;
      const count = await asBeforeSealing(db.url, dataDir);
      assert.equal(count, original.size);
      const holding = async () => {
        const found: string[] = [];
        for (const bytes of original.values()) found.push(...await filesHolding(dataDir, bytes));
        return found;
      };
      assert.ok((await holding()).length >= original.size, 'the installation is plaintext to begin with');

      // The portal serves the plaintext installation, and keeps serving while the command runs.
      portal = await startInstance(env);
      assert.deepEqual(await letters(portal.url), original);
      const reading = (async () => {
        const seen: Map<string, Uint8Array>[] = [];
        for (let i = 0; i < 5; i++) seen.push(await letters(portal!.url));
        return seen;
      })();
      const sealed = await encrypt();
      for (const seen of await reading) assert.deepEqual(seen, original, 'a letter read during the sealing');
      assert.equal(sealed.code, 0, sealed.output);
      assert.match(sealed.output, new RegExp(`Sealed ${original.size} document blob\\(s\\) under BLOB_KEY`));
      assert.match(sealed.output, /Every document blob is sealed\./);

      assert.deepEqual(await holding(), [], 'plaintext left under DATA_DIR');
      assert.deepEqual(await letters(portal.url), original);
      const again = await encrypt();
      assert.equal(again.code, 0, again.output);
      assert.match(again.output, /Sealed 0 document blob\(s\)/);
    } finally {
      await portal?.stop();
      await db.drop();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});
