/**
 * Sessions: every request checks its row, so logout, deactivation and the idle
 * timeout revoke at once, whatever the token's own expiry says.
 */
import { SETTINGS } from '../../contract/settings.ts';
import type { Tx } from './client.ts';
import type { UserRow } from './users.ts';

export interface NewSession {
  userId: string;
  maxHours: number;
  mustChangePassword: boolean;
  ipAddress: string;
  userAgent: string | null;
}

/** Opens a session; returns its id and absolute expiry. */
export async function insert_session(sql: Tx, s: NewSession): Promise<{ id: string; expires_at: Date }> {
  const [row] = await sql<{ id: string; expires_at: Date }[]>`
    insert into sessions (user_id, expires_at, must_change_password, ip_address, user_agent)
    values (${s.userId}, now() + make_interval(hours => ${s.maxHours}), ${s.mustChangePassword},
            ${s.ipAddress}, ${s.userAgent?.slice(0, 400) ?? null})
    returning id, expires_at`;
  return row;
}

export interface ActiveSession extends UserRow {
  session_id: string;
  must_change_password: boolean;
}

/**
 * The live session with this id and its user, touching its last-seen time; undefined
 * when it was revoked, passed its absolute expiry, sat idle past the
 * `session_idle_minutes` setting, or its user is no longer active.
 */
export async function touch_active_session(sql: Tx, sessionId: string): Promise<ActiveSession | undefined> {
  const [row] = await sql<ActiveSession[]>`
    with idle as (
      select coalesce((select (value->>'value')::numeric from settings where key = 'session_idle_minutes'),
                      ${SETTINGS.session_idle_minutes.default}) as minutes
    ), live as (
      update sessions s set last_seen_at = now()
      from idle
      where s.id = ${sessionId} and s.revoked_at is null and s.expires_at > now()
        and s.last_seen_at > now() - idle.minutes * interval '1 minute'
      returning s.id, s.user_id, s.must_change_password
    )
    select live.id as session_id, live.must_change_password, u.id, u.entity_id, e.slug as entity_slug, u.role,
           u.status, u.email, u.doc_number, u.first_name, u.last_name
    from live join users u on u.id = live.user_id join entities e on e.id = u.entity_id
    where u.status = 'active'`;
  return row;
}

/** Ends one session. */
export async function revoke_session(sql: Tx, sessionId: string): Promise<void> {
  await sql`update sessions set revoked_at = now() where id = ${sessionId} and revoked_at is null`;
}

/** Ends every session of a user (deactivation, password change). */
export async function revoke_user_sessions(
  sql: Tx,
  userId: string,
  options: { except?: string } = {},
): Promise<void> {
  await sql`update sessions set revoked_at = now()
            where user_id = ${userId} and revoked_at is null and id <> ${
    options.except ?? '00000000-0000-0000-0000-000000000000'
  }`;
}

/** Lifts the password-change restriction once the new password is set. */
export async function clear_session_password_flag(sql: Tx, sessionId: string): Promise<void> {
  await sql`update sessions set must_change_password = false where id = ${sessionId}`;
}
