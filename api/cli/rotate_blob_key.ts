/**
 * `BLOB_KEY_PREVIOUS=old BLOB_KEY=new npm run keys:rotate-blob`: wraps every document's data key again under the
 * new BLOB_KEY and records the new key's fingerprint, in one transaction, with the portal stopped
 * (docs/operations.md, "Rotating a key"). No blob is read or rewritten: the documents' bytes stay sealed under their
 * own data keys, which do not change; afterwards the old key opens nothing and may be destroyed.
 * Exit codes: 0 rotated, 1 refused (a key that does not match the data, or the portal running on the embedded
 * database), 2 bad usage.
 */
import { unwrapDataKey, wrapDataKey } from '../blobs/blob_key.ts';
import { loadConfig } from '../config.ts';
import { openDatabaseToWrite } from '../db/open.ts';
import {
  find_key_fingerprint,
  insert_key_fingerprint,
  update_key_fingerprint,
} from '../db/key_fingerprints.ts';
import { lock_wrapped_keys, update_wrapped_key } from '../db/sealed_blobs.ts';
import { blobKekOf, keyFingerprint } from '../domain/keys.ts';

const NAME = 'BLOB_KEY';

async function main(): Promise<number> {
  const config = loadConfig();
  if (!config.blobKey || !config.blobKeyPrevious) {
    console.error(
      'Set BLOB_KEY_PREVIOUS to the key in use and BLOB_KEY to the new one (docs/operations.md, "Rotating a key").',
    );
    return 2;
  }
  if (config.blobKey === config.blobKeyPrevious) {
    console.error('BLOB_KEY and BLOB_KEY_PREVIOUS are the same key: nothing to rotate.');
    return 2;
  }
  const encoder = new TextEncoder();
  const fromSecret = encoder.encode(config.blobKeyPrevious);
  const toSecret = encoder.encode(config.blobKey);
  const [from, to] = await Promise.all([blobKekOf(fromSecret), blobKekOf(toSecret)]);
  const [fromPrint, toPrint] = await Promise.all([
    keyFingerprint(NAME, fromSecret),
    keyFingerprint(NAME, toSecret),
  ]);
  const opened = await openDatabaseToWrite(config, 'keys:rotate-blob');
  if (!opened.ok) {
    console.error(`Nothing was changed: ${opened.message}.`);
    return 1;
  }
  const db = opened.db;
  try {
    const stored = await find_key_fingerprint(db.sql, NAME);
    if (stored === toPrint) {
      console.log('The database is already under the new BLOB_KEY: nothing to do.');
      return 0;
    }
    if (stored && stored !== fromPrint) {
      console.error(
        'BLOB_KEY_PREVIOUS does not match this database: it is not the key its documents were sealed under. ' +
          'Nothing was changed.',
      );
      return 1;
    }
    const result = await db.sql.begin(async (tx) => {
      const rows = await lock_wrapped_keys(tx);
      for (const row of rows) {
        const raw = row.key_id === from.id ? await unwrapDataKey(from, row.wrapped_key, row.name) : undefined;
        if (!raw) throw new Refused(`the data key of blob ${row.name} does not open under it`);
        await update_wrapped_key(tx, row.sha256, { keyId: to.id, key: await wrapDataKey(to, raw, row.name) });
        raw.fill(0);
      }
      const moved = stored
        ? await update_key_fingerprint(tx, NAME, { from: stored, to: toPrint })
        : (await insert_key_fingerprint(tx, NAME, toPrint)) === toPrint;
      if (!moved) throw new Refused('another rotation changed the fingerprint meanwhile');
      return rows.length;
    }).catch((error) => {
      if (error instanceof Refused) return error;
      throw error;
    });
    if (result instanceof Refused) {
      console.error(`BLOB_KEY_PREVIOUS: ${result.message}. Nothing was changed.`);
      return 1;
    }
    console.log(
      `Wrapped the data keys of ${result} document blob(s) under the new BLOB_KEY; no blob was rewritten.`,
    );
    console.log(
      "Now set BLOB_KEY to the new key in the service's environment, remove BLOB_KEY_PREVIOUS and start the portal.",
    );
    return 0;
  } finally {
    await db.close();
  }
}

class Refused extends Error {}

Deno.exit(await main());
