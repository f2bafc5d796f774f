/**
 * The link between a representative and their supervising attorney (users.supervising_attorney_id with its
 * proposed and accepted times, migration 0010): proposed at approval, accepted or removed by the attorney.
 */
import type { Tx } from './client.ts';

/** A representative who named an attorney, as that attorney's Representatives list shows them. */
export interface LinkedRepresentativeRow {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  bar_number: string | null;
  bar_state: string | null;
  status: 'active' | 'deactivated' | 'pending';
  supervisor_proposed_at: Date | null;
  supervisor_accepted_at: Date | null;
}

const LINK_COLUMNS =
  'id, first_name, last_name, email, bar_number, bar_state, status, supervisor_proposed_at, supervisor_accepted_at';

/** The representatives linked to an attorney, pending ones first, then by name. */
export function list_representatives_of(sql: Tx, attorneyId: string): Promise<LinkedRepresentativeRow[]> {
  return sql<LinkedRepresentativeRow[]>`
    select ${sql.unsafe(LINK_COLUMNS)} from users
    where supervising_attorney_id = ${attorneyId} and role = 'representative'
    order by (supervisor_accepted_at is not null), last_name, first_name, id`;
}

/** Locks the representative's row if it is linked to this attorney; undefined for anyone else. */
export async function lock_representative_of(
  sql: Tx,
  attorneyId: string,
  representativeId: string,
): Promise<LinkedRepresentativeRow | undefined> {
  const [row] = await sql<LinkedRepresentativeRow[]>`
    select ${sql.unsafe(LINK_COLUMNS)} from users
    where id = ${representativeId} and supervising_attorney_id = ${attorneyId} and role = 'representative'
    for update`;
  return row;
}

/** Names `attorneyId` as the representative's supervisor, pending until that attorney accepts. */
export async function propose_supervisor(
  sql: Tx,
  representativeId: string,
  attorneyId: string,
): Promise<void> {
  await sql`update users set supervising_attorney_id = ${attorneyId}, supervisor_proposed_at = now(),
              supervisor_accepted_at = null, updated_at = now()
            where id = ${representativeId} and role = 'representative'`;
}

/** The attorney accepted: documents the representative sends from now on are shared with them. Returns when. */
export async function accept_supervisor(sql: Tx, representativeId: string): Promise<Date> {
  const [row] = await sql<{ accepted_at: Date }[]>`
    update users set supervisor_accepted_at = now(), updated_at = now()
    where id = ${representativeId} and supervising_attorney_id is not null
    returning supervisor_accepted_at as accepted_at`;
  return row.accepted_at;
}

/** Ends the link (pending or accepted): the representative works alone from now on. */
export async function remove_supervisor(sql: Tx, representativeId: string): Promise<void> {
  await sql`update users set supervising_attorney_id = null, supervisor_proposed_at = null,
              supervisor_accepted_at = null, updated_at = now()
            where id = ${representativeId}`;
}
