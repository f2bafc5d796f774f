/**
 * `npm run backup [-- DIR] [--objects=copy|bucket]`: the database and the documents' bytes together, into DIR
 * (default ./backups/backup-<time>), while the portal keeps running.
 *
 * Consistency: documents are only ever deleted by the retention purge, and a blob is written before the row
 * that names it. So the backup holds the purge's lock (the purge skips that round), dumps the database
 * (pg_dump: one consistent snapshot), then copies the blob files and checks that every document in the
 * database has its bytes in the copy. A blob written after the dump is copied too and is harmless: the purge
 * removes unreferenced blobs after a restore. With BLOB_STORE=postgres the bytes are in the dump. With
 * BLOB_STORE=s3 the documents' objects are copied into the folder (`--objects=copy`, the default), or, with
 * `--objects=bucket`, left in a bucket that is backed up by its own means (versioning, replication) and each checked
 * there (backup_objects.ts).
 * The embedded database (no DATABASE_URL) cannot be dumped while it runs: stop the portal and copy DATA_DIR.
 */
import { loadConfig } from '../config.ts';
import { LOCK_KEYS } from '../db/advisory_locks.ts';
import { createBlobStore } from '../blobs/store.ts';
import { list_document_blob_sizes, list_document_blobs } from '../db/backup.ts';
import { connectPostgres } from '../db/client.ts';
import { copyObjectsOut, formatNeeded, missingObjects } from './backup_objects.ts';
import { copyTree, hasBlobFile, runPgTool } from './pg_tools.ts';

const config = loadConfig();
if (!config.databaseUrl) {
  console.error(
    'The embedded database is backed up by stopping the portal and copying DATA_DIR (' +
      `${config.dataDir}) as a whole; npm run backup needs DATABASE_URL.`,
  );
  Deno.exit(2);
}
const flags = Deno.args.filter((arg) => arg.startsWith('--'));
const objects = flags.includes('--objects=bucket') ? 'bucket' : 'copy';
const unknown = flags.filter((flag) => !['--objects=copy', '--objects=bucket'].includes(flag));
if (unknown.length || (flags.length && config.blobStore !== 's3')) {
  console.error(
    unknown.length
      ? `Unknown option ${unknown[0]}: npm run backup -- [DIR] [--objects=copy|bucket]`
      : `--objects applies to BLOB_STORE=s3 only (this portal has BLOB_STORE=${config.blobStore}).`,
  );
  Deno.exit(2);
}
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const dir = Deno.args.find((arg) => !arg.startsWith('--')) ?? `./backups/backup-${stamp}`;
try {
  if ([...Deno.readDirSync(dir)].length > 0) {
    console.error(`${dir} is not empty: give a new folder.`);
    Deno.exit(2);
  }
} catch { /* does not exist yet: fine */ }
await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
// mkdir leaves a folder that already existed (empty) as it was: the backup holds every document and account.
await Deno.chmod(dir, 0o700);

const db = connectPostgres(config.databaseUrl, { max: 2 });
const lock = await db.sql.reserve();
try {
  // Waits for a purge in progress to finish, then keeps the next one off until the copy is complete.
  await lock`select pg_advisory_lock(${LOCK_KEYS.retentionPurge})`;
  await runPgTool('pg_dump', [
    '--format=custom',
    '--no-owner',
    '--no-privileges',
    `--file=${dir}/database.dump`,
  ], config.databaseUrl);
  await Deno.chmod(`${dir}/database.dump`, 0o600); // pg_dump writes it under the umask (0644 by default)
  const needed = await list_document_blobs(db.sql);
  let blobFiles = 0;
  let where = config.blobStore === 'fs' ? 'blobs' : 'in the database';
  if (config.blobStore === 's3') {
    const store = createBlobStore(config, db);
    const sized = await list_document_blob_sizes(db.sql);
    await Deno.writeTextFile(`${dir}/document-blobs.txt`, formatNeeded(sized), { mode: 0o600 });
    if (objects === 'copy') {
      blobFiles = await copyObjectsOut(store, sized, `${dir}/blobs`);
      where = 'blobs';
    } else {
      const missing = await missingObjects(store, sized);
      if (missing.length) {
        throw new Error(
          `${missing.length} document object(s) missing from bucket ${config.s3?.bucket}: ${
            missing.slice(0, 3).join(', ')
          }`,
        );
      }
      where = 'in the bucket';
    }
  } else if (config.blobStore === 'fs') {
    const root = `${config.dataDir}/blobs`;
    // tmp/ holds uploads in flight, never a blob a document names.
    blobFiles = await copyTree(root, `${dir}/blobs`, ['tmp']).catch((error) => {
      if (error instanceof Deno.errors.NotFound && needed.length === 0) return 0;
      throw error;
    });
    const missing: string[] = [];
    for (const sha of needed) if (!(await hasBlobFile(`${dir}/blobs`, sha))) missing.push(sha);
    if (missing.length) {
      throw new Error(
        `${missing.length} document blob(s) missing from ${root}: ${missing.slice(0, 3).join(', ')}`,
      );
    }
  }
  const manifest = {
    format: 1,
    createdAt: new Date().toISOString(),
    blobStore: config.blobStore,
    database: 'database.dump',
    blobs: where,
    ...(config.s3
      ? {
        // Where the objects are (never the key): a restore into another bucket is the operator's choice.
        bucket: { endpoint: config.s3.endpoint, name: config.s3.bucket, prefix: config.s3.prefix },
        neededBlobs: 'document-blobs.txt',
      }
      : {}),
    documentBlobs: needed.length,
    blobFiles,
  };
  await Deno.writeTextFile(`${dir}/manifest.json`, JSON.stringify(manifest, null, 2) + '\n', { mode: 0o600 });
  const bytes = where === 'blobs'
    ? `${blobFiles} blob file(s)`
    : where === 'in the bucket'
    ? `${needed.length} document object(s) checked in bucket ${config.s3?.bucket}, which is backed up by its own means`
    : 'blobs inside the dump';
  console.log(`Backup written to ${dir}: database dump and ${bytes}.`);
  // As GitLab's backup says of gitlab-secrets.json: the keys are kept apart on purpose, and a restore needs them.
  console.log(
    'The keys are not in this backup: BLOB_KEY, PIN_PEPPER, MFA_SECRET_KEY, AUDIT_SIGNING_KEY and SESSION_SECRET ' +
      `(or, where unset, the files blob-key, pin-pepper, mfa-key, audit-signing-key and session-secret in ${config.dataDir}). ` +
      'Keep them apart from it: a restore needs them, and without BLOB_KEY no document in it can be opened ' +
      '(docs/operations.md, "Keys").',
  );
} catch (error) {
  console.error(`Backup failed: ${(error as Error).message}`);
  Deno.exitCode = 1;
} finally {
  await lock`select pg_advisory_unlock(${LOCK_KEYS.retentionPurge})`.catch(() => {});
  lock.release();
  await db.close();
}
