/** Attorney and representative registrations awaiting an approver's decision. */
import type { Tx } from './client.ts';
import type { Language } from '../../contract/languages.ts';

export interface NewRegistration {
  entityId: string;
  userType: 'attorney' | 'representative';
  firstName: string;
  lastName: string;
  email: string;
  passwordHash: string;
  barNumber: string;
  barState: string;
  phone: string | null;
  addressLine1: string;
  addressLine2: string | null;
  city: string;
  state: string;
  zipCode: string;
  supervisingAttorneyName: string | null;
  supervisingAttorneyBar: string | null;
  supervisingAttorneyEmail: string | null;
  /** Its e-mails' language (the form's). */
  language: Language;
  /** The attorney whose invitation the representative registered with (their supervisor once approved). */
  invitedBy?: string | null;
}

/** Stores a registration; an open one for the same e-mail is an answer, not an exception. */
export async function insert_registration(
  sql: Tx,
  r: NewRegistration,
): Promise<{ ok: true; id: string } | { ok: false; reason: 'duplicate_email' }> {
  const [row] = await sql<{ id: string }[]>`
    insert into registrations (entity_id, user_type, first_name, last_name, email, password_hash, bar_number,
      bar_state, phone, address_line1, address_line2, city, state, zip_code, supervising_attorney_name,
      supervising_attorney_bar, supervising_attorney_email, language, invited_by)
    values (${r.entityId}, ${r.userType}, ${r.firstName}, ${r.lastName}, ${r.email.toLowerCase()}, ${r.passwordHash},
      ${r.barNumber}, ${r.barState}, ${r.phone}, ${r.addressLine1}, ${r.addressLine2}, ${r.city}, ${r.state},
      ${r.zipCode}, ${r.supervisingAttorneyName}, ${r.supervisingAttorneyBar}, ${r.supervisingAttorneyEmail},
      ${r.language}, ${r.invitedBy ?? null})
    on conflict do nothing
    returning id`;
  return row ? { ok: true, id: row.id } : { ok: false, reason: 'duplicate_email' };
}

/** True when the entity has a registration for the e-mail that blocks a new one (pending or approved). */
export async function open_registration_exists(sql: Tx, entityId: string, email: string): Promise<boolean> {
  const [row] = await sql`
    select 1 from registrations
    where entity_id = ${entityId} and email = ${email.toLowerCase()} and status <> 'rejected'`;
  return row !== undefined;
}

/**
 * What registration_throttle counts: registrations per client address, duplicate notices per e-mail, and the
 * forgotten-password form's requests per client address and links per account (api/domain/password_reset.ts).
 */
export type RegistrationThrottleKind =
  | 'address'
  | 'duplicate_notice'
  | 'password_reset_address'
  | 'password_reset_email';

/** Deletes the counts whose window has ended, so the table holds only the last `windowMinutes`. */
export async function sweep_registration_throttle(sql: Tx, windowMinutes: number): Promise<void> {
  await sql`delete from registration_throttle
            where window_started_at <= now() - make_interval(mins => ${windowMinutes})`;
}

/**
 * Counts one more for `subject` and returns the count in its current window (a window starts at the first
 * count and lasts `windowMinutes`; a count after it starts a new one). Atomic: concurrent calls each get
 * their own number.
 */
export async function count_registration_attempt(
  sql: Tx,
  c: { kind: RegistrationThrottleKind; subject: string; windowMinutes: number },
): Promise<number> {
  const [row] = await sql<{ attempts: number }[]>`
    insert into registration_throttle as t (kind, subject) values (${c.kind}, ${c.subject})
    on conflict (kind, subject) do update
      set window_started_at = case when t.window_started_at <= now() - make_interval(mins => ${c.windowMinutes})
                                   then now() else t.window_started_at end,
          attempts = case when t.window_started_at <= now() - make_interval(mins => ${c.windowMinutes})
                          then 1 else t.attempts + 1 end
    returning attempts`;
  return row.attempts;
}

export interface PendingRegistrationRow {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  bar_number: string;
  bar_state: string;
  created_at: Date;
  user_type: 'attorney' | 'representative';
  is_representative: boolean;
  supervising_attorney_name: string | null;
  supervising_attorney_bar: string | null;
  supervising_attorney_email: string | null;
  /** The attorney whose invitation the representative registered with, if any. */
  invited_by: string | null;
}

/** Pending registrations of an entity, oldest first (first come, first served). */
export function list_pending_registrations(sql: Tx, entityId: string): Promise<PendingRegistrationRow[]> {
  return sql<PendingRegistrationRow[]>`
    select id, first_name, last_name, email, bar_number, bar_state, created_at, user_type,
           user_type = 'representative' as is_representative, supervising_attorney_name,
           supervising_attorney_bar, supervising_attorney_email, invited_by
    from registrations
    where entity_id = ${entityId} and status = 'pending'
    order by created_at, id`;
}

export interface RegistrationForReview extends NewRegistration {
  id: string;
  status: 'pending' | 'approved' | 'rejected';
}

/** Locks a registration of the entity for a decision; undefined when there is none. */
export async function lock_registration(
  sql: Tx,
  id: string,
  entityId: string,
): Promise<RegistrationForReview | undefined> {
  const [row] = await sql<RegistrationForReview[]>`
    select id, status, entity_id as "entityId", user_type as "userType", first_name as "firstName",
           last_name as "lastName", email, password_hash as "passwordHash", bar_number as "barNumber",
           bar_state as "barState", phone, address_line1 as "addressLine1", address_line2 as "addressLine2",
           city, state, zip_code as "zipCode", supervising_attorney_name as "supervisingAttorneyName",
           supervising_attorney_bar as "supervisingAttorneyBar", supervising_attorney_email as "supervisingAttorneyEmail",
           language, invited_by as "invitedBy"
    from registrations where id = ${id} and entity_id = ${entityId}
    for update`;
  return row;
}

/** Records an approval and the user it created. */
export async function mark_registration_approved(
  sql: Tx,
  id: string,
  d: { reviewerId: string; userId: string },
) {
  await sql`update registrations set status = 'approved', reviewed_by = ${d.reviewerId}, reviewed_at = now(),
              user_id = ${d.userId}
            where id = ${id}`;
}

/** Records a rejection and its reason. */
export async function mark_registration_rejected(
  sql: Tx,
  id: string,
  d: { reviewerId: string; reason: string },
) {
  await sql`update registrations set status = 'rejected', reviewed_by = ${d.reviewerId}, reviewed_at = now(),
              rejection_reason = ${d.reason}
            where id = ${id}`;
}
