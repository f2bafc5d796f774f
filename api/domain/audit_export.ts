/**
 * The audit CSV export's rows that retention moved to the archive (domain/audit_archive.ts). An export whose start
 * date reaches before the table's oldest row also reads the archived segments, newest first, with the same filter
 * and the same scope as the table's rows, after the table's: the rows of one date range come out whether they are
 * still in the database or already archived. Each segment's signature is checked first; a segment missing or
 * signed otherwise than by the portal's key ends the export with an error rather than leaving its rows out
 * unsaid (`npm run audit:verify` names it).
 */
import type { ArchiveStore } from '../blobs/audit_archive_store.ts';
import { list_audit_archives } from '../db/audit_chain.ts';
import {
  type AuditExportRow,
  type AuditFilter,
  list_entity_user_ids,
  oldest_audit_log_time,
} from '../db/audit_search.ts';
import type { Tx } from '../db/client.ts';
import { segmentMessage } from './audit_archive.ts';
import { verifySignature } from './audit_signing.ts';

/** Whether the export reads the archive: its start date is before the table's oldest row (or the table is empty). */
export async function exportReachesArchive(sql: Tx, filter: AuditFilter): Promise<boolean> {
  if (!filter.from) return false;
  const oldest = await oldest_audit_log_time(sql);
  return oldest === null || filter.from < oldest;
}

/** The microseconds since 1970 of a date, as the chain's rows keep their time. */
const microseconds = (date: Date) => BigInt(date.getTime()) * 1000n;

/**
 * The archived rows matching `filter`, one segment's batch at a time, newest first, in the export's columns. Throws
 * when a recorded segment cannot be read or its signature does not hold by `trustedKey`.
 */
export async function* archivedExportRows(
  deps: { sql: Tx; archive: ArchiveStore; trustedKey: string },
  filter: AuditFilter,
): AsyncGenerator<AuditExportRow[]> {
  const from = filter.from ? microseconds(filter.from) : undefined;
  const before = filter.before ? microseconds(filter.before) : undefined;
  // Below the lowest chain position already given: two segments never give one row twice.
  let below = Number.MAX_SAFE_INTEGER;
  for (const record of await list_audit_archives(deps.sql)) {
    const stored = await deps.archive.read(record.location);
    const segment = stored.segment;
    if (!segment) throw new Error(stored.problem ?? `${stored.location} cannot be read`);
    const holds = segment.publicKey === deps.trustedKey &&
      await verifySignature(segment.publicKey, segmentMessage(segment), segment.signature);
    if (!holds) throw new Error(`${stored.location} does not match the portal's audit key's signature`);
    const rows = segment.rows
      .filter((r) => r.position < below)
      .map((r) => r.content)
      .filter((c) => {
        const at = BigInt(c.created_us);
        return (from === undefined || at >= from) && (before === undefined || at < before) &&
          (!filter.eventType || c.event_type === filter.eventType) &&
          (!filter.userId || c.user_id === filter.userId.toLowerCase());
      });
    below = Math.min(below, segment.fromPosition);
    const named = [...new Set(rows.map((c) => c.user_id).filter((id): id is string => id !== null))];
    const inScope = await list_entity_user_ids(deps.sql, filter.scope.entityId, named);
    const batch = rows
      .filter((c) => (c.user_id === null ? filter.scope.unattributed : inScope.has(c.user_id)))
      .sort((a, b) => {
        const at = BigInt(b.created_us) - BigInt(a.created_us);
        return at !== 0n ? (at > 0n ? 1 : -1) : Number(BigInt(b.id) - BigInt(a.id));
      })
      .map((c) => ({
        id: c.id,
        created_at: new Date(Number(BigInt(c.created_us) / 1000n)).toISOString(),
        user_id: c.user_id,
        event_type: c.event_type,
        resource_type: c.resource_type,
        ip_address: c.ip_address,
        event_data: c.event_data,
      }));
    if (batch.length) yield batch;
  }
}
