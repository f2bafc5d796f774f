/** Users of every role: offenders (DOC number + PIN) and staff (e-mail + password). */
import type { Tx } from './client.ts';
import type { Role, UserStatus } from '../../contract/shapes/user.ts';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '../../contract/languages.ts';
import { normaliseBarNumber } from '../../contract/rules/registration.ts';

export type { Role, UserStatus };

export interface UserRow {
  id: string;
  entity_id: string;
  entity_slug: string;
  role: Role;
  status: UserStatus;
  email: string | null;
  doc_number: string | null;
  first_name: string;
  last_name: string;
  /** The saved language; null: none (the entity's default). */
  language: Language | null;
  /** The saved "Larger text" choice of the tablet's header. */
  larger_text: boolean;
}

export interface LoginCandidate extends UserRow {
  password_hash: string;
  temp_password_hash: string | null;
  temp_password_expires_at: Date | null;
  temp_password_used_at: Date | null;
  /** The admin who last reset this offender's PIN, and when (null: never). */
  pin_reset_by: string | null;
  pin_reset_at: Date | null;
  /** The offender has not yet dismissed the notice of the last reset ("Staff reset your PIN"). */
  pin_reset_notice_pending: boolean;
  /** The admin whose reset the PIN in force descends from (api/domain/pin_reset.ts); null: it does not. */
  pin_descends_from_reset_by: string | null;
}

const USER_COLUMNS = `u.id, u.entity_id, e.slug as entity_slug, u.role, u.status, u.email, u.doc_number,
  u.first_name, u.last_name, u.language, u.larger_text`;
/** A LoginCandidate's columns (users u join entities e). */
const LOGIN_COLUMNS =
  `${USER_COLUMNS}, u.password_hash, u.temp_password_hash, u.temp_password_expires_at, u.temp_password_used_at,
   u.pin_reset_by, u.pin_reset_at, u.pin_reset_notice_pending, u.pin_descends_from_reset_by`;

/**
 * The sign-in's user again, inside the transaction that opens its session: the user's row locked and the
 * entity's shared until it commits, so a PIN reset, a password change, a deactivation (of the user or the entity)
 * either waits for the new session and then ends it, or commits first and is seen here.
 */
export async function lock_login_candidate(
  sql: Tx,
  id: string,
): Promise<(LoginCandidate & { entity_status: string }) | undefined> {
  const [row] = await sql<(LoginCandidate & { entity_status: string })[]>`
    select ${sql.unsafe(LOGIN_COLUMNS)}, e.status as entity_status
    from users u join entities e on e.id = u.entity_id
    where u.id = ${id}
    for update of u for share of e`;
  return row;
}

/** The user a login name points at: an e-mail address (any case) or a DOC number. */
export async function find_login_candidate(
  sql: Tx,
  entityId: string,
  username: string,
): Promise<LoginCandidate | undefined> {
  const [row] = await sql<LoginCandidate[]>`
    select ${sql.unsafe(LOGIN_COLUMNS)}
    from users u join entities e on e.id = u.entity_id
    where u.entity_id = ${entityId}
      and (u.email = ${username.toLowerCase()} or u.doc_number = ${username})`;
  return row;
}

/** One user by id. */
export async function find_user_by_id(sql: Tx, id: string): Promise<UserRow | undefined> {
  const [row] = await sql<UserRow[]>`
    select ${sql.unsafe(USER_COLUMNS)} from users u join entities e on e.id = u.entity_id where u.id = ${id}`;
  return row;
}

/** The stored password hashes of a user: the real one and any temporary one. */
export async function find_password_hashes(
  sql: Tx,
  id: string,
): Promise<{ password_hash: string; temp_password_hash: string | null } | undefined> {
  const [row] = await sql<{ password_hash: string; temp_password_hash: string | null }[]>`
    select password_hash, temp_password_hash from users where id = ${id}`;
  return row;
}

export interface NewUser {
  entityId: string;
  role: Role;
  status?: UserStatus;
  email?: string | null;
  docNumber?: string | null;
  firstName: string;
  lastName: string;
  passwordHash: string;
  tempPasswordHash?: string | null;
  tempPasswordExpiresAt?: Date | null;
  barNumber?: string | null;
  barState?: string | null;
  phone?: string | null;
  addressLine1?: string | null;
  addressLine2?: string | null;
  city?: string | null;
  state?: string | null;
  zipCode?: string | null;
  supervisingAttorneyId?: string | null;
  /** The supervising link starts pending; true only where no one needs to confirm it (the demo seed). */
  supervisorAccepted?: boolean;
}

export type InsertUserResult = { ok: true; id: string } | {
  ok: false;
  reason: 'duplicate_email' | 'duplicate_doc_number';
};

/** Creates a user; a taken e-mail or DOC number is an answer, not an exception. */
export async function insert_user(sql: Tx, user: NewUser): Promise<InsertUserResult> {
  const [row] = await sql<{ id: string }[]>`
    insert into users (entity_id, role, status, email, doc_number, first_name, last_name, password_hash,
      temp_password_hash, temp_password_expires_at, bar_number, bar_state, phone, address_line1, address_line2,
      city, state, zip_code, supervising_attorney_id, supervisor_proposed_at, supervisor_accepted_at)
    values (${user.entityId}, ${user.role}, ${user.status ?? 'active'}, ${user.email?.toLowerCase() ?? null},
      ${user.docNumber ?? null}, ${user.firstName}, ${user.lastName}, ${user.passwordHash},
      ${user.tempPasswordHash ?? null}, ${user.tempPasswordExpiresAt ?? null}, ${user.barNumber ?? null},
      ${user.barState ?? null}, ${user.phone ?? null}, ${user.addressLine1 ?? null}, ${
    user.addressLine2 ?? null
  },
      ${user.city ?? null}, ${user.state ?? null}, ${user.zipCode ?? null}, ${
    user.supervisingAttorneyId ?? null
  },
      ${user.supervisingAttorneyId ? new Date() : null},
      ${user.supervisingAttorneyId && user.supervisorAccepted ? new Date() : null})
    on conflict do nothing
    returning id`;
  if (row) return { ok: true, id: row.id };
  return { ok: false, reason: user.docNumber ? 'duplicate_doc_number' : 'duplicate_email' };
}

/** True when a user of the entity already has this e-mail address. */
export async function email_in_use(sql: Tx, entityId: string, email: string): Promise<boolean> {
  const [row] =
    await sql`select 1 from users where entity_id = ${entityId} and email = ${email.toLowerCase()}`;
  return row !== undefined;
}

/** Spends the one-time temporary password's sign-in: it signs in once. */
export async function mark_temporary_password_used(sql: Tx, userId: string): Promise<void> {
  await sql`update users set temp_password_used_at = now(), updated_at = now() where id = ${userId}`;
}

/**
 * Retires an outstanding temporary password: the owner signed in with their own, so the one an approver saw
 * may no longer open a session nor prove identity on the set-new-password screen. A no-op when there is none.
 */
export async function clear_temporary_password(sql: Tx, userId: string): Promise<void> {
  await sql`update users set temp_password_hash = null, temp_password_expires_at = null,
              temp_password_used_at = null, updated_at = now()
            where id = ${userId} and temp_password_hash is not null`;
}

/** Replaces the stored hash of the same secret (a PIN re-hashed under the pepper); nothing else changes. */
export async function rehash_password(sql: Tx, userId: string, passwordHash: string): Promise<void> {
  await sql`update users set password_hash = ${passwordHash} where id = ${userId}`;
}

/** Replaces a user's password (and retires any temporary one). */
export async function update_password(sql: Tx, userId: string, passwordHash: string): Promise<void> {
  await sql`update users set password_hash = ${passwordHash}, temp_password_hash = null,
              temp_password_expires_at = null, temp_password_used_at = null, updated_at = now()
            where id = ${userId}`;
}

/** The attorney a representative's registration names, as the approver is shown it before approving. */
export interface SupervisorCandidate {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  bar_number: string;
  bar_state: string;
}

/**
 * The one active attorney of the entity whose bar number, bar state and e-mail all match, to supervise a
 * representative; undefined when any of the three differs (a typed bar number alone names nobody).
 */
export async function find_supervising_attorney(
  sql: Tx,
  entityId: string,
  match: { barNumber: string; barState: string; email: string },
): Promise<SupervisorCandidate | undefined> {
  const barState = match.barState.trim().toUpperCase();
  const barNumber = normaliseBarNumber(match.barNumber, barState);
  const email = match.email.trim().toLowerCase();
  if (!barNumber || !barState || !email) return undefined;
  // E-mail is unique per entity, so at most one row can match all three. The stored number is compared in the
  // form normaliseBarNumber gives, so "MO-12345", "12345" and "MO12345" under bar state MO are one number.
  const [row] = await sql<SupervisorCandidate[]>`
    with candidate as (
      select id, first_name, last_name, email, bar_number, bar_state,
             regexp_replace(upper(bar_number), '[[:space:].#/-]', '', 'g') as compact
      from users
      where entity_id = ${entityId} and role = 'attorney' and status = 'active' and email = ${email}
        and upper(btrim(bar_state)) = ${barState})
    select id, first_name, last_name, email, bar_number, bar_state from candidate
    where (case when compact ~ '^[0-9]+$' then upper(btrim(bar_state)) || compact else compact end) = ${barNumber}`;
  return row;
}

/** A user as the admin screens show it. */
export interface AdminUserRow {
  id: string;
  first_name: string;
  last_name: string;
  email: string | null;
  doc_number: string | null;
  role: Role;
  status: UserStatus;
  entity_name: string | null;
  language: Language | null;
  created_at: Date;
  /** The end of the sign-in lock in force on the account; null when none is. */
  locked_until: Date | null;
}

/**
 * The name a user's sign-in lock is kept under (login_lockouts.username): what they sign in with, lower-cased, as
 * api/domain/sign_in_throttle.ts accountAttemptKey keys it.
 */
const LOCK_USERNAME = 'lower(coalesce(u.email, u.doc_number, u.id::text))';

const ADMIN_USER_COLUMNS =
  `u.id, u.first_name, u.last_name, u.email, u.doc_number, u.role, u.status, e.name as entity_name, u.language,
   u.created_at,
   (select l.locked_until from login_lockouts l where l.entity_id = u.entity_id and l.locked_until > now()
      and l.username = ${LOCK_USERNAME}) as locked_until`;

/** Every user of every entity, newest first. */
export function list_users_for_admin(sql: Tx, entityId: string): Promise<AdminUserRow[]> {
  return sql<AdminUserRow[]>`
    select ${sql.unsafe(ADMIN_USER_COLUMNS)}
    from users u left join entities e on e.id = u.entity_id
    where u.entity_id = ${entityId}
    order by u.created_at desc, u.id desc`;
}

/** The admin's user search (GET /api/admin/users with page parameters): every filter optional. */
export interface AdminUserFilter {
  /** The admin's own entity: an admin sees no other entity's users. */
  entityId: string;
  /** A case-insensitive substring of the full name, the e-mail or the DOC number (the screen's search). */
  search?: string;
  role?: Role;
  status?: UserStatus;
}

export interface AdminUserQuery extends AdminUserFilter {
  /** The last user of the previous page. */
  afterId?: string;
  limit: number;
}

/** `text` as a LIKE pattern matching it anywhere: its own %, _ and \ are characters, not wildcards. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The `where` of the admin's user search. The search is the screen's own (pwa usersLogic.matchesSearch): the full
 * name is user_full_name() (migration 0015: the trimmed first and last names joined by one space), and `ilike`
 * on a `%…%` pattern is what the trigram indexes of migration 0015 serve (strpos, used before, no index can).
 */
function adminUserWhere(sql: Tx, filter: AdminUserFilter) {
  const needle = filter.search?.trim();
  const pattern = needle ? containsPattern(needle) : undefined;
  return sql`where u.entity_id = ${filter.entityId}
    ${
    pattern
      ? sql`and (user_full_name(u.first_name, u.last_name) ilike ${pattern}
                 or u.email ilike ${pattern} or u.doc_number ilike ${pattern})`
      : sql``
  }
    ${filter.role ? sql`and u.role = ${filter.role}` : sql``}
    ${filter.status ? sql`and u.status = ${filter.status}` : sql``}`;
}

/**
 * One page of users matching `query`, newest first, strictly after the user `afterId`: keyset pagination on
 * (created_at, id), read in the order of users_created_idx (migration 0014), so a page costs the same at any
 * depth.
 */
export function list_users_page_for_admin(sql: Tx, query: AdminUserQuery): Promise<AdminUserRow[]> {
  return sql<AdminUserRow[]>`
    select ${sql.unsafe(ADMIN_USER_COLUMNS)}
    from users u left join entities e on e.id = u.entity_id
    ${adminUserWhere(sql, query)}
    ${
    query.afterId
      ? sql`and (u.created_at, u.id) < (select c.created_at, c.id from users c where c.id = ${query.afterId})`
      : sql``
  }
    order by u.created_at desc, u.id desc
    limit ${query.limit}`;
}

/** How many users match `filter` in all (the screen's 'Showing X of Y users'). */
export async function count_users_for_admin(sql: Tx, filter: AdminUserFilter): Promise<number> {
  const [{ count }] = await sql<{ count: number }[]>`
    select count(*)::int as count from users u ${adminUserWhere(sql, filter)}`;
  return count;
}

/** One user as the admin screens show it. */
export async function find_admin_user(sql: Tx, id: string): Promise<AdminUserRow | undefined> {
  const [row] = await sql<AdminUserRow[]>`
    select ${
    sql.unsafe(ADMIN_USER_COLUMNS)
  } from users u left join entities e on e.id = u.entity_id where u.id = ${id}`;
  return row;
}

/** Locks a user row for a change of status or secret; undefined when there is none. */
export async function lock_user(sql: Tx, id: string): Promise<UserRow | undefined> {
  const [row] = await sql<UserRow[]>`
    select ${sql.unsafe(USER_COLUMNS)} from users u join entities e on e.id = u.entity_id where u.id = ${id}
    for update of u`;
  return row;
}

/**
 * Sets a user's status. Released or transferred starts the clock of the release purge (released_at), kept when
 * one becomes the other; any other status clears it.
 */
export async function update_user_status(sql: Tx, id: string, status: UserStatus): Promise<void> {
  await sql`update users set status = ${status}, updated_at = now(),
    released_at = case when ${status} in ('released', 'transferred')
                       then coalesce(case when status in ('released', 'transferred') then released_at end, now())
                       end
    where id = ${id}`;
}

/** Which of these DOC numbers the entity already has. */
export async function find_existing_doc_numbers(
  sql: Tx,
  entityId: string,
  docNumbers: string[],
): Promise<Set<string>> {
  if (docNumbers.length === 0) return new Set();
  const rows = await sql<{ doc_number: string }[]>`
    select doc_number from users where entity_id = ${entityId} and doc_number = any(${docNumbers}::text[])`;
  return new Set(rows.map((r) => r.doc_number));
}

export interface RosterOffender {
  entityId: string;
  docNumber: string;
  firstName: string;
  lastName: string;
  /** Null keeps the current PIN of an existing offender. */
  pinHash: string | null;
}

/**
 * Adds the offender, or updates the names (and the PIN when given) of the one with this DOC number. Returns
 * what happened and the user id; undefined when the offender is new and no PIN was given.
 */
export async function upsert_offender(
  sql: Tx,
  o: RosterOffender,
): Promise<{ outcome: 'added' | 'updated'; id: string } | undefined> {
  if (o.pinHash === null) {
    const [row] = await sql<{ id: string }[]>`
      update users set first_name = ${o.firstName}, last_name = ${o.lastName}, updated_at = now()
      where entity_id = ${o.entityId} and doc_number = ${o.docNumber}
      returning id`;
    return row ? { outcome: 'updated', id: row.id } : undefined;
  }
  // xmax is 0 on a freshly inserted row version and set on one the conflict clause updated.
  const [row] = await sql<{ id: string; inserted: boolean }[]>`
    insert into users (entity_id, role, doc_number, first_name, last_name, password_hash)
    values (${o.entityId}, 'offender', ${o.docNumber}, ${o.firstName}, ${o.lastName}, ${o.pinHash})
    on conflict (entity_id, doc_number) where doc_number is not null do update
      set first_name = excluded.first_name, last_name = excluded.last_name, password_hash = excluded.password_hash,
          temp_password_hash = null, temp_password_expires_at = null, temp_password_used_at = null, updated_at = now()
    returning id, (xmax = 0) as inserted`;
  return { outcome: row.inserted ? 'added' : 'updated', id: row.id };
}

/** A user's own preferences (the sender's opt-in "opened" e-mail). */
export async function find_preferences(sql: Tx, id: string): Promise<{ notifyOnOpen: boolean }> {
  const [row] = await sql<{ notify_on_open: boolean }[]>`select notify_on_open from users where id = ${id}`;
  return { notifyOnOpen: row?.notify_on_open ?? false };
}

/** Stores a user's own preferences. */
export async function update_preferences(
  sql: Tx,
  id: string,
  change: { notifyOnOpen: boolean },
): Promise<void> {
  await sql`update users set notify_on_open = ${change.notifyOnOpen}, updated_at = now() where id = ${id}`;
}

/** Saves a user's "Larger text" choice. */
export async function update_user_larger_text(sql: Tx, id: string, largerText: boolean): Promise<void> {
  await sql`update users set larger_text = ${largerText}, updated_at = now() where id = ${id}`;
}

/** Saves a user's language (null: none, the entity's default applies). */
export async function update_user_language(sql: Tx, id: string, language: Language | null): Promise<void> {
  await sql`update users set language = ${language}, updated_at = now() where id = ${id}`;
}

/**
 * Applies a roster's custody status to an offender: released or transferred from active (or from one another),
 * active from released or transferred. A deactivated account stays deactivated (that is an admin's decision, not
 * the roster's). Returns the change, or undefined when nothing changed.
 */
export async function set_offender_custody(
  sql: Tx,
  id: string,
  status: 'active' | 'released' | 'transferred',
): Promise<{ from: UserStatus; to: UserStatus } | undefined> {
  const [row] = await sql<{ from: UserStatus; to: UserStatus }[]>`
    with old as (select id, status from users where id = ${id} and role = 'offender' for update)
    update users u set status = ${status}, updated_at = now(),
      released_at = case when ${status} = 'active' then null else coalesce(u.released_at, now()) end
    from old
    where u.id = old.id and old.status <> ${status} and old.status in ('active', 'released', 'transferred')
    returning old.status as from, u.status as to`;
  return row;
}

/**
 * An admin's PIN reset: the one-time PIN becomes the only way in (the PIN before it stops working, since it may
 * be why the reset was asked for), good for `hours` and for one sign-in that may only choose a new PIN.
 */
export async function set_reset_pin(
  sql: Tx,
  r: { userId: string; unusableHash: string; oneTimeHash: string; hours: number; adminId: string | null },
): Promise<void> {
  await sql`update users set password_hash = ${r.unusableHash}, temp_password_hash = ${r.oneTimeHash},
              temp_password_expires_at = now() + make_interval(hours => ${r.hours}), temp_password_used_at = null,
              pin_reset_at = now(), pin_reset_by = ${r.adminId}, pin_reset_notice_pending = true,
              pin_descends_from_reset_by = ${r.adminId}, updated_at = now()
            where id = ${r.userId}`;
}

/**
 * The offender dismissed the notice of their PIN's reset; returns whether one was pending (a second dismissal,
 * from another tablet, changes nothing).
 */
export async function clear_pin_reset_notice(sql: Tx, userId: string): Promise<boolean> {
  const rows = await sql`
    update users set pin_reset_notice_pending = false where id = ${userId} and pin_reset_notice_pending
    returning id`;
  return rows.length > 0;
}

/** Records whose reset the PIN just chosen descends from (api/domain/pin_reset.ts); null: nobody's. */
export async function set_pin_descent(sql: Tx, userId: string, resetBy: string | null): Promise<void> {
  await sql`update users set pin_descends_from_reset_by = ${resetBy} where id = ${userId}`;
}

/** Whether the notice of the offender's last PIN reset is still waiting to be dismissed, and the reset's time. */
export async function find_pin_reset_notice(sql: Tx, userId: string): Promise<Date | null> {
  const [row] = await sql<{ pin_reset_at: Date | null }[]>`
    select pin_reset_at from users where id = ${userId} and pin_reset_notice_pending`;
  return row?.pin_reset_at ?? null;
}

/** The staff member with this e-mail address in this entity (any status), for the forgotten-password form. */
export async function find_staff_by_email(
  sql: Tx,
  entityId: string,
  email: string,
): Promise<UserRow | undefined> {
  const [row] = await sql<UserRow[]>`
    select ${sql.unsafe(USER_COLUMNS)} from users u join entities e on e.id = u.entity_id
    where u.entity_id = ${entityId} and u.email = ${email.toLowerCase()} and u.role <> 'offender'`;
  return row;
}

/** The language of a user's e-mails: their own preference, else their entity's default. */
export async function email_language(sql: Tx, userId: string): Promise<Language> {
  const [row] = await sql<{ language: string | null }[]>`
    select coalesce(u.language, e.default_language) as language
    from users u join entities e on e.id = u.entity_id
    where u.id = ${userId}`;
  return isLanguage(row?.language) ? row.language : DEFAULT_LANGUAGE;
}
