/**
 * Audit retention: rows older than `audit_retention_days` (at least 365, the CJIS year) that a signed checkpoint
 * already covers leave the database, oldest first, as signed segments of the chain written to the archive
 * (blobs/audit_archive_store.ts) before they are removed. The chain's last link always stays, so the chain goes
 * on from it; `npm run audit:verify` checks the archive and the table as one chain.
 */
import {
  archive_audit_rows,
  find_audit_archive_ending,
  first_audit_chain_position,
  insert_audit_archive,
  latest_audit_checkpoint,
  list_audit_chain,
} from '../db/audit_chain.ts';
import type { Sql } from '../db/client.ts';
import { get_setting } from '../db/settings.ts';
import type { ArchiveSegment, ArchiveStore } from '../blobs/audit_archive_store.ts';
import { GENESIS_HASH } from './audit_chain.ts';
import { type AuditSigner, canonicalJson } from './audit_signing.ts';

/** Rows per segment: a file of a few megabytes. */
export const SEGMENT_ROWS = 5000;

/** The text a segment's signature covers. */
export function segmentMessage(segment: Omit<ArchiveSegment, 'signature'>): string {
  const { signature: _ignored, ...body } = segment as ArchiveSegment;
  return `legal-mail-portal audit archive v1\n${canonicalJson(body)}`;
}

/** Archives and removes the rows past retention, a segment at a time; answers how many left the database. */
export async function archiveExpiredAuditRows(
  deps: { sql: Sql; signer: AuditSigner; archive: ArchiveStore },
  options: { now?: Date } = {},
): Promise<number> {
  const days = await get_setting(deps.sql, 'audit_retention_days');
  const cutoffUs = BigInt((options.now ?? new Date()).getTime() - days * 86_400_000) * 1000n;
  let archived = 0;
  for (;;) {
    const latest = await latest_audit_checkpoint(deps.sql);
    const first = await first_audit_chain_position(deps.sql);
    if (!latest || first === 0) return archived;
    const links = await list_audit_chain(deps.sql, { afterPosition: first - 1, limit: SEGMENT_ROWS });
    const rows: ArchiveSegment['rows'] = [];
    for (const link of links) {
      // Only rows a checkpoint covers, never the checkpoint's own last row (the chain goes on from it), and
      // only a prefix of the chain: a row still in retention stops the segment.
      if (link.position >= latest.size || !link.row || BigInt(link.row.created_us) >= cutoffUs) break;
      rows.push({
        position: link.position,
        rowHash: link.rowHash,
        chainHash: link.chainHash,
        content: link.row,
      });
    }
    if (!rows.length) return archived;
    const previous = first === 1
      ? GENESIS_HASH
      : (await find_audit_archive_ending(deps.sql, first - 1))?.lastChainHash;
    if (!previous) throw new Error(`no archive segment ends at chain position ${first - 1}`);
    const body: Omit<ArchiveSegment, 'signature'> = {
      version: 1,
      fromPosition: rows[0].position,
      toPosition: rows.at(-1)!.position,
      previousChainHash: previous,
      lastChainHash: rows.at(-1)!.chainHash,
      rows,
      signedAt: new Date().toISOString(),
      publicKey: deps.signer.publicKey,
    };
    const segment: ArchiveSegment = { ...body, signature: await deps.signer.sign(segmentMessage(body)) };
    const location = await deps.archive.write(segment);
    await deps.sql.begin(async (tx) => {
      await insert_audit_archive(tx, {
        fromPosition: segment.fromPosition,
        toPosition: segment.toPosition,
        lastChainHash: segment.lastChainHash,
        signedAt: new Date(segment.signedAt),
        location,
      });
      archived += await archive_audit_rows(tx, segment.toPosition);
    });
    if (rows.length < SEGMENT_ROWS) return archived;
  }
}
