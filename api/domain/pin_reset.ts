/**
 * An admin's PIN reset, seen from the offender's side. Admins may not read mail, and a reset PIN must not become a
 * way to: the PIN an admin sets is a one-time PIN, good for one sign-in within ONE_TIME_PIN_HOURS, whose session
 * may only choose a new PIN (the guard refuses everything else, `pin_change_required`); the offender is told at
 * their next sign-in that staff reset their PIN and when; and every reading in a session opened with a reset PIN
 * is audited with the admin who reset it.
 */

/** How long a one-time PIN stays usable: long enough to hand it over on the next shift. */
export const ONE_TIME_PIN_HOURS = 72;

/** What a reading's audit event adds in a session opened with a reset PIN: the admin who reset it. */
export function pinResetAudit(session: { pin_reset_by?: string | null }): { pinResetBy?: string } {
  return session.pin_reset_by ? { pinResetBy: session.pin_reset_by } : {};
}
