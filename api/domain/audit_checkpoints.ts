/**
 * Signed checkpoints of the audit chain: at an interval (AUDIT_CHECKPOINT_SECONDS, a minute) and at shutdown, the
 * chain is extended to every committed row and, when it grew, its size and last hash are signed with the audit
 * key and written outside the database (blobs/audit_checkpoint_store.ts). Someone who can rewrite the database
 * cannot rewrite a checkpoint, nor sign a new one without the key, so whatever a checkpoint covers cannot be
 * changed without `npm run audit:verify` showing it.
 */
import { LOCK_KEYS, with_try_advisory_lock } from '../db/advisory_locks.ts';
import { insert_audit_checkpoint, latest_audit_checkpoint } from '../db/audit_chain.ts';
import type { Sql } from '../db/client.ts';
import { type Checkpoint, checkpointMessage, type CheckpointStore } from '../blobs/audit_checkpoint_store.ts';
import type { Logger } from '../log.ts';
import { extendAuditChain } from './audit_chain.ts';
import { archiveExpiredAuditRows } from './audit_archive.ts';
import type { ArchiveStore } from '../blobs/audit_archive_store.ts';
import type { AuditSigner } from './audit_signing.ts';

export interface CheckpointDeps {
  sql: Sql;
  signer: AuditSigner;
  store: CheckpointStore;
  /** Where rows past audit_retention_days go; unset, none leave the database. */
  archive?: ArchiveStore;
}

export type CheckpointResult =
  | { written: true; checkpoint: Checkpoint; location: string }
  | { written: false; size: number; reason: 'unchanged' | 'busy' };

/**
 * Extends the chain and, when it holds rows the latest checkpoint does not cover, signs and writes a checkpoint.
 * With `exclusive` (several instances on one PostgreSQL) only one instance does it at a time; the others skip.
 */
export async function writeAuditCheckpoint(
  deps: CheckpointDeps,
  options: { exclusive?: boolean } = {},
): Promise<CheckpointResult> {
  if (!options.exclusive) return await checkpoint(deps);
  const outcome = await with_try_advisory_lock(deps.sql, LOCK_KEYS.auditCheckpoint, () => checkpoint(deps));
  return outcome.ran ? outcome.result : { written: false, size: 0, reason: 'busy' };
}

async function checkpoint(deps: CheckpointDeps): Promise<CheckpointResult> {
  const result = await signCheckpoint(deps);
  // Under the same lock: rows past retention that a checkpoint covers move to the archive.
  if (deps.archive) {
    await archiveExpiredAuditRows({ sql: deps.sql, signer: deps.signer, archive: deps.archive });
  }
  return result;
}

async function signCheckpoint(deps: CheckpointDeps): Promise<CheckpointResult> {
  const chain = await extendAuditChain(deps.sql);
  const latest = await latest_audit_checkpoint(deps.sql);
  if (chain.size === 0 || (latest && latest.size >= chain.size)) {
    return { written: false, size: chain.size, reason: 'unchanged' };
  }
  const signedAt = new Date().toISOString();
  const signature = await deps.signer.sign(
    checkpointMessage({ size: chain.size, chainHash: chain.chainHash, signedAt }),
  );
  const made: Checkpoint = {
    version: 1,
    size: chain.size,
    chainHash: chain.chainHash,
    signedAt,
    publicKey: deps.signer.publicKey,
    signature,
  };
  // Outside first: a record in the database without its copy outside would claim a checkpoint nobody can check.
  const location = await deps.store.append(made);
  await insert_audit_checkpoint(deps.sql, {
    size: made.size,
    chainHash: made.chainHash,
    signedAt: new Date(signedAt),
    publicKey: made.publicKey,
    signature,
    location,
  });
  return { written: true, checkpoint: made, location };
}

/**
 * Checkpoints every `intervalMs` (first after one interval: the start's own events are covered by the next) and
 * once more at `stop()`, so a clean shutdown leaves every event it recorded under a signature.
 */
export function startAuditCheckpoints(
  deps: CheckpointDeps & { log: Logger },
  options: { intervalMs: number; exclusive: boolean },
): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const run = (final: boolean) => {
    running = running.then(async () => {
      let result = await writeAuditCheckpoint(deps, { exclusive: options.exclusive });
      // At shutdown, an instance busy checkpointing may have chained before this one's last events committed.
      for (let tries = 0; final && !result.written && result.reason === 'busy' && tries < 10; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        result = await writeAuditCheckpoint(deps, { exclusive: options.exclusive });
      }
      if (result.written) {
        deps.log.info('audit checkpoint', { size: result.checkpoint.size, location: result.location });
      }
    }).catch((error) =>
      deps.log.error('audit checkpoint failed', { error: (error as Error).stack ?? String(error) })
    );
    return running;
  };
  const timer = setInterval(() => run(false), options.intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await run(true);
    },
  };
}
