/**
 * Verifies the audit log: every chained row against its hash, the chain's links against each other, and the
 * chain against every signed checkpoint kept outside the database. Answers whether the log holds and, when it
 * does not, the first row changed, removed, inserted or reordered and the last checkpoint that still holds.
 */
import {
  audit_chain_tail,
  count_unchained_audit_rows,
  list_audit_chain,
  list_rows_missing_from_chain,
  type StoredLink,
} from '../db/audit_chain.ts';
import type { Tx } from '../db/client.ts';
import {
  type Checkpoint,
  checkpointMessage,
  type StoredCheckpoint,
} from '../blobs/audit_checkpoint_store.ts';
import { chainHash, GENESIS_HASH, rowHash } from './audit_chain.ts';
import type { ArchiveSegment, StoredSegment } from '../blobs/audit_archive_store.ts';
import { segmentMessage } from './audit_archive.ts';
import { keyFingerprint, verifySignature } from './audit_signing.ts';

/** Links read per query. */
const VERIFY_BATCH = 5000;
/**
 * A row missing from the chain below rows already chained is a row inserted behind its back, unless its
 * transaction was still open when the chain passed it; no request's transaction stays open this long.
 */
const LATE_COMMIT_GRACE_MS = 10 * 60 * 1000;
/** Problems listed in a report (the first names the verdict; the rest help the investigation). */
const MAX_PROBLEMS = 20;

export interface VerifyReport {
  ok: boolean;
  rowsChecked: number;
  checkpointsChecked: number;
  /** The first problem, in the chain's order; undefined when the log holds. */
  firstProblem?: string;
  problems: string[];
  /** The last checkpoint whose rows all still hold. */
  lastGoodCheckpoint?: Checkpoint;
  /** Rows written since the chain last ran: not covered yet, not a problem. */
  pendingRows: number;
  /** A one-line summary (recorded, and shown on the Audit Logs screen). */
  message: string;
}

/** Verifies the database's chain against `stored` checkpoints, trusting checkpoints signed by `trustedKeys`. */
export async function verifyAuditLog(
  sql: Tx,
  options: { stored: StoredCheckpoint[]; segments?: StoredSegment[]; trustedKeys: string[]; now?: Date },
): Promise<VerifyReport> {
  const problems: { position: number; text: string }[] = [];
  const note = (position: number, text: string) => problems.push({ position, text });

  // The checkpoints: readable, signed by a trusted key, in order of size.
  const checkpoints: Checkpoint[] = [];
  for (const stored of options.stored) {
    if (!stored.checkpoint) {
      note(0, stored.problem!);
      continue;
    }
    const c = stored.checkpoint;
    if (!options.trustedKeys.includes(c.publicKey)) {
      note(
        0,
        `the checkpoint in ${stored.location} is signed by another key (${await keyFingerprint(
          c.publicKey,
        )}), not this installation's`,
      );
      continue;
    }
    if (!(await verifySignature(c.publicKey, checkpointMessage(c), c.signature))) {
      note(0, `the checkpoint in ${stored.location} does not match its signature: it was changed`);
      continue;
    }
    checkpoints.push(c);
  }
  checkpoints.sort((a, b) => a.size - b.size || a.signedAt.localeCompare(b.signedAt));
  const bySize = new Map<number, Checkpoint[]>();
  for (const c of checkpoints) bySize.set(c.size, [...(bySize.get(c.size) ?? []), c]);

  // The chain, recomputed from the rows themselves: first the archive's, then the table's.
  let previous = GENESIS_HASH;
  let expected = 1;
  let lastGood: Checkpoint | undefined;
  let firstBroken = Infinity;
  let rows = 0;
  const atCheckpoints = (position: number) => {
    for (const c of bySize.get(position) ?? []) {
      if (c.chainHash === previous) {
        if (position < firstBroken) lastGood = c;
      } else {
        note(
          position,
          `the checkpoint of ${c.signedAt} (${c.size} rows) does not hold: a row at or before chain position ${c.size} was changed, removed, inserted or reordered`,
        );
        firstBroken = Math.min(firstBroken, position);
      }
    }
  };
  const segments: { location: string; segment: ArchiveSegment }[] = [];
  for (const stored of options.segments ?? []) {
    if (!stored.segment) {
      note(0, stored.problem!);
      continue;
    }
    const seg = stored.segment;
    if (!options.trustedKeys.includes(seg.publicKey)) {
      note(0, `the archive segment ${stored.location} is signed by another key, not this installation's`);
      continue;
    }
    if (!(await verifySignature(seg.publicKey, segmentMessage(seg), seg.signature))) {
      note(0, `the archive segment ${stored.location} does not match its signature: it was changed`);
      continue;
    }
    segments.push({ location: stored.location, segment: seg });
  }
  segments.sort((a, b) => a.segment.fromPosition - b.segment.fromPosition);
  for (const { location, segment } of segments) {
    if (segment.fromPosition !== expected || segment.previousChainHash !== previous) {
      note(
        expected,
        `the archive segment ${location} does not continue the chain at position ${expected}: a segment is missing`,
      );
      firstBroken = Math.min(firstBroken, expected);
    }
    for (const row of segment.rows) {
      rows++;
      previous = chainHash(previous, rowHash(row.content));
      atCheckpoints(row.position);
      expected = row.position + 1;
    }
    if (previous !== segment.lastChainHash) {
      note(segment.fromPosition, `the archive segment ${location} does not hold its own chain`);
      firstBroken = Math.min(firstBroken, segment.fromPosition);
    }
  }
  for (;;) {
    const links: StoredLink[] = await list_audit_chain(sql, {
      afterPosition: expected - 1,
      limit: VERIFY_BATCH,
    });
    if (!links.length) break;
    for (const link of links) {
      if (link.position !== expected) {
        note(
          expected,
          `chain positions ${expected} to ${
            link.position - 1
          } are missing: links were removed from the chain`,
        );
        firstBroken = Math.min(firstBroken, expected);
      }
      rows++;
      const where = `row ${link.auditId} (chain position ${link.position})`;
      if (!link.row) {
        note(link.position, `${where} was removed from audit_logs`);
        firstBroken = Math.min(firstBroken, link.position);
        // The stored hash carries the chain on, so what follows is still checked.
        previous = chainHash(previous, link.rowHash);
      } else {
        const hash = rowHash(link.row);
        if (hash !== link.rowHash) {
          note(link.position, `${where} was changed after it was chained`);
          firstBroken = Math.min(firstBroken, link.position);
        }
        previous = chainHash(previous, hash);
        if (previous !== link.chainHash && hash === link.rowHash && firstBroken > link.position) {
          note(
            link.position,
            `the chain was rewritten at ${where}: a row before it was changed, removed, inserted or reordered`,
          );
          firstBroken = Math.min(firstBroken, link.position);
        }
      }
      atCheckpoints(link.position);
      expected = link.position + 1;
    }
  }
  const size = expected - 1;
  for (const c of checkpoints.filter((c) => c.size > size)) {
    note(
      size + 1,
      `the checkpoint of ${c.signedAt} covers ${c.size} rows but the chain holds ${size}: rows were removed from its end, or this database is older than the checkpoint (a restore of an earlier backup)`,
    );
  }

  // Rows the chain passed by: inserted behind its back (or with an id the chain job no longer looks at).
  const tail = await audit_chain_tail(sql);
  let inserted = 0;
  if (tail.maxAuditId !== null && tail.lastChainedAt) {
    const before = new Date(
      Math.min(tail.lastChainedAt.getTime(), (options.now ?? new Date()).getTime()) - LATE_COMMIT_GRACE_MS,
    );
    const missing = await list_rows_missing_from_chain(sql, {
      belowId: tail.maxAuditId,
      before,
      limit: MAX_PROBLEMS,
    });
    inserted = missing.length;
    for (const row of missing) {
      note(
        size + 1,
        `row ${row.id} (${row.created_at.toISOString()}) is not in the chain though later rows are: it was inserted behind the chain's back`,
      );
    }
  }
  const pending = await count_unchained_audit_rows(sql);
  const pendingRows = Number(pending) - inserted;

  problems.sort((a, b) => a.position - b.position);
  const texts = problems.slice(0, MAX_PROBLEMS).map((p) => p.text);
  const holds = lastGood
    ? `the last checkpoint that holds: ${lastGood.signedAt} (${lastGood.size} rows)`
    : 'no checkpoint holds';
  const message = texts.length
    ? `${texts[0]}; ${holds}`
    : `${rows} rows and ${checkpoints.length} checkpoints hold${
      lastGood ? ` (the latest of ${lastGood.signedAt}, ${lastGood.size} rows)` : ''
    }${pendingRows > 0 ? `; ${pendingRows} newer rows not yet chained` : ''}`;
  return {
    ok: texts.length === 0,
    rowsChecked: rows,
    checkpointsChecked: checkpoints.length,
    firstProblem: texts[0],
    problems: texts,
    lastGoodCheckpoint: lastGood,
    pendingRows: Math.max(0, pendingRows),
    message,
  };
}
