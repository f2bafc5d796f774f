/**
 * The audit log's hash chain. Each audit row, once committed, gets the next position in one chain: its content
 * hash (SHA-256 of the row's columns in a fixed form) and the chain hash (SHA-256 of the previous link's chain hash
 * and this content hash). Changing, removing or reordering a chained row breaks every chain hash after it, which a
 * signed checkpoint outside the database then shows (audit_checkpoints.ts).
 *
 * Rows are chained after their commit by one job at a time (an advisory lock, across instances), not as they are
 * written: writing an event (every sign-in writes one) costs nothing more, and concurrent transactions never wait
 * for a chain head held until each one commits (docs/security.md, "The audit log's chain").
 */
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { LOCK_KEYS } from '../db/advisory_locks.ts';
import {
  audit_chain_tail,
  type ChainLink,
  type ChainRowContent,
  insert_audit_chain_links,
  LATE_COMMIT_ID_MARGIN,
  list_unchained_audit_rows,
  lock_audit_chain,
} from '../db/audit_chain.ts';
import type { Sql } from '../db/client.ts';

/** The chain hash before the first row. */
export const GENESIS_HASH = '0'.repeat(64);

/** Rows chained per transaction: a short transaction, and a first run over a large log in steps. */
const CHAIN_BATCH = 2000;

/** SHA-256 of the row's columns, in a fixed order, as one JSON array (the version names the form). */
export function rowHash(row: ChainRowContent): string {
  const content = JSON.stringify([
    'audit-row-v1',
    row.id,
    row.created_us,
    row.user_id,
    row.event_type,
    row.resource_type,
    row.resource_id,
    row.ip_address,
    row.event_data,
  ]);
  return createHash('sha256').update(content).digest('hex');
}

/** The chain hash after a row: SHA-256 of the previous chain hash and the row's hash (both as bytes). */
export function chainHash(previous: string, row: string): string {
  return createHash('sha256').update(Buffer.from(previous, 'hex')).update(Buffer.from(row, 'hex')).digest(
    'hex',
  );
}

/** Chains every committed row the chain does not hold yet; answers the chain's size and last hash. */
export async function extendAuditChain(
  sql: Sql,
): Promise<{ size: number; chainHash: string; added: number }> {
  let added = 0;
  for (;;) {
    const step = await sql.begin(async (tx) => {
      await lock_audit_chain(tx, LOCK_KEYS.auditChain);
      const tail = await audit_chain_tail(tx);
      const above = tail.maxAuditId === null
        ? '0'
        : String(BigInt(tail.maxAuditId) - BigInt(LATE_COMMIT_ID_MARGIN));
      const rows = await list_unchained_audit_rows(tx, { aboveId: above, limit: CHAIN_BATCH });
      let previous = tail.chainHash ?? GENESIS_HASH;
      const links: ChainLink[] = rows.map((row, i) => {
        const hash = rowHash(row);
        previous = chainHash(previous, hash);
        return { position: tail.size + i + 1, auditId: row.id, rowHash: hash, chainHash: previous };
      });
      await insert_audit_chain_links(tx, links);
      return { size: tail.size + links.length, chainHash: previous, added: links.length };
    });
    added += step.added;
    if (step.added < CHAIN_BATCH) return { size: step.size, chainHash: step.chainHash, added };
  }
}
