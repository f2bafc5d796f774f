/**
 * What a domain function answers: success with its data, or a failure naming a typed reason. Expected
 * outcomes are values, not exceptions; the domain never chooses an HTTP status or a response message:
 * api/http/failures.ts maps each reason to both, in one table.
 */

/** Every reason a domain function may fail for. Adding one here makes the catalogue demand its entry. */
export const REASONS = [
  /** The input breaks a rule; `detail` is the rule's own message (contract/rules/*). */
  'invalid_input',
  // Sign-in and password change (auth.ts).
  'bad_credentials',
  /** The account's sign-in lock is in force; `detail` is the whole minutes left. */
  'account_locked',
  /** The address has used its failure budget for this kind of sign-in; `detail`: whole minutes until it opens. */
  'throttled',
  /** More sign-ins in flight at once from one client address than the API checks (sign_in_throttle.ts). */
  'sign_in_busy',
  /**
   * Every password-hashing slot of this process is taken and its short queue is full (hashing_gate.ts): nothing
   * was checked or counted; try again in a few seconds.
   */
  'hashing_busy',
  /** An offender's call from outside their entity's active IP whitelist ranges (the guard). */
  'ip_not_allowed',
  /**
   * A DOC-number sign-in from an address the entity's whitelist does not admit: refused before any look-up or
   * hashing, whoever the DOC number is, so it tells nothing about the account and never counts toward its lock.
   */
  'sign_in_network_not_allowed',
  /**
   * An offender account's consecutive failures ask for a wait before the next try (growing delays,
   * sign_in_throttle.ts); `detail` and `waitSeconds` say how long, in seconds.
   */
  'sign_in_wait',
  'session_gone',
  'current_password_wrong',
  /** Too many wrong current passwords: the account's lock or wait is in force; `detail`: whole minutes left. */
  'password_change_locked',
  'password_unchanged',
  /** A common, breached-pattern or self-describing password (password_strength.ts), at registration or change. */
  'password_too_weak',
  // Second factors (mfa.ts).
  /** The sign-in's step token is unknown, used or older than 5 minutes: sign in again. */
  'mfa_token_invalid',
  /** A wrong, replayed or unknown code (counted in the account's sign-in lock). */
  'mfa_code_wrong',
  /** The account's sign-in lock is in force: no code is checked; `detail`: whole minutes left. */
  'mfa_locked',
  'mfa_factor_not_found',
  /** A passkey's or security key's answer that does not prove (counted in the sign-in lock like a wrong code). */
  'mfa_passkey_refused',
  /** An admin may reset other users' second factors, never their own. */
  'mfa_self_reset',
  /** Adding a second factor needs a proof of identity (password, or a factor) within the last few minutes. */
  'mfa_proof_required',
  /** An account with a second factor proves it is its owner with that factor, not with the password alone. */
  'mfa_second_factor_needed',
  /** A session opened with a PIN an admin reset may only choose a new PIN (pin_reset.ts). */
  'pin_change_required',
  // Staff passwords set through an e-mailed link (password_reset.ts).
  /** Too many forgotten-password requests from one client address. */
  'password_reset_throttled',
  /** A set-password link that is unknown, used or expired. */
  'reset_link_invalid',
  /** `GET /metrics` without the operator's METRICS_TOKEN, or with another (api/routes/metrics.ts). */
  'metrics_token_required',
  /** Too many set-password codes tried from one client address (password_reset.ts). */
  'reset_code_throttled',
  // The offender tablet's offline reading (offline.ts).
  /** The session ended between the guard and the use case: the tablet signs out and wipes. */
  'session_ended',
  /** A wrong PIN on the tablet's lock screen (counted like a failed sign-in). */
  'unlock_pin_wrong',
  /**
   * The account's sign-in lock is in force after the lock screen's PINs: refused for now, the session stays
   * (locked), since the wrong PINs may be someone else's.
   */
  'unlock_locked',
  /** An offender account's growing delay at the lock screen; `detail` and `waitSeconds`: seconds to wait. */
  'unlock_wait',
  /** The tablet's lock screen is up: the session may only unlock or sign out (api/http/guard.ts). */
  'session_locked',
  /** An offline reading whose time lies outside the session that sends it. */
  'offline_event_time_impossible',
  /** An offline reading's id already names a different reading. */
  'offline_event_id_taken',
  /** An offline reading of a document whose bytes were never served to the session that sends it. */
  'offline_event_not_received',
  /** An offline print of a PDF that forbids printing. */
  'offline_print_not_allowed',
  /** A session that has sent more offline readings than a tablet can make (OFFLINE_EVENTS_PER_SESSION). */
  'offline_events_session_limit',
  /** A print of a PDF that forbids printing (the inspector read its permissions at upload). */
  'print_not_allowed',
  /** A "shown" report for a document whose bytes never reached this session: no screen can have shown it. */
  'shown_not_received',
  // Registration and the approver's decision (registration.ts).
  /** Too many registrations from one client address (setting `registration_limit_per_hour`). */
  'registration_throttled',
  'registration_not_found',
  'registration_already_reviewed',
  'user_email_taken',
  // A representative's supervising attorney (representatives.ts): not linked to this attorney, or no such user.
  'representative_not_found',
  /** A registration's invitation code is unknown, used, expired, for another address, or its attorney left. */
  'invitation_invalid',
  /** The attorney sent INVITATIONS_PER_DAY invitations in the last day (representative_invitations.ts). */
  'invitation_throttled',
  // Users and the offender roster (user_admin.ts, offenders.ts).
  'user_not_found',
  'user_self_deactivation',
  'user_pending',
  'offender_duplicate',
  'offender_not_found',
  /**
   * A PIN reset for an offender whose entity has no active IP range: the one-time PIN works only on the
   * facility's network (pin_reset.ts), so it could not open any session.
   */
  'pin_reset_needs_facility_range',
  // Entities (entities.ts).
  'entity_name_required',
  'entity_name_too_long',
  'entity_name_characters',
  'entity_slug_not_derivable',
  'entity_slug_invalid',
  'entity_slug_taken',
  'entity_email_invalid',
  'entity_phone_invalid',
  'entity_address_too_long',
  'entity_not_found',
  'entity_default_slug',
  'entity_own_deactivation',
  // Settings (settings.ts).
  'setting_not_found',
  /** Entities and the installation-wide settings are the department administrator's (contract/rules/admin_scope.ts). */
  'department_admin_only',
  // IP whitelist (ip_whitelist.ts); `detail` of a duplicate is the range already listed.
  'ip_range_required',
  'ip_range_invalid',
  'ip_range_duplicate',
  'ip_range_not_found',
  // Documents (documents.ts, upload.ts); `detail` is the DOC number or the limit in MB.
  'document_not_found',
  /** The blob store (or the offload front) cannot serve a document now; no reading is recorded. */
  'document_store_unavailable',
  'upload_fields_required',
  'upload_title_too_long',
  'upload_description_too_long',
  'upload_no_offender',
  'upload_too_large',
  'upload_not_pdf',
  'upload_unreadable',
  'upload_too_complex',
  'upload_busy',
  /** The sender has UPLOADS_PER_SENDER uploads under way already. */
  'upload_sender_busy',
  /** The process has UPLOADS_IN_FLIGHT uploads under way already. */
  'upload_server_busy',
  /** An upload's body stopped arriving (UPLOAD_IDLE_SECONDS) or took longer than UPLOAD_DEADLINE_SECONDS. */
  'upload_timed_out',
  // Delivery (delivery.ts): who a DOC number is, and withdrawing a document; `detail` is the date of the reading.
  /** Unknown, deactivated, released, transferred or another entity's: one answer, so nothing is told apart. */
  'recipient_not_found',
  /** Past the sender's `recipient_lookup_limit_per_hour`. */
  'recipient_lookup_throttled',
  'document_already_opened',
  'document_already_fetched',
  'document_already_withdrawn',
  // An offender's release or transfer (user_admin.ts): only offenders leave a facility.
  'user_not_offender',
] as const;

export type Reason = (typeof REASONS)[number];

export interface Failure {
  ok: false;
  reason: Reason;
  /** What the message needs beyond the reason: a rule's message, a limit, a DOC number. */
  detail?: string;
  /** A temporary refusal's own wait, when it is not the catalogue's fixed one. */
  waitSeconds?: number;
}

export type Outcome<T = Record<never, never>> = ({ ok: true } & T) | Failure;

/** A failure for `reason`. */
export function fail(reason: Reason, detail?: string): Failure {
  return detail === undefined ? { ok: false, reason } : { ok: false, reason, detail };
}
