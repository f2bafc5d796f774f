/**
 * Offline reading: the session's data key that encrypts the tablet's cache, and the views and prints
 * made offline, recorded once each by the tablet's own event id. The key is destroyed with its session by every
 * statement that ends one (api/db/sessions.ts).
 */
import type { Tx } from './client.ts';

/** The session's data key and limits, when the session is live. */
export interface SessionDataKey {
  data_key: Uint8Array;
  created_at: Date;
  expires_at: Date;
}

/**
 * The live session's data key, created with `candidate` when it has none yet; undefined when the session has
 * ended. `coalesce` under the row lock makes concurrent first calls agree on one key.
 */
export async function ensure_session_data_key(
  sql: Tx,
  sessionId: string,
  candidate: Uint8Array,
): Promise<SessionDataKey | undefined> {
  const [row] = await sql<SessionDataKey[]>`
    update sessions set data_key = coalesce(data_key, ${candidate})
    where id = ${sessionId} and revoked_at is null and expires_at > now()
    returning data_key, created_at, expires_at`;
  return row;
}

/**
 * Notes that the session's key was handed out; true only for the first call of the session (the caller audits
 * 'offline_key_issued' then). The `is null` guard under the row lock answers true once however many race.
 */
export async function mark_offline_key_issued(sql: Tx, sessionId: string): Promise<boolean> {
  const rows = await sql`
    update sessions set offline_key_issued_at = now()
    where id = ${sessionId} and offline_key_issued_at is null
    returning 1`;
  return rows.length > 0;
}

/**
 * Counts `count` more offline readings received by the session and answers how many it had received before
 * them; undefined when the session is gone. The row stays locked until the transaction ends, so the batches of
 * one session are taken one after the other (the window's one-reading-per-kind check relies on it).
 */
export async function count_offline_events_received(
  sql: Tx,
  sessionId: string,
  count: number,
): Promise<number | undefined> {
  const [row] = await sql<{ before: number }[]>`
    update sessions set offline_events_received = offline_events_received + ${count}
    where id = ${sessionId}
    returning offline_events_received - ${count} as before`;
  return row?.before;
}

/** When the session was first served the document's bytes (view, print or prefetch); undefined if never. */
export async function find_first_served(
  sql: Tx,
  sessionId: string,
  documentId: string,
): Promise<Date | undefined> {
  const [row] = await sql<{ at: Date | null }[]>`
    select min(first_served_at) as at from document_read_audits
    where session_id = ${sessionId} and document_id = ${documentId}`;
  return row?.at ? new Date(row.at) : undefined;
}

/**
 * True when an offline reading of this kind of this document by this session is already recorded within
 * `windowMinutes` of `at`. Online readings are audited on their own path (the read-audit claim), so a view made
 * online and one made offline just after both show, the second marked offline.
 */
export async function offline_reading_recorded_near(
  sql: Tx,
  reading: { sessionId: string; documentId: string; kind: 'view' | 'print'; at: Date; windowMinutes: number },
): Promise<boolean> {
  const { sessionId, documentId, kind, at, windowMinutes } = reading;
  const window = sql`${windowMinutes} * interval '1 minute'`;
  const [row] = await sql<{ near: boolean }[]>`
    select exists (
      select 1 from offline_read_events
      where session_id = ${sessionId} and document_id = ${documentId} and kind = ${kind}
        and occurred_at > ${at}::timestamptz - ${window} and occurred_at < ${at}::timestamptz + ${window}
    ) as near`;
  return row.near;
}

/** When the session began (the earliest an offline reading in it can have happened). */
export async function find_session_start(sql: Tx, sessionId: string): Promise<Date | undefined> {
  const [row] = await sql<{ created_at: Date }[]>`select created_at from sessions where id = ${sessionId}`;
  return row?.created_at;
}

export interface OfflineReadEventRow {
  id: string;
  session_id: string;
  document_id: string;
  kind: 'view' | 'print';
  occurred_at: Date;
}

/**
 * Records one offline reading; true when this call inserted it, false when the id was already there (a retry,
 * or a concurrent send of the same batch, which waits on the first insert and then does nothing).
 */
export async function insert_offline_read_event(
  sql: Tx,
  event: { id: string; sessionId: string; documentId: string; kind: 'view' | 'print'; occurredAt: Date },
): Promise<boolean> {
  const rows = await sql`
    insert into offline_read_events (id, session_id, document_id, kind, occurred_at)
    values (${event.id}, ${event.sessionId}, ${event.documentId}, ${event.kind}, ${event.occurredAt})
    on conflict (id) do nothing
    returning id`;
  return rows.length > 0;
}

/** The offline reading recorded under this id, whoever recorded it. */
export async function find_offline_read_event(sql: Tx, id: string): Promise<OfflineReadEventRow | undefined> {
  const [row] = await sql<OfflineReadEventRow[]>`
    select id, session_id, document_id, kind, occurred_at from offline_read_events where id = ${id}`;
  return row;
}

/**
 * Sets the recipient's read time (a view the tablet showed) or print time (a print) to a reading made offline when
 * it is the first one known: unset, or later than this reading (an online view that reached the server before the queued offline
 * one). Only ever earlier.
 */
export async function mark_document_read_at(
  sql: Tx,
  documentId: string,
  reading: { at: Date; kind: 'view' | 'print' },
): Promise<{ firstView: boolean }> {
  const { at, kind } = reading;
  const [row] = await sql<{ first_view: boolean }[]>`
    with old as (select id, viewed_at from documents where id = ${documentId} for update)
    update documents d
    set viewed_at = case when ${kind} = 'view' then least(coalesce(d.viewed_at, ${at}), ${at})
                         else d.viewed_at end,
        printed_at = case when ${kind} = 'print' then least(coalesce(d.printed_at, ${at}), ${at})
                          else d.printed_at end
    from old where d.id = old.id
    returning (${kind} = 'view' and old.viewed_at is null) as first_view`;
  return { firstView: row?.first_view ?? false };
}
