/** Registration of attorneys and representatives (the approver's decision: registration_review.ts). */
import type { AppDeps } from '../deps.ts';
import { DEFAULT_LANGUAGE, type Language } from '../../contract/languages.ts';
import { insert_audit_event } from '../db/audit.ts';
import type { Tx } from '../db/client.ts';
import { enqueue_email } from '../db/email_outbox.ts';
import { find_entity_by_slug } from '../db/entities.ts';
import * as registrations from '../db/registrations.ts';
import { get_setting } from '../db/settings.ts';
import { email_in_use } from '../db/users.ts';
import { registrationDuplicateEmail, registrationReceivedEmail } from '../email/messages.ts';
import { hashSecret } from './passwords.ts';
import { checkPasswordStrength } from './password_strength.ts';
import {
  checkRegistration,
  type RegistrationInput,
  tidyRegistration,
} from '../../contract/rules/registration.ts';
import type { UserType } from '../../contract/shapes/registration.ts';
import { fail, type Outcome } from './outcome.ts';
import { invitationFor, spendInvitation } from './representative_invitations.ts';

/** Registrations always join the default entity: the public form does not choose one. */
export const REGISTRATION_ENTITY = 'default';

/** Both registration counts run over an hour: the setting is registrations per address per hour. */
const THROTTLE_WINDOW_MINUTES = 60;

/**
 * One "already registered" notice per e-mail address an hour: the form may name anyone's address, and the
 * per-address limit alone would let a spread of addresses mail one person again and again. One an hour still
 * tells the owner of every burst of attempts.
 */
const DUPLICATE_NOTICES_PER_WINDOW = 1;

/**
 * Counts the registration against its client address before anything costly (the password's strength
 * estimate and hash, the look-ups, the e-mail) and refuses past `registration_limit_per_hour`. The first
 * refusal of a window is audited, so a flood cannot fill the audit log.
 */
async function throttleAddress(sql: Tx, ipAddress: string): Promise<Outcome> {
  await registrations.sweep_registration_throttle(sql, THROTTLE_WINDOW_MINUTES);
  const [limit, attempts] = await Promise.all([
    get_setting(sql, 'registration_limit_per_hour'),
    registrations.count_registration_attempt(sql, {
      kind: 'address',
      subject: ipAddress,
      windowMinutes: THROTTLE_WINDOW_MINUTES,
    }),
  ]);
  if (attempts <= limit) return { ok: true };
  if (attempts === limit + 1) {
    await insert_audit_event(sql, {
      userId: null,
      eventType: 'registration_throttled',
      resourceType: 'registration',
      ipAddress,
      eventData: { limit, windowMinutes: THROTTLE_WINDOW_MINUTES },
    });
  }
  return fail('registration_throttled');
}

interface Duplicate {
  email: string;
  language: Language;
  userType: UserType;
  existing: 'account' | 'registration';
  ipAddress: string;
}

/**
 * A registration for an address that has an account or an open registration: nothing is stored for it, the
 * attempt is audited and the owner told by e-mail (at most DUPLICATE_NOTICES_PER_WINDOW an hour), and the caller
 * answers exactly as for a new registration.
 */
async function recordDuplicate(tx: Tx, d: Duplicate): Promise<Outcome> {
  const notices = await registrations.count_registration_attempt(tx, {
    kind: 'duplicate_notice',
    subject: d.email,
    windowMinutes: THROTTLE_WINDOW_MINUTES,
  });
  const noticeQueued = notices <= DUPLICATE_NOTICES_PER_WINDOW;
  await insert_audit_event(tx, {
    userId: null,
    eventType: 'registration_duplicate',
    resourceType: 'registration',
    ipAddress: d.ipAddress,
    eventData: { email: d.email, userType: d.userType, existing: d.existing, noticeQueued },
  });
  if (noticeQueued) await enqueue_email(tx, registrationDuplicateEmail(d.email, d.existing, d.language));
  return { ok: true };
}

async function existingHolder(
  sql: Tx,
  entityId: string,
  email: string,
): Promise<Duplicate['existing'] | undefined> {
  if (await email_in_use(sql, entityId, email)) return 'account';
  if (await registrations.open_registration_exists(sql, entityId, email)) return 'registration';
  return undefined;
}

/**
 * Checks a registration against the rules of spec section 5 and the password-strength floor and stores it,
 * hashed, for review. Throttled per client address before any hashing. An address that already has an account
 * or an open registration gets the same answer as a new one (no enumeration); its owner gets an e-mail instead.
 */
export async function submitRegistration(
  deps: AppDeps,
  request: RegistrationInput & { userType: UserType; language?: Language; invitation?: string },
  ipAddress: string,
): Promise<Outcome> {
  const { sql } = deps;
  const { invitation: code, ...typed } = request;
  let input = typed;
  const entity = await find_entity_by_slug(sql, REGISTRATION_ENTITY);
  if (!entity) throw new Error(`entity ${REGISTRATION_ENTITY} is missing`);
  // An attorney's invitation: a representative's registration whose supervisor is the inviting attorney, whatever
  // the form's supervising fields said (api/domain/representative_invitations.ts).
  let invitedBy: string | null = null;
  if (code !== undefined && code.trim() !== '') {
    const invitation = await invitationFor(sql, { token: code, email: typed.email, entityId: entity.id });
    if (!invitation) return fail('invitation_invalid');
    invitedBy = invitation.attorney_id;
    input = {
      ...typed,
      userType: 'representative',
      isRepresentative: true,
      supervisingAttorneyName: `${invitation.attorney_first_name} ${invitation.attorney_last_name}`.trim(),
      supervisingAttorneyBar: invitation.attorney_bar_number ?? '',
      supervisingAttorneyEmail: invitation.attorney_email,
    };
  }
  const representative = input.isRepresentative || input.userType === 'representative';
  const rule = checkRegistration({ ...input, isRepresentative: representative });
  if (!rule.ok) return fail('invalid_input', rule.message);
  const throttled = await throttleAddress(sql, ipAddress);
  if (!throttled.ok) return throttled;

  const r = tidyRegistration({ ...input, isRepresentative: representative });
  const email = r.email.toLowerCase();
  const userType: UserType = representative ? 'representative' : 'attorney';
  const language = input.language ?? DEFAULT_LANGUAGE;
  const strength = checkPasswordStrength(r.password, {
    email,
    firstName: r.firstName,
    lastName: r.lastName,
    other: [r.barNumber],
  });
  if (!strength.ok) return strength;

  const existing = await existingHolder(sql, entity.id, email);
  // Hashed for a duplicate too, and thrown away: an answer that skipped the hash would be told apart by its time.
  const passwordHash = await hashSecret(r.password);
  return await sql.begin(async (tx): Promise<Outcome> => {
    // Used once, whatever follows: of two registrations with one invitation, the second is refused.
    if (code !== undefined && invitedBy && !await spendInvitation(tx, { token: code, entityId: entity.id })) {
      return fail('invitation_invalid');
    }
    if (existing) return await recordDuplicate(tx, { email, language, userType, existing, ipAddress });
    const { password: _password, confirmPassword: _confirm, isRepresentative: _type, ...details } = r;
    const stored = await registrations.insert_registration(tx, {
      ...details,
      entityId: entity.id,
      userType,
      email,
      passwordHash,
      supervisingAttorneyEmail: r.supervisingAttorneyEmail?.toLowerCase() ?? null,
      language,
      invitedBy,
    });
    // Another registration for the address committed between the look-up and the insert.
    if (!stored.ok) {
      return await recordDuplicate(tx, { email, language, userType, existing: 'registration', ipAddress });
    }
    await insert_audit_event(tx, {
      userId: null,
      eventType: 'registration_submitted',
      resourceType: 'registration',
      resourceId: stored.id,
      ipAddress,
      eventData: { email, userType, ...(invitedBy ? { invitedBy } : {}) },
    });
    await enqueue_email(
      tx,
      registrationReceivedEmail({ email }, language),
    );
    return { ok: true };
  });
}
