/**
 * `npm run audit:verify`: checks the whole audit log against the signed checkpoints kept outside the database,
 * with the service's own environment (docs/operations.md, "Verifying the audit log"). Exit 0 when every chained
 * row, link and checkpoint holds; 1 naming the first row changed, removed, inserted or reordered and the last
 * checkpoint that still holds; 2 when it could not check (no database, no key). The result is recorded for the
 * admin's Audit Logs screen.
 *
 *   --public-key <base64>   trust checkpoints signed by this key too (a key since replaced); repeatable
 *   --checkpoints <file>    read the checkpoints from this file (a copy of audit-checkpoints.jsonl) instead of
 *                           the configured store
 *   --archive <folder>      read the archive's segments from this folder (a copy of audit-archive/) instead
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { openStoppedDatabase } from '../db/open.ts';
import { insert_audit_verification } from '../db/audit_chain.ts';
import { createCheckpointStore, FileCheckpointStore } from '../blobs/audit_checkpoint_store.ts';
import { createArchiveStore, FolderArchiveStore } from '../blobs/audit_archive_store.ts';
import { keyFingerprint, loadAuditSigner } from '../domain/audit_signing.ts';
import { verifyAuditLog } from '../domain/audit_verify.ts';

const { values } = parseArgs({
  args: Deno.args,
  options: {
    'public-key': { type: 'string', multiple: true },
    checkpoints: { type: 'string' },
    archive: { type: 'string' },
  },
});

const config = loadConfig();
const signer = await loadAuditSigner(config, { create: false });
const trustedKeys = [...(signer ? [signer.publicKey] : []), ...(values['public-key'] ?? [])];
if (!trustedKeys.length) {
  console.error(
    `audit:verify: no key to check the checkpoints with: AUDIT_SIGNING_KEY is not set, ${config.dataDir}/audit-signing-key does not exist, and no --public-key was given`,
  );
  Deno.exit(2);
}
const store = values.checkpoints
  ? new FileCheckpointStore(values.checkpoints)
  : createCheckpointStore(config);
const archive = values.archive ? new FolderArchiveStore(values.archive) : createArchiveStore(config);

let db;
try {
  db = await openStoppedDatabase(config, 'audit:verify');
} catch (error) {
  console.error(`audit:verify: ${(error as Error).message}`);
  Deno.exit(2);
}
let exitCode = 0;
try {
  const stored = await store.list();
  const segments = await archive.list();
  const report = await verifyAuditLog(db.sql, { stored, segments, trustedKeys });
  const keys = await Promise.all(trustedKeys.map(keyFingerprint));
  console.log(
    `audit:verify: ${report.rowsChecked} chained rows (${segments.length} archive segments from ${archive.where}), ${report.checkpointsChecked} checkpoints from ${store.where} (key ${
      keys.join(', ')
    })`,
  );
  if (report.ok) {
    console.log(`ok: ${report.message}`);
  } else {
    exitCode = 1;
    console.log(`FAIL: ${report.firstProblem}`);
    const holds = report.lastGoodCheckpoint;
    console.log(
      holds
        ? `  the last checkpoint that holds: ${holds.signedAt}, ${holds.size} rows`
        : '  no checkpoint holds',
    );
    for (const problem of report.problems.slice(1)) console.log(`  also: ${problem}`);
  }
  await insert_audit_verification(db.sql, {
    ok: report.ok,
    rowsChecked: report.rowsChecked,
    checkpointsChecked: report.checkpointsChecked,
    message: report.message,
  }).catch((error) =>
    console.error(`audit:verify: the result could not be recorded: ${(error as Error).message}`)
  );
} catch (error) {
  console.error(`audit:verify: ${(error as Error).message}`);
  exitCode = 2;
} finally {
  await db.close();
}
Deno.exit(exitCode);
