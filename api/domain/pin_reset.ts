/**
 * An admin's PIN reset, seen from the offender's side. Admins may not read mail, and a reset PIN must not become a
 * quiet way to. What a reset still allows, and what guards it (docs/security.md, "PIN resets"):
 *
 * - The PIN an admin sets is a one-time PIN, good for one sign-in within ONE_TIME_PIN_HOURS, and only from an
 *   address inside one of the offender's entity's active IP whitelist ranges (the facility's network): not from
 *   headquarters, and not at all while the entity has no active range. Its session may only choose a new PIN (the
 *   guard refuses everything else, `pin_change_required`).
 * - Descent: the one-time PIN descends from the reset; a session signed in with a PIN that descends from a reset
 *   descends from it; a PIN chosen in a session that descends from a reset descends from it too
 *   (users.pin_descends_from_reset_by). Every session that descends from a reset carries the admin who reset it
 *   (sessions.pin_reset_by), so its sign-in and every read and print in it are audited with `pinResetBy`. The
 *   descent ends at the first sign-in with a PIN that does not descend from a reset: one chosen, on the facility
 *   network, in a session that does not descend from a reset. After a reset the offender cannot make such a PIN
 *   from a descended session (nothing they can do at a tablet is something the admin who chose the PIN could not
 *   do too), so the account stays marked: a fact in the audit trail, not a restriction.
 * - A roster import that gives an existing offender a PIN is such a reset too (api/domain/offenders.ts).
 * - The offender is told ("Staff reset your PIN on …") at every sign-in until they dismiss the notice themselves
 *   (an audited call), and can see their own recent sign-ins, those after a reset marked as such.
 */
import type { AppDeps } from '../deps.ts';
import { insert_audit_event, list_sign_ins } from '../db/audit.ts';
import type { ActiveSession } from '../db/sessions.ts';
import { clear_pin_reset_notice } from '../db/users.ts';
import type { SignIn } from '../../contract/shapes/sign_ins.ts';

/** How long a one-time PIN stays usable: long enough to hand it over on the next shift. */
export const ONE_TIME_PIN_HOURS = 72;

/** How many sign-ins the offender's list shows: a few weeks of daily use on the tablet. */
export const SIGN_INS_SHOWN = 30;

/** What a reading's audit event adds in a session that descends from a reset: the admin who reset the PIN. */
export function pinResetAudit(session: { pin_reset_by?: string | null }): { pinResetBy?: string } {
  return session.pin_reset_by ? { pinResetBy: session.pin_reset_by } : {};
}

/**
 * The admin a new offender session carries: the one who set the one-time PIN it was signed in with, or whose
 * reset the offender's own PIN descends from; null for staff and for a PIN that descends from no reset.
 */
export function sessionResetBy(
  candidate: { role: string; pin_reset_by: string | null; pin_descends_from_reset_by: string | null },
  usedOneTimePin: boolean,
): string | null {
  if (candidate.role !== 'offender') return null;
  return usedOneTimePin ? candidate.pin_reset_by : candidate.pin_descends_from_reset_by;
}

/**
 * Whose reset a PIN chosen in `session` descends from: the session's own (null when it descends from none).
 * Where the entity has a whitelist an offender's session is on the facility network anyway; where it has none, a
 * session that does not descend from a reset was opened with a PIN no admin chose through a reset.
 */
export function chosenPinDescent(session: { pin_reset_by?: string | null }): string | null {
  return session.pin_reset_by ?? null;
}

/**
 * The offender dismisses the notice of their PIN's reset. Audited (with the admin, in a session that descends
 * from the reset): whoever dismissed it, the offender's list of sign-ins still shows the sessions after it.
 */
export async function dismissPinResetNotice(
  deps: Pick<AppDeps, 'sql'>,
  session: ActiveSession,
  ipAddress: string,
): Promise<void> {
  await deps.sql.begin(async (tx) => {
    if (!(await clear_pin_reset_notice(tx, session.id))) return;
    await insert_audit_event(tx, {
      userId: session.id,
      eventType: 'pin_reset_notice_dismissed',
      resourceType: 'user',
      resourceId: session.id,
      ipAddress,
      eventData: { sessionId: session.session_id, ...pinResetAudit(session) },
    });
  });
}

/** The caller's own recent sign-ins, newest first: never another user's. */
export async function ownSignIns(deps: Pick<AppDeps, 'sql'>, session: ActiveSession): Promise<SignIn[]> {
  const rows = await list_sign_ins(deps.sql, session.id, SIGN_INS_SHOWN);
  return rows.map((row) => ({
    at: row.created_at.toISOString(),
    ipAddress: row.ip_address,
    facilityNetwork: typeof row.event_data.facilityNetwork === 'boolean'
      ? row.event_data.facilityNetwork
      : null,
    oneTimePin: row.event_data.temporaryPassword === true,
    afterPinReset: typeof row.event_data.pinResetBy === 'string',
  }));
}
