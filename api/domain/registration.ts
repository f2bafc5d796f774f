/** Registration of attorneys and representatives, and the approver's decision on it. */
import type { AppDeps } from '../deps.ts';
import { insert_audit_event } from '../db/audit.ts';
import type { Tx } from '../db/client.ts';
import { enqueue_email } from '../db/email_outbox.ts';
import { find_entity_by_slug } from '../db/entities.ts';
import * as registrations from '../db/registrations.ts';
import { email_in_use, find_attorney_by_bar_or_email, insert_user } from '../db/users.ts';
import {
  registrationApprovedEmail,
  registrationReceivedEmail,
  registrationRejectedEmail,
} from '../email/messages.ts';
import { generateTemporaryPassword, hashSecret } from './passwords.ts';
import { checkRegistration, type RegistrationInput } from '../../contract/rules/registration.ts';
import type { UserType } from '../../contract/shapes/registration.ts';
import { fail, type Outcome } from './outcome.ts';

/** Registrations always join the default entity: the public form does not choose one. */
export const REGISTRATION_ENTITY = 'default';

/** How long an approver's temporary password can be used to sign in. */
export const TEMPORARY_PASSWORD_HOURS = 72;

function optional(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

/** Checks a registration against the rules of spec section 5 and stores it, hashed, for review. */
export async function submitRegistration(
  deps: AppDeps,
  input: RegistrationInput & { userType: UserType },
  ipAddress: string,
): Promise<Outcome> {
  const representative = input.isRepresentative || input.userType === 'representative';
  const rule = checkRegistration({ ...input, isRepresentative: representative });
  if (!rule.ok) return fail('invalid_input', rule.message);
  const entity = await find_entity_by_slug(deps.sql, REGISTRATION_ENTITY);
  if (!entity) throw new Error(`entity ${REGISTRATION_ENTITY} is missing`);
  const email = input.email.trim().toLowerCase();
  const passwordHash = await hashSecret(input.password);
  return await deps.sql.begin(async (tx): Promise<Outcome> => {
    if (await email_in_use(tx, entity.id, email)) return fail('registration_duplicate');
    const stored = await registrations.insert_registration(tx, {
      entityId: entity.id,
      userType: representative ? 'representative' : 'attorney',
      firstName: input.firstName.trim(),
      lastName: input.lastName.trim(),
      email,
      passwordHash,
      barNumber: input.barNumber.trim(),
      barState: input.barState.trim().toUpperCase(),
      phone: optional(input.phone),
      addressLine1: input.addressLine1.trim(),
      addressLine2: optional(input.addressLine2),
      city: input.city.trim(),
      state: input.state.trim().toUpperCase(),
      zipCode: input.zipCode.trim(),
      supervisingAttorneyName: representative ? optional(input.supervisingAttorneyName) : null,
      supervisingAttorneyBar: representative ? optional(input.supervisingAttorneyBar) : null,
      supervisingAttorneyEmail: representative
        ? optional(input.supervisingAttorneyEmail)?.toLowerCase() ?? null
        : null,
    });
    if (!stored.ok) return fail('registration_duplicate');
    await insert_audit_event(tx, {
      userId: null,
      eventType: 'registration_submitted',
      resourceType: 'registration',
      resourceId: stored.id,
      ipAddress,
      eventData: { email, userType: representative ? 'representative' : 'attorney' },
    });
    await enqueue_email(
      tx,
      registrationReceivedEmail({
        email,
        firstName: input.firstName.trim(),
        lastName: input.lastName.trim(),
      }),
    );
    return { ok: true };
  });
}

interface Reviewer {
  id: string;
  entity_id: string;
}

async function lockPending(
  tx: Tx,
  id: string,
  reviewer: Reviewer,
): Promise<Outcome<{ registration: registrations.RegistrationForReview }>> {
  const registration = await registrations.lock_registration(tx, id, reviewer.entity_id);
  if (!registration) return fail('registration_not_found');
  if (registration.status !== 'pending') return fail('registration_already_reviewed');
  return { ok: true, registration };
}

/**
 * Approves a registration: creates the active user with the password chosen at
 * registration, plus a one-time temporary password valid for 72 hours. A
 * representative is linked to the supervising attorney when one matches.
 */
export async function approveRegistration(
  deps: AppDeps,
  id: string,
  reviewer: Reviewer,
  ipAddress: string,
): Promise<Outcome<{ temporaryPassword: string }>> {
  const temporaryPassword = generateTemporaryPassword();
  const tempPasswordHash = await hashSecret(temporaryPassword);
  return await deps.sql.begin(async (tx): Promise<Outcome<{ temporaryPassword: string }>> => {
    const found = await lockPending(tx, id, reviewer);
    if (!found.ok) return found;
    const r = found.registration;
    const supervisingAttorneyId = r.userType === 'representative'
      ? await find_attorney_by_bar_or_email(tx, r.entityId, {
        barNumber: r.supervisingAttorneyBar ?? '',
        email: r.supervisingAttorneyEmail ?? '',
      }) ?? null
      : null;
    const created = await insert_user(tx, {
      entityId: r.entityId,
      role: r.userType,
      email: r.email,
      firstName: r.firstName,
      lastName: r.lastName,
      passwordHash: r.passwordHash,
      tempPasswordHash,
      tempPasswordExpiresAt: new Date(Date.now() + TEMPORARY_PASSWORD_HOURS * 3600_000),
      barNumber: r.barNumber,
      barState: r.barState,
      phone: r.phone,
      addressLine1: r.addressLine1,
      addressLine2: r.addressLine2,
      city: r.city,
      state: r.state,
      zipCode: r.zipCode,
      supervisingAttorneyId,
    });
    if (!created.ok) return fail('user_email_taken');
    await registrations.mark_registration_approved(tx, id, { reviewerId: reviewer.id, userId: created.id });
    await insert_audit_event(tx, {
      userId: reviewer.id,
      eventType: 'registration_approved',
      resourceType: 'registration',
      resourceId: id,
      ipAddress,
      eventData: { email: r.email, createdUserId: created.id, role: r.userType, supervisingAttorneyId },
    });
    await enqueue_email(tx, registrationApprovedEmail(r));
    return { ok: true, temporaryPassword };
  });
}

/** Rejects a registration with the reason the approver gave. */
export async function rejectRegistration(
  deps: AppDeps,
  id: string,
  reviewer: Reviewer,
  decision: { reason: string; ipAddress: string },
): Promise<Outcome> {
  return await deps.sql.begin(async (tx): Promise<Outcome> => {
    const found = await lockPending(tx, id, reviewer);
    if (!found.ok) return found;
    await registrations.mark_registration_rejected(tx, id, {
      reviewerId: reviewer.id,
      reason: decision.reason,
    });
    await insert_audit_event(tx, {
      userId: reviewer.id,
      eventType: 'registration_rejected',
      resourceType: 'registration',
      resourceId: id,
      ipAddress: decision.ipAddress,
      eventData: { email: found.registration.email, reason: decision.reason },
    });
    await enqueue_email(tx, registrationRejectedEmail(found.registration, decision.reason));
    return { ok: true };
  });
}
