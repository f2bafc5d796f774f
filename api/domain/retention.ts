/**
 * Retention: documents past their delete date (upload + `document_retention_days`, the
 * setting as it is now), and those of offenders released or transferred `release_purge_days` ago, are deleted,
 * each audited as 'document_deleted', then the blobs no readable document refers to. A deleted document stays a
 * tombstone (no bytes, no description, no metadata) in its sender's list for one more retention period, so the
 * sender sees it Deleted; then the row goes too. Runs at start-up and every hour. Never touches audit_logs rows.
 * Several instances on one PostgreSQL: whichever takes the advisory lock purges, the others skip that round.
 */
import { LOCK_KEYS, with_try_advisory_lock } from '../db/advisory_locks.ts';
import { insert_audit_event } from '../db/audit.ts';
import {
  delete_expired_documents,
  delete_old_tombstones,
  delete_released_recipients_documents,
  referenced_blobs,
} from '../db/documents.ts';
import { forget_lapsed_session_keys } from '../db/sessions.ts';
import type { AppDeps } from '../deps.ts';
import { createLogger } from '../log.ts';

/** An hour: far longer than any upload takes between storing its blob and committing its row. */
export const BLOB_GRACE_MS = 60 * 60 * 1000;
export const PURGE_INTERVAL_MS = 60 * 60 * 1000;
/** Digests asked about per query. */
const GC_BATCH = 500;

export interface PurgeResult {
  documents: number;
  blobs: number;
  /** True when another instance held the purge lock, so this one did nothing. */
  skipped?: boolean;
}

export interface PurgeOptions {
  blobGraceMs?: number;
  /** Take the cross-instance lock first (a real PostgreSQL server; the embedded one is one process). */
  exclusive?: boolean;
}

/**
 * Deletes expired documents, then unreferenced blobs older than `blobGraceMs`; with `exclusive`, only when no
 * other instance is purging (Postgres' row locks already make each document's deletion and audit happen once;
 * the lock spares the others the work and the blob collection's races).
 */
export async function purgeExpiredDocuments(
  deps: Pick<AppDeps, 'sql' | 'blobs'>,
  options: PurgeOptions = {},
): Promise<PurgeResult> {
  if (!options.exclusive) return await purge(deps, options.blobGraceMs);
  const outcome = await with_try_advisory_lock(
    deps.sql,
    LOCK_KEYS.retentionPurge,
    () => purge(deps, options.blobGraceMs),
  );
  return outcome.ran ? outcome.result : { documents: 0, blobs: 0, skipped: true };
}

async function purge(
  deps: Pick<AppDeps, 'sql' | 'blobs'>,
  blobGraceMs: number | undefined,
): Promise<PurgeResult> {
  const deleted = await deps.sql.begin(async (tx) => {
    const expired = await delete_expired_documents(tx);
    const released = await delete_released_recipients_documents(tx);
    const reasons = [
      ...expired.map((row) => ({ row, reason: 'retention' })),
      ...released.map((row) => ({ row, reason: 'recipient_released' })),
    ];
    for (const { row, reason } of reasons) {
      await insert_audit_event(tx, {
        userId: null,
        eventType: 'document_deleted',
        resourceType: 'document',
        resourceId: row.id,
        ipAddress: null,
        eventData: { title: row.title, sha256: row.sha256, reason },
      });
    }
    // Tombstones past their time in the senders' lists: the deletion was audited when it happened.
    await delete_old_tombstones(tx);
    return reasons;
  });
  const blobs = await collectBlobs(deps, blobGraceMs ?? BLOB_GRACE_MS);
  // The hourly round also destroys the offline data keys of sessions that lapsed unseen.
  await forget_lapsed_session_keys(deps.sql);
  return { documents: deleted.length, blobs };
}

/** Removes blobs no document refers to (only the committed rows count: blob first, row second). */
async function collectBlobs(deps: Pick<AppDeps, 'sql' | 'blobs'>, graceMs: number): Promise<number> {
  const before = new Date(Date.now() - graceMs);
  // Listed in full before deleting: removing entries from a directory being read is unspecified.
  const candidates: string[] = [];
  for await (const blob of deps.blobs.list()) if (blob.touchedAt <= before) candidates.push(blob.sha256);
  let removed = 0;
  for (let at = 0; at < candidates.length; at += GC_BATCH) {
    const batch = candidates.slice(at, at + GC_BATCH);
    const used = await referenced_blobs(deps.sql, batch);
    for (const sha of batch) {
      if (used.has(sha)) continue;
      // Unless re-put since the listing: an upload of the same bytes may be committing its row right now.
      if (await deps.blobs.delete(sha, before)) removed++;
    }
  }
  await deps.blobs.sweepTemporary(new Date(Date.now() - Math.max(graceMs, BLOB_GRACE_MS)));
  return removed;
}

/** Purges now and every hour; `stop` waits for a purge in progress. */
export function startRetentionPurge(
  deps: Pick<AppDeps, 'sql' | 'blobs' | 'config' | 'log'>,
  options: Pick<PurgeOptions, 'exclusive'> = {},
): { stop(): Promise<void> } {
  const log = deps.log ?? createLogger(deps.config);
  let running: Promise<unknown> = Promise.resolve();
  const run = () => {
    running = running.then(() => purgeExpiredDocuments(deps, options)).then((r) => {
      if (r.documents || r.blobs) log.info('retention purge', { documents: r.documents, blobs: r.blobs });
    }).catch((error) =>
      log.error('retention purge failed', { error: (error as Error).stack ?? String(error) })
    );
  };
  run();
  const timer = setInterval(run, PURGE_INTERVAL_MS);
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
