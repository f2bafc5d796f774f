/**
 * An attorney's invitations of representatives (migration 0040): single-use registration links whose token exists
 * in the e-mail alone; only its SHA-256 is stored.
 */
import type { Tx } from './client.ts';
import type { SupervisorCandidate } from './users.ts';

/** Stores a new invitation of `email` by the attorney, usable for `minutes`. */
export async function insert_invitation(
  sql: Tx,
  r: { tokenHash: string; attorneyId: string; email: string; minutes: number },
): Promise<void> {
  await sql`
    insert into representative_invitations (token_hash, attorney_id, email, expires_at)
    values (${r.tokenHash}, ${r.attorneyId}, ${r.email}, now() + make_interval(mins => ${r.minutes}))`;
}

/** How many invitations the attorney sent in the last `windowMinutes`. */
export async function count_recent_invitations(
  sql: Tx,
  attorneyId: string,
  windowMinutes: number,
): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    select count(*)::int as n from representative_invitations
    where attorney_id = ${attorneyId} and created_at > now() - make_interval(mins => ${windowMinutes})`;
  return row.n;
}

/**
 * Uses an invitation: marks it used and answers the inviting attorney and the invited address, once, if it is
 * unused, unexpired, and its attorney is an active attorney of `entityId`; undefined otherwise. Atomic: of two
 * uses at once, one gets it.
 */
export async function consume_invitation(
  sql: Tx,
  r: { tokenHash: string; entityId: string },
): Promise<{ attorney_id: string; email: string } | undefined> {
  const [row] = await sql<{ attorney_id: string; email: string }[]>`
    update representative_invitations i set used_at = now()
    from users u
    where i.token_hash = ${r.tokenHash} and i.used_at is null and i.expires_at > now()
      and u.id = i.attorney_id and u.role = 'attorney' and u.status = 'active' and u.entity_id = ${r.entityId}
    returning i.attorney_id, i.email`;
  return row;
}

/** Locks the attorney's row, so that invitations counted and sent under it are counted one after another. */
export async function lock_inviting_attorney(sql: Tx, attorneyId: string): Promise<void> {
  await sql`select 1 from users where id = ${attorneyId} for update`;
}

/** An unused, unexpired invitation with its attorney, who is still an active attorney of the entity. */
export interface UsableInvitation {
  email: string;
  attorney_id: string;
  attorney_first_name: string;
  attorney_last_name: string;
  attorney_email: string;
  attorney_bar_number: string | null;
}

/** The usable invitation of this token hash; undefined when there is none. Uses nothing. */
export async function find_usable_invitation(
  sql: Tx,
  r: { tokenHash: string; entityId: string },
): Promise<UsableInvitation | undefined> {
  const [row] = await sql<UsableInvitation[]>`
    select i.email, i.attorney_id, u.first_name as attorney_first_name, u.last_name as attorney_last_name,
           u.email as attorney_email, u.bar_number as attorney_bar_number
    from representative_invitations i join users u on u.id = i.attorney_id
    where i.token_hash = ${r.tokenHash} and i.used_at is null and i.expires_at > now()
      and u.role = 'attorney' and u.status = 'active' and u.entity_id = ${r.entityId}`;
  return row;
}

/** The inviting attorney of a registration, while they are an active attorney of the entity. */
export async function find_inviting_attorney(
  sql: Tx,
  entityId: string,
  attorneyId: string,
): Promise<SupervisorCandidate | undefined> {
  const [row] = await sql<SupervisorCandidate[]>`
    select id, first_name, last_name, email, bar_number, bar_state from users
    where id = ${attorneyId} and entity_id = ${entityId} and role = 'attorney' and status = 'active'`;
  return row;
}
