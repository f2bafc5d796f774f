/**
 * `npm run backup [-- DIR]`: the database and the documents' bytes together, into DIR (default
 * ./backups/backup-<time>), while the portal keeps running.
 *
 * Consistency: documents are only ever deleted by the retention purge, and a blob is written before the row
 * that names it. So the backup holds the purge's lock (the purge skips that round), dumps the database
 * (pg_dump: one consistent snapshot), then copies the blob files and checks that every document in the
 * database has its bytes in the copy. A blob written after the dump is copied too and is harmless: the purge
 * removes unreferenced blobs after a restore. With BLOB_STORE=postgres the bytes are in the dump.
 * The embedded database (no DATABASE_URL) cannot be dumped while it runs: stop the portal and copy DATA_DIR.
 */
import { loadConfig } from '../config.ts';
import { LOCK_KEYS } from '../db/advisory_locks.ts';
import { list_document_blobs } from '../db/backup.ts';
import { connectPostgres } from '../db/client.ts';
import { copyTree, hasBlobFile, runPgTool } from './pg_tools.ts';

const config = loadConfig();
if (!config.databaseUrl) {
  console.error(
    'The embedded database is backed up by stopping the portal and copying DATA_DIR (' +
      `${config.dataDir}) as a whole; npm run backup needs DATABASE_URL.`,
  );
  Deno.exit(2);
}
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const dir = Deno.args[0] ?? `./backups/backup-${stamp}`;
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
  if (config.blobStore === 'fs') {
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
    blobs: config.blobStore === 'fs' ? 'blobs' : 'in the database',
    documentBlobs: needed.length,
    blobFiles,
  };
  await Deno.writeTextFile(`${dir}/manifest.json`, JSON.stringify(manifest, null, 2) + '\n', { mode: 0o600 });
  console.log(
    `Backup written to ${dir}: database dump and ${
      config.blobStore === 'fs' ? `${blobFiles} blob file(s)` : 'blobs inside the dump'
    }.`,
  );
} catch (error) {
  console.error(`Backup failed: ${(error as Error).message}`);
  Deno.exitCode = 1;
} finally {
  await lock`select pg_advisory_unlock(${LOCK_KEYS.retentionPurge})`.catch(() => {});
  lock.release();
  await db.close();
}
