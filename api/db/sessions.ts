/**
 * Sessions: every request checks its row, so logout, deactivation and the idle
 * timeout revoke at once, whatever the token's own expiry says.
 *
 * Every statement that ends a session also sets its offline data key (api/db/offline.ts) to null in
 * the same statement: the tablet's cached ciphertext of an ended session can never be decrypted again.
 */
import type postgres from 'postgres';
import { SETTINGS } from '../../contract/settings.ts';
import type { Tx } from './client.ts';
import type { UserRow } from './users.ts';

export interface NewSession {
  userId: string;
  maxHours: number;
  mustChangePassword: boolean;
  ipAddress: string;
  userAgent: string | null;
  /** Opened with a PIN this admin reset: every read in the session is audited with them. */
  pinResetBy?: string | null;
}

/** Opens a session; returns its id and absolute expiry. */
export async function insert_session(sql: Tx, s: NewSession): Promise<{ id: string; expires_at: Date }> {
  const [row] = await sql<{ id: string; expires_at: Date }[]>`
    insert into sessions (user_id, expires_at, must_change_password, ip_address, user_agent, pin_reset_by)
    values (${s.userId}, now() + make_interval(hours => ${s.maxHours}), ${s.mustChangePassword},
            ${s.ipAddress}, ${s.userAgent?.slice(0, 400) ?? null}, ${s.pinResetBy ?? null})
    returning id, expires_at`;
  return row;
}

/**
 * What tells a sign-in's client apart as very likely a returning person (api/domain/known_client.ts), in one
 * statement: whether a session was opened from `ipAddress` in the last `days` days (one probe of
 * sessions_ip_address_created_idx, whatever became of the session since), and the active ranges of the entity
 * named `entitySlug` (none when it is null or names no entity), read beside it so the question costs one trip.
 */
export async function find_known_client(
  sql: Tx,
  q: { ipAddress: string; days: number; entitySlug: string | null },
): Promise<{ signedInBefore: boolean; entityRanges: string[] }> {
  const [row] = await sql<{ signed_in_before: boolean; entity_ranges: string[] }[]>`
    select exists (
             select 1 from sessions
             where ip_address = ${q.ipAddress} and created_at > now() - make_interval(days => ${q.days})
           ) as signed_in_before,
           coalesce((
             select array_agg(r.ip_range) from entities e join ip_ranges r on r.entity_id = e.id and r.is_active
             where e.slug = ${q.entitySlug}
           ), '{}') as entity_ranges`;
  return { signedInBefore: row.signed_in_before, entityRanges: row.entity_ranges };
}

/**
 * An offender's entity's IP whitelist as the session check read it (api/domain/ip_whitelist.ts decides with
 * it): the guard asks it on every offender request, so it comes in the same statement, not a second one.
 */
export interface SessionWhitelist {
  /** Whether a range was ever added to the entity. */
  configured: boolean;
  activeRanges: string[];
  /** The ip_whitelist_when_empty setting. */
  whenEmpty: string;
}

export interface ActiveSession extends UserRow {
  session_id: string;
  must_change_password: boolean;
  /**
   * The tablet's lock screen is up (POST /api/auth/lock): the guard refuses the session everything but unlock
   * and logout until the right PIN clears it. Absent where a session is built without the guard's statement.
   */
  locked?: boolean;
  /** The session was opened with a PIN this admin reset (null otherwise; absent outside the guard's statement). */
  pin_reset_by?: string | null;
  /** Offenders only (null for staff; absent where a session is built without the guard's statement). */
  whitelist?: SessionWhitelist | null;
}

/**
 * How stale a session's last-seen time may get before a request writes it again: 30 s, a tenth of the shortest
 * idle limit the setting allows (5 minutes). Most requests then only read their session row: no row lock, no
 * WAL flush at commit, so concurrent requests of one session no longer queue on each other (bench:latency).
 * The price: the idle limit counts from a time up to 30 s before the last request, so a session ends at most
 * 30 s early, never late. Revocation, logout, deactivation (of the user or the entity) are read from the rows
 * on every request and take effect at once as before; the sign-in lockout concerns sign-ins only.
 */
export const LAST_SEEN_WRITE_SECONDS = 30;

/**
 * What an `alongside` read answered (find_active_session's column of that name), wrapped so that "carried, and
 * its value is null" (no such document) stays apart from "nothing carried".
 */
export interface Carried {
  value: unknown;
}

/**
 * The live session with this id and its user; undefined when it was revoked, passed its absolute expiry, sat idle
 * past the `session_idle_minutes` setting, or its user or their entity is no longer active. A read, one round
 * trip: `stale` says whether its recorded last-seen time is older than LAST_SEEN_WRITE_SECONDS, for the caller
 * to write it then (touch_session_last_seen). The write used to ride in here as a data-modifying CTE that changed
 * no row on most requests, yet PostgreSQL set up its update (lock, indexes) on every one: about a fifth of the
 * statement's time (pgbench, demo database); apart, it costs one more round trip per session every 30 s.
 *
 * `alongside`, a read that yields one value (the route's first read, api/http/guard.ts), rides in the same
 * statement as the column `alongside`: it comes back only with a live session's row.
 */
export async function find_active_session(
  sql: Tx,
  sessionId: string,
  alongside?: postgres.Fragment,
): Promise<(ActiveSession & { stale: boolean; alongside?: unknown }) | undefined> {
  const [row] = await sql<(ActiveSession & { stale: boolean; alongside?: unknown })[]>`
    with idle as (${idleMinutes(sql)})
    select s.id as session_id, s.must_change_password, s.locked_at is not null as locked, s.pin_reset_by,
           ${lastSeenStale(sql)} as stale,
           u.id, u.entity_id, e.slug as entity_slug, u.role,
           u.status, u.email, u.doc_number, u.first_name, u.last_name, u.language, u.larger_text,
           case when u.role = 'offender' then ${whitelistOf(sql)} end as whitelist
           ${alongside ? sql`, ${alongside} as alongside` : sql``}
    from sessions s cross join idle join users u on u.id = s.user_id join entities e on e.id = u.entity_id
    where s.id = ${sessionId} and s.revoked_at is null and s.expires_at > now()
      and s.last_seen_at > now() - idle.minutes * interval '1 minute'
      and u.status = 'active' and e.status = 'active'`;
  return row;
}

/**
 * Records that a live session was just used (find_active_session said it was `stale`). Never revives an ended
 * session; of two requests at once, the second finds the time fresh and writes nothing.
 */
export async function touch_session_last_seen(sql: Tx, sessionId: string): Promise<void> {
  await sql`
    update sessions s set last_seen_at = now()
    where s.id = ${sessionId} and s.revoked_at is null and ${lastSeenStale(sql)}`;
}

/** Whether session `s`'s recorded last-seen time is old enough to be written again (LAST_SEEN_WRITE_SECONDS). */
function lastSeenStale(sql: Tx) {
  return sql`s.last_seen_at <= now() - ${LAST_SEEN_WRITE_SECONDS} * interval '1 second'`;
}

/**
 * The SessionWhitelist of entity `e` as one JSON value: what api/db/ip_whitelist.ts find_entity_whitelist and
 * the ip_whitelist_when_empty setting answer, read fresh in the session check's own statement.
 */
function whitelistOf(sql: Tx) {
  return sql`json_build_object(
    'configured', e.ip_ranges_configured_at is not null,
    'activeRanges', coalesce((select array_agg(r.ip_range order by r.ip_range) from ip_ranges r
                              where r.entity_id = e.id and r.is_active), '{}'),
    'whenEmpty', coalesce((select value->>'value' from settings
                           where key = 'ip_whitelist_when_empty' and jsonb_typeof(value->'value') = 'string'),
                          ${SETTINGS.ip_whitelist_when_empty.default}))`;
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

/** Locks a live session (the tablet's lock screen); false when it has ended. */
export async function lock_session(sql: Tx, sessionId: string): Promise<boolean> {
  const rows = await sql`
    update sessions set locked_at = coalesce(locked_at, now()) where id = ${sessionId} and revoked_at is null
    returning id`;
  return rows.length > 0;
}

/** Lifts the lock of a live session (the right PIN); false when it has ended. */
export async function unlock_session(sql: Tx, sessionId: string): Promise<boolean> {
  const rows = await sql`
    update sessions set locked_at = null where id = ${sessionId} and revoked_at is null returning id`;
  return rows.length > 0;
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
