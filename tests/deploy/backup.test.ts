/**
 * `npm run backup` from a running portal, `npm run restore` into a new database and an empty DATA_DIR, and
 * the same bytes read back through the restored portal. Needs TEST_DATABASE_URL.
 */
import assert from 'node:assert/strict';
import postgres from 'postgres';
import { makePdf } from '../support/pdfs.ts';
import { DENO, freshDatabase, ROOT, signInAt, startInstance } from '../support/instance.ts';

const SERVER = Deno.env.get('TEST_DATABASE_URL');
const OPTIONS = { sanitizeResources: false, sanitizeOps: false, ignore: !SERVER } as const;

async function cli(script: 'backup' | 'restore', args: string[], env: Record<string, string>) {
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

for (const blobStore of ['fs', 'postgres'] as const) {
  Deno.test({
    name:
      `backup of a running portal restores into a new database and folder, byte for byte (BLOB_STORE=${blobStore})`,
    ...OPTIONS,
    fn: async () => {
      const source = await freshDatabase(SERVER!);
      const target = await freshDatabase(SERVER!);
      const sourceDir = await Deno.makeTempDir({ prefix: 'lmp-backup-src-' });
      const targetDir = await Deno.makeTempDir({ prefix: 'lmp-backup-dst-' });
      const backupDir = `${await Deno.makeTempDir({ prefix: 'lmp-backup-' })}/today`;
      const common = {
        SESSION_SECRET: 'backup-test-secret-0123456789abcdef',
        BLOB_STORE: blobStore,
        PWA_DIST: `${sourceDir}/no-pwa`,
      };
      const sourceEnv = { ...common, DATABASE_URL: source.url, DATA_DIR: sourceDir };
      const targetEnv = { ...common, DATABASE_URL: target.url, DATA_DIR: targetDir };
      let portal = await startInstance({ ...sourceEnv, DEMO_SEED: '1' });
      try {
        const attorney = await signInAt(portal.url, 'attorney@demo.test', 'Demo-Attorney-2026!');
        const pdf = await makePdf({ pages: 2, title: 'Kept in the backup', padTo: 200_000 });
        const form = new FormData();
        form.set('file', new File([pdf as BlobPart], 'letter.pdf', { type: 'application/pdf' }));
        form.set('recipient_doc_number', '100001');
        form.set('title', 'Backed up');
        const up = await fetch(`${portal.url}/api/documents/upload`, {
          method: 'POST',
          headers: { authorization: `Bearer ${attorney}` },
          body: form,
        });
        const id = (await up.json()).document.documentid;
        assert.equal(up.status, 201);

        // An existing, empty folder that anyone may read, as an operator might make one.
        await Deno.mkdir(backupDir);
        await Deno.chmod(backupDir, 0o755);
        const backup = await cli('backup', [backupDir], sourceEnv);
        assert.equal(backup.code, 0, backup.output);
        const manifest = JSON.parse(await Deno.readTextFile(`${backupDir}/manifest.json`));
        assert.equal(manifest.blobStore, blobStore);
        assert.ok(manifest.documentBlobs >= 2);
        await portal.stop();

        // The folder and dump are private even when the folder existed before.
        assert.equal((await Deno.stat(backupDir)).mode! & 0o777, 0o700);
        assert.equal((await Deno.stat(`${backupDir}/database.dump`)).mode! & 0o777, 0o600);

        const restore = await cli('restore', [backupDir], targetEnv);
        assert.equal(restore.code, 0, restore.output);
        // ...and a restored database whose API role could read nothing: its grants are made again.
        const restored = postgres(target.url, { max: 1, onnotice: () => {} });
        try {
          const [grants] = await restored<{ read: boolean; rewrite: boolean }[]>`
            select has_table_privilege('legal_mail_api', 'users', 'select') as read,
                   has_table_privilege('legal_mail_api', 'audit_logs', 'update') as rewrite`;
          assert.deepEqual({ ...grants }, { read: true, rewrite: false });
        } finally {
          await restored.end();
        }
        const again = await cli('restore', [backupDir], targetEnv);
        assert.equal(again.code, 1, 'a database with tables is refused');
        assert.match(again.output, /not empty/);

        portal = await startInstance(targetEnv);
        const offender = await signInAt(portal.url, '100001', '246810');
        const r = await fetch(`${portal.url}/api/documents/view/${id}`, {
          headers: { authorization: `Bearer ${offender}` },
        });
        assert.equal(r.status, 200);
        assert.deepEqual(new Uint8Array(await r.arrayBuffer()), pdf, 'the same bytes');
        const list = await (await fetch(`${portal.url}/api/documents/offender/100001`, {
          headers: { authorization: `Bearer ${offender}` },
        })).json();
        assert.ok(list.documents.length >= 2, 'the demo letters came back too');
      } finally {
        await portal.stop();
        await source.drop();
        await target.drop();
        for (const d of [sourceDir, targetDir, backupDir.replace(/\/today$/, '')]) {
          await Deno.remove(d, { recursive: true }).catch(() => {});
        }
      }
    },
  });
}

Deno.test('backup of the embedded database says to stop the portal and copy DATA_DIR', async () => {
  const r = await cli('backup', ['/tmp/lmp-never-written'], { DATA_DIR: '/tmp/lmp-embedded-unused' });
  assert.equal(r.code, 2);
  assert.match(r.output, /stopping the portal and copying DATA_DIR/);
});
