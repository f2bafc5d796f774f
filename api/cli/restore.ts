/**
 * `npm run restore -- DIR`: a backup made by `npm run backup` into the configured, empty, database
 * (MIGRATION_DATABASE_URL, the schema's owner, when set; else DATABASE_URL) and, for BLOB_STORE=fs, into
 * DATA_DIR/blobs. Blob files restore into a bucket as well as into a folder, and the other way round: a portal
 * moves its documents from its disk into a bucket by a backup with BLOB_STORE=fs and a restore with s3. With
 * BLOB_STORE=s3 the objects come first: copied into the configured bucket when the backup holds them, else looked
 * for there (a bucket restored by its own means); a document's object missing or of another size stops the
 * restore before the database is touched. Refuses a database that has tables, so a restore never mixes with live
 * data. The dump carries no privileges (pg_dump --no-privileges: a dump must restore on another cluster, whose
 * roles may differ), so the API role's privileges are made again (db/api_role_privileges.sql: without them the API's
 * role could read nothing, or rewrite the audit chain). Start the portal afterwards: it applies any newer migrations.
 */
import { loadConfig } from '../config.ts';
import { createBlobStore } from '../blobs/store.ts';
import { count_public_tables, list_document_blobs } from '../db/backup.ts';
import { connectPostgres } from '../db/client.ts';
import { copyObjectsIn, listBlobFiles, missingObjects, parseNeeded } from './backup_objects.ts';
import { copyTree, hasBlobFile, runPgTool } from './pg_tools.ts';

/** What the API's role may do on the migrated schema (db/api_role_privileges.sql). */
const API_ROLE_PRIVILEGES = new URL('../../db/api_role_privileges.sql', import.meta.url);

const config = loadConfig();
const dir = Deno.args[0];
if (!dir) {
  console.error('Usage: npm run restore -- <backup folder>');
  Deno.exit(2);
}
if (!config.databaseUrl) {
  console.error(
    'npm run restore needs DATABASE_URL (the embedded database is restored by copying DATA_DIR back).',
  );
  Deno.exit(2);
}
const manifest = JSON.parse(await Deno.readTextFile(`${dir}/manifest.json`));
if (manifest.format !== 1) {
  console.error(`${dir}/manifest.json: unknown backup format ${manifest.format}.`);
  Deno.exit(2);
}
// Blob files in the backup (an fs backup, or an s3 one whose objects were copied) restore into either files or a
// bucket, which is how a portal moves its documents between the two; chunks inside a dump stay in the database.
const asFiles = (store: string) => store === 'fs' || store === 's3';
const movable = manifest.blobs === 'blobs' && asFiles(manifest.blobStore) && asFiles(config.blobStore);
if (manifest.blobStore !== config.blobStore && !movable) {
  console.error(
    `The backup was made with BLOB_STORE=${manifest.blobStore}; restore it with the same setting.`,
  );
  Deno.exit(2);
}

const ownerUrl = config.migrationDatabaseUrl ?? config.databaseUrl;
const db = connectPostgres(ownerUrl, { max: 1 });
try {
  if (await count_public_tables(db.sql) > 0) {
    throw new Error('the database is not empty: restore into a new database (createdb) so nothing is mixed');
  }
  const objects = config.blobStore === 's3' ? await restoreObjects(db) : undefined;
  // All or nothing (one transaction); -d names the database, libpq's environment the server and login.
  await runPgTool('pg_restore', [
    '--no-owner',
    '--no-privileges',
    '--exit-on-error',
    '--single-transaction',
    `--dbname=${new URL(ownerUrl).pathname.slice(1)}`,
    `${dir}/database.dump`,
  ], ownerUrl);
  // Idempotent, and over every table now restored (later migrations' tables included).
  await db.sql.unsafe(await Deno.readTextFile(API_ROLE_PRIVILEGES));
  const needed = await list_document_blobs(db.sql);
  let copied = 0;
  if (config.blobStore === 'fs') {
    const root = `${config.dataDir}/blobs`;
    copied = await copyTree(`${dir}/blobs`, root).catch((error) => {
      if (error instanceof Deno.errors.NotFound && needed.length === 0) return 0;
      throw error;
    });
    const missing: string[] = [];
    for (const sha of needed) if (!(await hasBlobFile(root, sha))) missing.push(sha);
    if (missing.length) throw new Error(`${missing.length} document blob(s) missing after the copy`);
  }
  if (objects) {
    // The restored documents are the ones the backup listed: each has its object, checked above.
    const listed = new Set(objects.needed);
    const unlisted = needed.filter((sha) => !listed.has(sha));
    if (unlisted.length) {
      throw new Error(
        `${unlisted.length} document blob(s) not in the backup: ${unlisted.slice(0, 3).join(', ')}`,
      );
    }
  }
  const where = config.blobStore === 'fs'
    ? `${copied} file(s) into ${config.dataDir}/blobs`
    : objects
    ? `${
      objects.copied ? `${objects.copied} object(s) copied into` : 'each found in'
    } bucket ${config.s3?.bucket}`
    : 'inside the database';
  console.log(`Restored ${dir}: the database and ${needed.length} document blob(s) (${where}).`);
} catch (error) {
  console.error(`Restore failed: ${(error as Error).message}`);
  Deno.exitCode = 1;
} finally {
  await db.close();
}

/**
 * BLOB_STORE=s3, before the database: the backup's objects into the bucket (when it holds them), then every
 * document's object checked there. Throws, with nothing restored to the database, when one is missing.
 */
async function restoreObjects(
  db: ReturnType<typeof connectPostgres>,
): Promise<{ needed: string[]; copied: number }> {
  // An fs backup lists no blobs: its files are what it holds (the ones no document names are collected later).
  const needed = manifest.neededBlobs
    ? parseNeeded(await Deno.readTextFile(`${dir}/${manifest.neededBlobs}`))
    : await listBlobFiles(`${dir}/blobs`);
  const store = createBlobStore(config, db);
  const copied = manifest.blobs === 'blobs' ? await copyObjectsIn(store, needed, `${dir}/blobs`) : 0;
  const missing = await missingObjects(store, needed);
  if (missing.length) {
    const hint = manifest.blobs === 'blobs'
      ? ''
      : ' (restore the bucket from its own backup first: its versioning or replication)';
    throw new Error(
      `${missing.length} document object(s) missing from bucket ${config.s3?.bucket}${hint}: ${
        missing.slice(0, 3).join(', ')
      }; the database was not touched`,
    );
  }
  return { needed: needed.map((n) => n.sha256), copied };
}
