/**
 * The audit log's hash chain (audit_chain), the record of its signed checkpoints (audit_checkpoints) and of its
 * verifications (audit_verifications). The hashing itself is domain/audit_chain.ts.
 */
import type { Tx } from './client.ts';

/**
 * An audit row as the chain hashes it: every column as text, in a form that does not depend on the session's
 * settings (the time as microseconds since 1970, the event data as jsonb's own normalised text).
 */
export interface ChainRowContent {
  id: string;
  created_us: string;
  user_id: string | null;
  event_type: string;
  resource_type: string;
  resource_id: string | null;
  ip_address: string | null;
  event_data: string;
}

/** The end of the chain: how many links, and the last one. */
export interface ChainTail {
  size: number;
  chainHash: string | null;
  /** The highest audit row id chained so far. */
  maxAuditId: string | null;
  lastChainedAt: Date | null;
}

export interface ChainLink {
  position: number;
  auditId: string;
  rowHash: string;
  chainHash: string;
}

/**
 * How far below the highest chained id the chain job still looks for rows to chain: a row gets its id when it is
 * inserted and becomes visible when its transaction commits, so a row may appear below ids already chained. Far
 * more audit rows than are written while one request's transaction is open.
 */
export const LATE_COMMIT_ID_MARGIN = 10_000;

const CONTENT_COLUMNS = `a.id::text as id,
  (extract(epoch from a.created_at) * 1000000)::bigint::text as created_us,
  a.user_id::text as user_id, a.event_type, a.resource_type, a.resource_id, a.ip_address,
  a.event_data::text as event_data`;

/** Serialises the chain's writers, across instances, until the transaction ends. */
export async function lock_audit_chain(tx: Tx, key: number): Promise<void> {
  await tx`select pg_advisory_xact_lock(${key})`;
}

/** The chain's last link and size (0 when nothing is chained yet). */
export async function audit_chain_tail(tx: Tx): Promise<ChainTail> {
  const [last] = await tx<{ position: string; chain_hash: string; chained_at: Date }[]>`
    select c.position::text as position, c.chain_hash, c.chained_at from audit_chain c
    order by c.position desc limit 1`;
  if (!last) return { size: 0, chainHash: null, maxAuditId: null, lastChainedAt: null };
  const [{ max }] = await tx<{ max: string | null }[]>`select max(audit_id)::text as max from audit_chain`;
  return {
    size: Number(last.position),
    chainHash: last.chain_hash,
    maxAuditId: max,
    lastChainedAt: last.chained_at,
  };
}

/** Committed audit rows the chain does not hold yet, lowest id first, at most `limit`. */
export function list_unchained_audit_rows(
  tx: Tx,
  options: { aboveId: string; limit: number },
): Promise<ChainRowContent[]> {
  return tx.unsafe<ChainRowContent[]>(
    `select ${CONTENT_COLUMNS} from audit_logs a
     where a.id > $1::bigint and not exists (select 1 from audit_chain c where c.audit_id = a.id)
     order by a.id limit $2`,
    [options.aboveId, options.limit],
  );
}

/** Appends links (positions following the tail). */
export async function insert_audit_chain_links(tx: Tx, links: ChainLink[]): Promise<void> {
  if (!links.length) return;
  await tx`insert into audit_chain ${
    tx(links.map((l) => ({
      position: l.position,
      audit_id: l.auditId,
      row_hash: l.rowHash,
      chain_hash: l.chainHash,
    })))
  }`;
}

/** A link with the row it names, as verification reads it (`row` null: the row is gone from audit_logs). */
export interface StoredLink {
  position: number;
  auditId: string;
  rowHash: string;
  chainHash: string;
  row: ChainRowContent | null;
}

/** Links after `afterPosition`, in order, with their rows (a left join: a removed row still has its link). */
export async function list_audit_chain(
  tx: Tx,
  options: { afterPosition: number; limit: number },
): Promise<StoredLink[]> {
  const rows = await tx.unsafe<
    (
      & { position: string; audit_id: string; row_hash: string; chain_hash: string; present: boolean }
      & ChainRowContent
    )[]
  >(
    `select c.position::text as position, c.audit_id::text as audit_id, c.row_hash, c.chain_hash,
            a.id is not null as present, ${CONTENT_COLUMNS}
     from audit_chain c left join audit_logs a on a.id = c.audit_id
     where c.position > $1::bigint order by c.position limit $2`,
    [options.afterPosition, options.limit],
  );
  return rows.map((r) => ({
    position: Number(r.position),
    auditId: r.audit_id,
    rowHash: r.row_hash,
    chainHash: r.chain_hash,
    row: r.present
      ? {
        id: r.id,
        created_us: r.created_us,
        user_id: r.user_id,
        event_type: r.event_type,
        resource_type: r.resource_type,
        resource_id: r.resource_id,
        ip_address: r.ip_address,
        event_data: r.event_data,
      }
      : null,
  }));
}

/** Audit rows the chain does not hold, with ids below `belowId` and written before `before`: at most `limit`. */
export function list_rows_missing_from_chain(
  tx: Tx,
  options: { belowId: string; before: Date; limit: number },
): Promise<{ id: string; created_at: Date }[]> {
  return tx<{ id: string; created_at: Date }[]>`
    select a.id::text as id, a.created_at from audit_logs a
    where a.id < ${options.belowId}::bigint and a.created_at < ${options.before}
      and not exists (select 1 from audit_chain c where c.audit_id = a.id)
    order by a.id limit ${options.limit}`;
}

/** Audit rows the chain does not hold yet. */
export async function count_unchained_audit_rows(tx: Tx): Promise<number> {
  const [{ n }] = await tx<{ n: string }[]>`
    select count(*)::text as n from audit_logs a
    where not exists (select 1 from audit_chain c where c.audit_id = a.id)`;
  return Number(n);
}

export interface CheckpointRecord {
  size: number;
  chainHash: string;
  signedAt: Date;
  publicKey: string;
  signature: string;
  location: string;
}

/** Records a checkpoint written outside the database. */
export async function insert_audit_checkpoint(tx: Tx, checkpoint: CheckpointRecord): Promise<void> {
  await tx`
    insert into audit_checkpoints (size, chain_hash, signed_at, public_key, signature, location)
    values (${checkpoint.size}, ${checkpoint.chainHash}, ${checkpoint.signedAt}, ${checkpoint.publicKey},
            ${checkpoint.signature}, ${checkpoint.location})`;
}

/** The checkpoint covering the most rows, or undefined before the first. */
export async function latest_audit_checkpoint(tx: Tx): Promise<CheckpointRecord | undefined> {
  const [row] = await tx<
    {
      size: string;
      chain_hash: string;
      signed_at: Date;
      public_key: string;
      signature: string;
      location: string;
    }[]
  >`select k.size::text as size, k.chain_hash, k.signed_at, k.public_key, k.signature, k.location
    from audit_checkpoints k order by k.size desc, k.id desc limit 1`;
  return row
    ? {
      size: Number(row.size),
      chainHash: row.chain_hash,
      signedAt: row.signed_at,
      publicKey: row.public_key,
      signature: row.signature,
      location: row.location,
    }
    : undefined;
}

export interface VerificationRecord {
  verifiedAt: Date;
  ok: boolean;
  rowsChecked: number;
  checkpointsChecked: number;
  message: string;
}

/** Records one verification's result. */
export async function insert_audit_verification(
  tx: Tx,
  result: Omit<VerificationRecord, 'verifiedAt'>,
): Promise<void> {
  await tx`
    insert into audit_verifications (ok, rows_checked, checkpoints_checked, message)
    values (${result.ok}, ${result.rowsChecked}, ${result.checkpointsChecked}, ${result.message})`;
}

/** The latest verification, or undefined when the log was never verified. */
export async function latest_audit_verification(tx: Tx): Promise<VerificationRecord | undefined> {
  const [row] = await tx<
    { verified_at: Date; ok: boolean; rows_checked: string; checkpoints_checked: number; message: string }[]
  >`select v.verified_at, v.ok, v.rows_checked::text as rows_checked, v.checkpoints_checked, v.message
    from audit_verifications v order by v.verified_at desc, v.id desc limit 1`;
  return row
    ? {
      verifiedAt: row.verified_at,
      ok: row.ok,
      rowsChecked: Number(row.rows_checked),
      checkpointsChecked: row.checkpoints_checked,
      message: row.message,
    }
    : undefined;
}

/** A document's event as a receipt names it, with its chain position once chained. */
export interface DocumentAuditEvent {
  auditId: string;
  eventType: string;
  createdAt: Date;
  position: number | null;
}

/**
 * The first event of each of `types` recorded about a document (its upload, its first showing, view, print…),
 * oldest first, with its place in the chain.
 */
export async function list_first_document_events(
  tx: Tx,
  documentId: string,
  types: readonly string[],
): Promise<DocumentAuditEvent[]> {
  const rows = await tx<{ id: string; event_type: string; created_at: Date; position: string | null }[]>`
    select distinct on (a.event_type) a.id::text as id, a.event_type, a.created_at, c.position::text as position
    from audit_logs a left join audit_chain c on c.audit_id = a.id
    where a.resource_type = 'document' and a.resource_id = ${documentId} and a.event_type = any(${types as string[]})
    order by a.event_type, a.id`;
  return rows
    .map((r) => ({
      auditId: r.id,
      eventType: r.event_type,
      createdAt: r.created_at,
      position: r.position === null ? null : Number(r.position),
    }))
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
}

/** The chain's first position still in the database (0 when the chain is empty). */
export async function first_audit_chain_position(tx: Tx): Promise<number> {
  const [row] = await tx<{ position: string }[]>`
    select c.position::text as position from audit_chain c order by c.position limit 1`;
  return row ? Number(row.position) : 0;
}

export interface ArchiveRecord {
  fromPosition: number;
  toPosition: number;
  lastChainHash: string;
  signedAt: Date;
  location: string;
}

/** Records a segment written to the archive (before its rows leave: archive_audit_rows checks it). */
export async function insert_audit_archive(tx: Tx, record: ArchiveRecord): Promise<void> {
  await tx`
    insert into audit_archives (from_position, to_position, last_chain_hash, signed_at, location)
    values (${record.fromPosition}, ${record.toPosition}, ${record.lastChainHash}, ${record.signedAt},
            ${record.location})`;
}

/** The segment ending at `position`, if one was archived. */
export async function find_audit_archive_ending(
  tx: Tx,
  position: number,
): Promise<ArchiveRecord | undefined> {
  const [row] = await tx<
    {
      from_position: string;
      to_position: string;
      last_chain_hash: string;
      signed_at: Date;
      location: string;
    }[]
  >`select from_position::text, to_position::text, last_chain_hash, signed_at, location
    from audit_archives where to_position = ${position}`;
  return row
    ? {
      fromPosition: Number(row.from_position),
      toPosition: Number(row.to_position),
      lastChainHash: row.last_chain_hash,
      signedAt: row.signed_at,
      location: row.location,
    }
    : undefined;
}

/**
 * The archived segments, newest first (by chain position): each recorded in the transaction that removed its rows,
 * so a segment written by an archiving that failed before its rows left is not among them.
 */
export async function list_audit_archives(tx: Tx): Promise<ArchiveRecord[]> {
  const rows = await tx<
    {
      from_position: string;
      to_position: string;
      last_chain_hash: string;
      signed_at: Date;
      location: string;
    }[]
  >`select from_position::text, to_position::text, last_chain_hash, signed_at, location
    from audit_archives order by to_position desc`;
  return rows.map((row) => ({
    fromPosition: Number(row.from_position),
    toPosition: Number(row.to_position),
    lastChainHash: row.last_chain_hash,
    signedAt: row.signed_at,
    location: row.location,
  }));
}

/** Removes the chained rows up to `upto` (audit_logs and their links), which an archive segment must end at. */
export async function archive_audit_rows(tx: Tx, upto: number): Promise<number> {
  const [{ removed }] = await tx<{ removed: string }[]>`select archive_audit_rows(${upto})::text as removed`;
  return Number(removed);
}
