/**
 * The approver's review of registrations: the pending list (with the attorney a representative would be linked
 * to), approval and rejection.
 *
 * Approval only activates: the registrant chose their own password on the form, so no temporary password is
 * made and the approver never holds a secret that opens the account before its owner does.
 */
import { insert_audit_event } from '../db/audit.ts';
import type { Tx } from '../db/client.ts';
import { enqueue_email } from '../db/email_outbox.ts';
import * as registrations from '../db/registrations.ts';
import { find_inviting_attorney } from '../db/representative_invitations.ts';
import { accept_supervisor } from '../db/representatives.ts';
import {
  find_supervising_attorney,
  insert_user,
  type SupervisorCandidate,
  update_user_language,
} from '../db/users.ts';
import type { AppDeps } from '../deps.ts';
import { registrationApprovedEmail, registrationRejectedEmail } from '../email/messages.ts';
import type { PendingRegistration, SupervisorMatch } from '../../contract/shapes/registration.ts';
import { fail, type Outcome } from './outcome.ts';
import { proposeSupervisor } from './representatives.ts';

interface Reviewer {
  id: string;
  entity_id: string;
}

/** What a representative's registration typed about their supervising attorney. */
type SupervisorFields = {
  supervisingAttorneyBar: string | null;
  supervisingAttorneyEmail: string | null;
  /** A representative's Bar State, which the form asks as their supervising attorney's (they have no bar). */
  barState: string;
};

/**
 * The one active attorney of the entity whose bar number, bar state and e-mail all match. A representative has no
 * bar of their own: the form's Bar State is their supervising attorney's.
 */
function findSupervisor(tx: Tx, entityId: string, r: SupervisorFields) {
  return find_supervising_attorney(tx, entityId, {
    barNumber: r.supervisingAttorneyBar ?? '',
    barState: r.barState,
    email: r.supervisingAttorneyEmail ?? '',
  });
}

function toSupervisorMatch(a: SupervisorCandidate): SupervisorMatch {
  return {
    id: a.id,
    name: `${a.first_name} ${a.last_name}`.trim(),
    email: a.email,
    bar_number: a.bar_number,
    bar_state: a.bar_state,
  };
}

/** Pending registrations of the reviewer's entity, oldest first, each representative's with its supervisor match. */
export async function listPendingRegistrations(
  deps: Pick<AppDeps, 'sql'>,
  reviewer: Reviewer,
): Promise<PendingRegistration[]> {
  const rows = await registrations.list_pending_registrations(deps.sql, reviewer.entity_id);
  return await Promise.all(rows.map(async ({ invited_by, ...row }): Promise<PendingRegistration> => {
    // An invited representative is linked to the inviting attorney at approval, whatever the form said.
    const match = invited_by
      ? await find_inviting_attorney(deps.sql, reviewer.entity_id, invited_by)
      : row.is_representative
      ? await findSupervisor(deps.sql, reviewer.entity_id, {
        supervisingAttorneyBar: row.supervising_attorney_bar,
        supervisingAttorneyEmail: row.supervising_attorney_email,
        barState: row.bar_state,
      })
      : undefined;
    return {
      ...row,
      created_at: new Date(row.created_at).toISOString(),
      supervisor_match: match ? toSupervisorMatch(match) : null,
    };
  }));
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
 * Approves a registration: creates the active user with the password chosen at registration, and nothing else
 * that signs in. A representative whose typed supervisor matches one attorney by bar number, bar state and
 * e-mail is proposed to that attorney; the link shares nothing until the attorney accepts it.
 */
export async function approveRegistration(
  deps: AppDeps,
  id: string,
  reviewer: Reviewer,
  ipAddress: string,
): Promise<Outcome<{ supervisingAttorney: SupervisorMatch | null }>> {
  return await deps.sql.begin(
    async (tx): Promise<Outcome<{ supervisingAttorney: SupervisorMatch | null }>> => {
      const found = await lockPending(tx, id, reviewer);
      if (!found.ok) return found;
      const r = found.registration;
      // An invited representative's supervisor is the attorney who invited them, who asked for them: the link
      // starts accepted. Anyone else's is proposed from what they typed, pending the attorney's Accept.
      const invitedBy = r.userType === 'representative' && r.invitedBy
        ? await find_inviting_attorney(tx, r.entityId, r.invitedBy)
        : undefined;
      const supervisor = invitedBy ??
        (r.userType === 'representative' ? await findSupervisor(tx, r.entityId, r) : undefined);
      const created = await insert_user(tx, {
        entityId: r.entityId,
        role: r.userType,
        email: r.email,
        firstName: r.firstName,
        lastName: r.lastName,
        passwordHash: r.passwordHash,
        barNumber: r.barNumber,
        barState: r.barState,
        phone: r.phone,
        addressLine1: r.addressLine1,
        addressLine2: r.addressLine2,
        city: r.city,
        state: r.state,
        zipCode: r.zipCode,
      });
      if (!created.ok) return fail('user_email_taken');
      // The account starts in the language its registration was made in (its saved preference from now on).
      await update_user_language(tx, created.id, r.language);
      await registrations.mark_registration_approved(tx, id, { reviewerId: reviewer.id, userId: created.id });
      await insert_audit_event(tx, {
        userId: reviewer.id,
        eventType: 'registration_approved',
        resourceType: 'registration',
        resourceId: id,
        ipAddress,
        eventData: {
          email: r.email,
          createdUserId: created.id,
          role: r.userType,
          proposedSupervisorId: supervisor?.id ?? null,
        },
      });
      if (supervisor) {
        await proposeSupervisor(tx, { representativeId: created.id, attorneyId: supervisor.id }, {
          userId: reviewer.id,
          ipAddress,
          registrationId: id,
        });
        if (invitedBy) {
          await accept_supervisor(tx, created.id);
          await insert_audit_event(tx, {
            userId: reviewer.id,
            eventType: 'representative_link_accepted',
            resourceType: 'user',
            resourceId: created.id,
            ipAddress,
            eventData: { attorneyId: invitedBy.id, email: r.email, via: 'invitation', registrationId: id },
          });
        }
      }
      await enqueue_email(tx, registrationApprovedEmail(r, r.language));
      return { ok: true, supervisingAttorney: supervisor ? toSupervisorMatch(supervisor) : null };
    },
  );
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
    await enqueue_email(
      tx,
      registrationRejectedEmail(found.registration, decision.reason, found.registration.language),
    );
    return { ok: true };
  });
}
