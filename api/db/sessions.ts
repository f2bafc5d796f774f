/**
 * Sessions: every request checks its row, so logout, deactivation and the idle
 * timeout revoke at once, whatever the token's own expiry says.
 *
 * Every statement that ends a session also sets its offline data key (issue 10, api/db/offline.ts) to null in
 * the same statement: the tablet's cached ciphertext of an ended session can never be decrypted again.
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
 * `session_idle_minutes` setting, or its user or their entity is no longer active.
 */
export async function touch_active_session(sql: Tx, sessionId: string): Promise<ActiveSession | undefined> {
  const [row] = await sql<ActiveSession[]>`
    with idle as (${idleMinutes(sql)}), live as (
      update sessions s set last_seen_at = now()
      from idle
      where s.id = ${sessionId} and s.revoked_at is null and s.expires_at > now()
        and s.last_seen_at > now() - idle.minutes * interval '1 minute'
      returning s.id, s.user_id, s.must_change_password
    )
    select live.id as session_id, live.must_change_password, u.id, u.entity_id, e.slug as entity_slug, u.role,
           u.status, u.email, u.doc_number, u.first_name, u.last_name
    from live join users u on u.id = live.user_id join entities e on e.id = u.entity_id
    where u.status = 'active' and e.status = 'active'`;
  return row;
}

/** The `session_idle_minutes` setting as a one-row select (`minutes`). */
function idleMinutes(sql: Tx) {
  return sql`select coalesce((select (value->>'value')::numeric from settings where key = 'session_idle_minutes'),
                             ${SETTINGS.session_idle_minutes.default}) as minutes`;
}

/** A session the guard found lapsed and ended: whose it was, why, and when it had lapsed. */
export interface LapsedSession {
  user_id: string;
  end_reason: 'idle' | 'absolute';
  lapsed_at: Date;
}

/**
 * Ends this session if it lapsed (idle past `session_idle_minutes` or past its absolute expiry) and is not
 * ended yet, recording why; undefined otherwise. The `revoked_at is null` guard under the row lock answers
 * once per session however many requests find it lapsed at the same time, so its caller audits it once.
 */
export async function end_lapsed_session(sql: Tx, sessionId: string): Promise<LapsedSession | undefined> {
  const [row] = await sql<LapsedSession[]>`
    with idle as (${idleMinutes(sql)}), lapsed as (
      select s.id, least(s.expires_at, s.last_seen_at + idle.minutes * interval '1 minute') as lapsed_at,
             case when s.expires_at <= s.last_seen_at + idle.minutes * interval '1 minute'
                  then 'absolute' else 'idle' end as reason
      from sessions s, idle where s.id = ${sessionId}
    )
    update sessions s set revoked_at = now(), end_reason = lapsed.reason, data_key = null
    from lapsed
    where s.id = lapsed.id and s.revoked_at is null and lapsed.lapsed_at <= now()
    returning s.user_id, s.end_reason, lapsed.lapsed_at`;
  return row;
}

/** Ends one session. */
export async function revoke_session(sql: Tx, sessionId: string): Promise<void> {
  await sql`update sessions set revoked_at = now(), data_key = null where id = ${sessionId} and revoked_at is null`;
}

/** Ends every session of a user (deactivation, password change). */
export async function revoke_user_sessions(
  sql: Tx,
  userId: string,
  options: { except?: string } = {},
): Promise<void> {
  await sql`update sessions set revoked_at = now(), data_key = null
            where user_id = ${userId} and revoked_at is null and id <> ${
    options.except ?? '00000000-0000-0000-0000-000000000000'
  }`;
}

/** Ends every open session of an entity's users (the entity was deactivated); returns how many. */
export async function revoke_entity_sessions(sql: Tx, entityId: string): Promise<number> {
  const rows = await sql`
    update sessions s set revoked_at = now(), end_reason = 'entity_inactive', data_key = null
    from users u
    where u.id = s.user_id and u.entity_id = ${entityId} and s.revoked_at is null and s.expires_at > now()
    returning s.id`;
  return rows.length;
}

/**
 * Destroys the offline data keys of sessions that lapsed (idle or past their absolute expiry) with nobody
 * coming back to end them: the guard ends a lapsed session only when its token is used again, and until then
 * its key must not wait in the database (or a backup of it). Returns how many keys were destroyed.
 */
export async function forget_lapsed_session_keys(sql: Tx): Promise<number> {
  const rows = await sql`
    with idle as (${idleMinutes(sql)})
    update sessions s set data_key = null
    from idle
    where s.data_key is not null
      and (s.revoked_at is not null or s.expires_at <= now()
           or s.last_seen_at <= now() - idle.minutes * interval '1 minute')
    returning s.id`;
  return rows.length;
}

/** Lifts the password-change restriction once the new password is set. */
export async function clear_session_password_flag(sql: Tx, sessionId: string): Promise<void> {
  await sql`update sessions set must_change_password = false where id = ${sessionId}`;
}
