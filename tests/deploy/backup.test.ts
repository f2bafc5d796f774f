/**
 * `npm run backup` from a running portal, `npm run restore` into a new database and an empty DATA_DIR (with
 * BLOB_STORE=s3, a new empty bucket), and the same bytes read back through the restored portal; with
 * `--objects=bucket`, a bucket backed up by its own means is checked, not copied. Needs TEST_DATABASE_URL, and for
 * s3 the run's gateway (TEST_S3_*).
 */
import assert from 'node:assert/strict';
import postgres from 'postgres';
import { makePdf, sha256Hex } from '../support/pdfs.ts';
import { filesHolding } from '../support/plaintext.ts';
import { DENO, freshDatabase, ROOT, signInAt, startInstance } from '../support/instance.ts';
import { createTestBucket, HAVE_S3, type TestBucket } from '../support/s3.ts';

/** The stored blob of a digest: a sealed blob's name and size (sealed_blobs), else the digest itself. */
async function storedBlob(databaseUrl: string, sha256: string): Promise<{ name: string; size: number }> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<{ name: string; size: number }[]>`
      select name, stored_size::float8 as size from sealed_blobs where sha256 = ${sha256}`;
    return row ? { ...row } : { name: sha256, size: -1 };
  } finally {
    await sql.end();
  }
}

const SERVER = Deno.env.get('TEST_DATABASE_URL');
const OPTIONS = { sanitizeResources: false, sanitizeOps: false, ignore: !SERVER } as const;

/** Every privilege the API's group role holds on the database's tables, sequences and functions, sorted. */
async function apiRolePrivileges(url: string): Promise<string[]> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql<{ what: string }[]>`
      select table_name || ' ' || privilege_type as what from information_schema.role_table_grants
        where grantee = 'legal_mail_api'
      union all
      select routine_name || ' ' || privilege_type from information_schema.role_routine_grants
        where grantee = 'legal_mail_api'
      union all
      select c.relname || ' sequence ' || p.privilege_type
        from pg_class c, aclexplode(c.relacl) p, pg_roles r
        where c.relkind = 'S' and p.grantee = r.oid and r.rolname = 'legal_mail_api'
      order by 1`;
    return rows.map((r) => r.what);
  } finally {
    await sql.end();
  }
}

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

// Each store into itself, and fs into s3: how a portal moves its documents from its disk into a bucket.
for (
  const [blobStore, restoredAs] of [['fs', 'fs'], ['postgres', 'postgres'], ['s3', 's3'], [
    'fs',
    's3',
  ]] as const
) {
  const moved = restoredAs !== blobStore ? ` restored as BLOB_STORE=${restoredAs}` : '';
  Deno.test({
    name:
      `backup of a running portal restores into a new database and folder, byte for byte (BLOB_STORE=${blobStore}${moved})`,
    ...OPTIONS,
    ignore: OPTIONS.ignore || (restoredAs === 's3' && !HAVE_S3),
    fn: async () => {
      const source = await freshDatabase(SERVER!);
      const target = await freshDatabase(SERVER!);
      const sourceDir = await Deno.makeTempDir({ prefix: 'lmp-backup-src-' });
      const targetDir = await Deno.makeTempDir({ prefix: 'lmp-backup-dst-' });
      const backupDir = `${await Deno.makeTempDir({ prefix: 'lmp-backup-' })}/today`;
      // s3: the objects copied out of one bucket, into another, empty one (a restore at another site).
      const sourceBucket = blobStore === 's3' ? await createTestBucket() : undefined;
      const targetBucket = restoredAs === 's3' ? await createTestBucket() : undefined;
      const buckets = [sourceBucket, targetBucket].filter((b): b is TestBucket => !!b);
      // The keys travel apart from the backup (docs/operations.md, "Keys"): the same on both sides.
      const common = {
        SESSION_SECRET: 'backup-test-secret-0123456789abcdef',
        PIN_PEPPER: 'backup-test-pepper-0123456789abcdef',
        MFA_SECRET_KEY: 'backup-test-mfa-key-0123456789abcdef',
        BLOB_KEY: 'backup-test-blob-key-0123456789abcdef',
        PWA_DIST: `${sourceDir}/no-pwa`,
      };
      const sourceEnv = {
        ...common,
        BLOB_STORE: blobStore,
        ...sourceBucket?.env,
        DATABASE_URL: source.url,
        DATA_DIR: sourceDir,
      };
      const targetEnv = {
        ...common,
        BLOB_STORE: restoredAs,
        ...targetBucket?.env,
        DATABASE_URL: target.url,
        DATA_DIR: targetDir,
      };
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
        // Sealed documents: no file of the backup (dump, blobs, lists) holds 48 bytes of the letter in a row.
        assert.deepEqual(await filesHolding(backupDir, pdf), [], 'plaintext in the backup');
        const manifest = JSON.parse(await Deno.readTextFile(`${backupDir}/manifest.json`));
        assert.equal(manifest.blobStore, blobStore);
        assert.ok(manifest.documentBlobs >= 2);
        if (blobStore === 's3') {
          assert.equal(manifest.blobs, 'blobs', 'the objects copied into the folder');
          assert.equal(manifest.blobFiles, manifest.documentBlobs);
          assert.equal(manifest.bucket.name, sourceBucket!.s3.bucket);
          assert.doesNotMatch(
            JSON.stringify(manifest),
            new RegExp(sourceBucket!.s3.secretAccessKey),
            'no secret',
          );
        }
        await portal.stop();

        // The folder and dump are private even when the folder existed before.
        assert.equal((await Deno.stat(backupDir)).mode! & 0o777, 0o700);
        assert.equal((await Deno.stat(`${backupDir}/database.dump`)).mode! & 0o777, 0o600);

        const restore = await cli('restore', [backupDir], targetEnv);
        assert.equal(restore.code, 0, restore.output);
        if (targetBucket) {
          assert.match(restore.output, /\d+ object\(s\) copied into bucket/);
          const stored = await storedBlob(target.url, await sha256Hex(pdf));
          const key = `${targetBucket.s3.prefix}blobs/${stored.name}`;
          assert.equal((await targetBucket.client.headObject(key))?.size, stored.size, 'in the new bucket');
        }
        // ...and a restored database whose API role could read nothing, or rewrite the audit tables: its
        // privileges are made again, the same as the migrations made them in the source.
        assert.deepEqual(await apiRolePrivileges(target.url), await apiRolePrivileges(source.url));
        const restored = postgres(target.url, { max: 1, onnotice: () => {} });
        try {
          const [grants] = await restored<{ read: boolean; rewrite: boolean; chain: boolean }[]>`
            select has_table_privilege('legal_mail_api', 'users', 'select') as read,
                   has_table_privilege('legal_mail_api', 'audit_logs', 'update') as rewrite,
                   has_table_privilege('legal_mail_api', 'audit_chain', 'delete') as chain`;
          assert.deepEqual({ ...grants }, { read: true, rewrite: false, chain: false });
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
        for (const bucket of buckets) await bucket.drop();
        for (const d of [sourceDir, targetDir, backupDir.replace(/\/today$/, '')]) {
          await Deno.remove(d, { recursive: true }).catch(() => {});
        }
      }
    },
  });
}

Deno.test({
  name:
    'BLOB_STORE=s3 --objects=bucket: the backup checks each object in the bucket; a restore finds one missing before touching the database',
  ...OPTIONS,
  ignore: OPTIONS.ignore || !HAVE_S3,
  fn: async () => {
    const source = await freshDatabase(SERVER!);
    const target = await freshDatabase(SERVER!);
    const bucket = await createTestBucket();
    const dirs = await Promise.all(
      ['src', 'dst', 'bak'].map((n) => Deno.makeTempDir({ prefix: `lmp-bucket-${n}-` })),
    );
    const [sourceDir, targetDir, backups] = dirs;
    const common = {
      ...bucket.env,
      SESSION_SECRET: 'backup-test-secret-0123456789abcdef',
      PIN_PEPPER: 'backup-test-pepper-0123456789abcdef',
      MFA_SECRET_KEY: 'backup-test-mfa-key-0123456789abcdef',
      BLOB_KEY: 'backup-test-blob-key-0123456789abcdef',
    };
    const sourceEnv = {
      ...common,
      DATABASE_URL: source.url,
      DATA_DIR: sourceDir,
      PWA_DIST: `${sourceDir}/x`,
    };
    const targetEnv = {
      ...common,
      DATABASE_URL: target.url,
      DATA_DIR: targetDir,
      PWA_DIST: `${targetDir}/x`,
    };
    let portal = await startInstance({ ...sourceEnv, DEMO_SEED: '1' });
    try {
      const attorney = await signInAt(portal.url, 'attorney@demo.test', 'Demo-Attorney-2026!');
      const pdf = await makePdf({ pages: 2, title: 'Kept in the bucket', padTo: 150_000 });
      const form = new FormData();
      form.set('file', new File([pdf as BlobPart], 'letter.pdf', { type: 'application/pdf' }));
      form.set('recipient_doc_number', '100001');
      form.set('title', 'In the bucket');
      const up = await fetch(`${portal.url}/api/documents/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${attorney}` },
        body: form,
      });
      const id = (await up.json()).document.documentid;
      assert.equal(up.status, 201);

      // A demo letter past its retention: a tombstone whose object the collection removed is not asked for.
      const sql = postgres(source.url, { max: 1, onnotice: () => {} });
      const [gone] = await sql<{ sha256: string }[]>`
        update documents set deleted_at = now(), deleted_reason = 'retention'
        where id = (select id from documents where id <> ${id} limit 1)
        returning sha256`;
      await sql.end();
      const goneName = (await storedBlob(source.url, gone.sha256)).name;
      await bucket.client.deleteObject(`${bucket.s3.prefix}blobs/${goneName}`);
      const backup = await cli('backup', [`${backups}/one`, '--objects=bucket'], sourceEnv);
      assert.equal(backup.code, 0, backup.output);
      assert.match(backup.output, /document object\(s\) checked in bucket .*backed up by its own means/);
      const manifest = JSON.parse(await Deno.readTextFile(`${backups}/one/manifest.json`));
      assert.equal(manifest.blobs, 'in the bucket');
      assert.equal(manifest.blobFiles, 0);
      assert.equal(
        await Deno.stat(`${backups}/one/blobs`).then(() => true, () => false),
        false,
        'nothing copied',
      );
      const listed = (await Deno.readTextFile(`${backups}/one/document-blobs.txt`)).trim().split('\n');
      assert.equal(listed.length, manifest.documentBlobs);
      await portal.stop();

      // The bucket lost an object (its own backup is older than the document): the restore says so and stops.
      // The object of the letter: its sealed blob, named apart from the letter's digest.
      const sha = (await storedBlob(source.url, await sha256Hex(pdf))).name;
      const key = `${bucket.s3.prefix}blobs/${sha}`;
      const sealedBytes = new Uint8Array(await (await bucket.client.getObject(key))!.arrayBuffer());
      await bucket.client.deleteObject(key);
      const refused = await cli('restore', [`${backups}/one`], targetEnv);
      assert.equal(refused.code, 1, refused.output);
      assert.match(
        refused.output,
        new RegExp(`1 document object\\(s\\) missing from bucket ${bucket.s3.bucket}`),
      );
      assert.match(
        refused.output,
        /restore the bucket from its own backup first.*the database was not touched/,
      );
      const empty = postgres(target.url, { max: 1, onnotice: () => {} });
      const [{ n }] = await empty<{ n: number }[]>`
        select count(*)::int as n from pg_tables where schemaname = 'public'`;
      await empty.end();
      assert.equal(n, 0, 'the database was not touched');
      // The same loss found by a backup.
      const failed = await cli('backup', [`${backups}/two`, '--objects=bucket'], sourceEnv);
      assert.equal(failed.code, 1);
      assert.match(failed.output, new RegExp(`1 document object\\(s\\) missing from bucket .*${sha}`));

      // The bucket restored by its own means: the restore goes through, the bytes read back.
      await bucket.client.putObject(key, sealedBytes);
      const restore = await cli('restore', [`${backups}/one`], targetEnv);
      assert.equal(restore.code, 0, restore.output);
      assert.match(restore.output, /each found in bucket/);
      portal = await startInstance(targetEnv);
      const offender = await signInAt(portal.url, '100001', '246810');
      const r = await fetch(`${portal.url}/api/documents/view/${id}`, {
        headers: { authorization: `Bearer ${offender}` },
      });
      assert.equal(r.status, 200);
      assert.deepEqual(new Uint8Array(await r.arrayBuffer()), pdf);

      const wrongStore = await cli('backup', [`${backups}/three`, '--objects=bucket'], {
        DATABASE_URL: source.url,
        DATA_DIR: sourceDir,
      });
      assert.equal(wrongStore.code, 2);
      assert.match(wrongStore.output, /--objects applies to BLOB_STORE=s3 only/);
    } finally {
      await portal.stop();
      await source.drop();
      await target.drop();
      await bucket.drop();
      for (const d of dirs) await Deno.remove(d, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test('backup of the embedded database says to stop the portal and copy DATA_DIR', async () => {
  const r = await cli('backup', ['/tmp/lmp-never-written'], { DATA_DIR: '/tmp/lmp-embedded-unused' });
  assert.equal(r.code, 2);
  assert.match(r.output, /stopping the portal and copying DATA_DIR/);
});
