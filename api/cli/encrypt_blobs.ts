/**
 * `npm run blobs:encrypt`: seals the plaintext blobs of an installation from before BLOB_KEY, in place, while the
 * portal keeps serving on PostgreSQL (on the embedded database, with the portal stopped: it is one process's)
 * (docs/upgrading.md; docs/operations.md, "Keys"). Each document's bytes are sealed under a
 * new data key, recorded, and only then is the plaintext blob removed, one document at a time, so the command may
 * be stopped and run again at any moment: it takes up what is still plaintext. It runs with the portal's own
 * environment (BLOB_KEY, or the DATA_DIR where blob-key is), and checks the key against the database as a start
 * does. Exit codes: 0 every document sealed, 1 some could not be (listed) or the portal runs on the embedded
 * database, 2 a key that does not match.
 */
import { SealedBlobStore } from '../blobs/sealed_store.ts';
import { createBlobStore } from '../blobs/store.ts';
import { loadConfig } from '../config.ts';
import { openDatabaseToWrite } from '../db/open.ts';
import { list_plaintext_digests, list_sealed_digests } from '../db/sealed_blobs.ts';
import { checkDataKeys, keyRefusal } from '../domain/keys.ts';

/** Digests looked up per query. */
const BATCH = 100;

async function main(): Promise<number> {
  const config = loadConfig();
  const opened = await openDatabaseToWrite(config, 'blobs:encrypt');
  if (!opened.ok) {
    console.error(`Nothing was sealed: ${opened.message}.`);
    return 1;
  }
  const db = opened.db;
  try {
    const keys = await checkDataKeys(db.sql, config, 'start');
    if (!keys.ok) {
      console.error(keyRefusal(keys));
      return 2;
    }
    const store = new SealedBlobStore(createBlobStore(config, db), { sql: db.sql, kek: keys.blobKey });
    let sealed = 0;
    const failed: string[] = [];
    for (let after = '';;) {
      const batch = await list_plaintext_digests(db.sql, { after, limit: BATCH });
      if (batch.length === 0) break;
      for (const { sha256 } of batch) {
        try {
          const outcome = await store.sealPlaintext(sha256);
          if (outcome === 'sealed') sealed++;
          else failed.push(`${sha256}: no blob holds it (the document's bytes are missing)`);
        } catch (error) {
          failed.push(`${sha256}: ${(error as Error).message}`);
        }
      }
      after = batch[batch.length - 1].sha256;
      console.log(`Sealed ${sealed} document blob(s) so far.`);
    }
    // A run stopped between recording a sealed blob and removing its plaintext one left that plaintext behind.
    let leftovers = 0;
    for (let after = '';;) {
      const batch = await list_sealed_digests(db.sql, { after, limit: BATCH });
      if (batch.length === 0) break;
      for (const sha256 of batch) if (await store.removePlaintextLeftover(sha256)) leftovers++;
      after = batch[batch.length - 1];
    }
    console.log(
      `Sealed ${sealed} document blob(s) under BLOB_KEY ${keys.blobKey.id}` +
        (leftovers ? `; removed ${leftovers} plaintext blob(s) an earlier run left behind.` : '.'),
    );
    if (failed.length) {
      console.error(
        `${failed.length} document blob(s) could not be sealed:\n${failed.map((f) => `  ${f}`).join('\n')}`,
      );
      return 1;
    }
    console.log('Every document blob is sealed.');
    return 0;
  } finally {
    await db.close();
  }
}

Deno.exit(await main());
