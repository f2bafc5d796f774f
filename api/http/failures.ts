/**
 * The one error catalogue: each domain reason (api/domain/outcome.ts) with its HTTP status and the message a
 * person reads (the spec's texts, verbatim). Routes turn a failed Outcome into an AppError here and nowhere
 * else; the error's `code` is the reason.
 */
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { fail, type Failure, type Reason } from '../domain/outcome.ts';
import { NAME_CHARACTERS_MESSAGE } from '../../contract/rules/names.ts';
import { AppError } from './errors.ts';

interface CatalogueEntry {
  status: ContentfulStatusCode;
  /** Fixed text, or text built from the failure's detail. */
  message: string | ((detail: string) => string);
  /** A temporary refusal: the Retry-After the client is given. */
  retryAfterSeconds?: number;
}

/** '1 minute', '10 minutes' (the PWA's catalogues have both forms, `codes.<code>_one`). */
function minutesText(minutes: string): string {
  return minutes === '1' ? '1 minute' : `${minutes} minutes`;
}

/** '1 second', '20 seconds': an offender account's waits are under a minute, so they are told exactly. */
function secondsText(seconds: string): string {
  return seconds === '1' ? '1 second' : `${seconds} seconds`;
}

export const FAILURES: Record<Reason, CatalogueEntry> = {
  invalid_input: { status: 400, message: (detail) => detail },

  bad_credentials: { status: 401, message: 'Please check your login credentials.' },
  account_locked: {
    status: 401,
    message: (minutes) =>
      `Too many failed sign-ins: this account is locked for ${
        minutesText(minutes)
      }. Please sign in again after that.`,
  },
  throttled: {
    status: 429,
    message: (minutes) =>
      `Too many failed sign-in attempts from this device. Please try again in ${minutesText(minutes)}.`,
  },
  sign_in_busy: {
    status: 429,
    message: 'Too many sign-ins from this network at once. Please wait a moment and try again.',
    retryAfterSeconds: 2,
  },
  hashing_busy: {
    status: 503,
    message: 'The server is busy checking other sign-ins. Please try again in a few seconds.',
    retryAfterSeconds: 5,
  },
  ip_not_allowed: {
    status: 403,
    message: 'Access from this network is not allowed. Please use a facility tablet.',
  },
  sign_in_network_not_allowed: {
    status: 403,
    message:
      'Signing in with a DOC number is not allowed from this network. Please use a facility tablet, or ask staff to check the IP whitelist.',
  },
  sign_in_wait: {
    status: 429,
    message: (seconds) =>
      `Too many failed sign-ins for this account. Please wait ${secondsText(seconds)} and try again.`,
  },
  session_gone: { status: 400, message: 'Please sign in again.' },
  mfa_token_invalid: { status: 401, message: 'Your sign-in has expired. Please sign in again.' },
  mfa_code_wrong: { status: 401, message: 'That code was not accepted. Please try again.' },
  mfa_locked: {
    status: 429,
    message: (minutes) => `Too many failed attempts. Please try again in ${minutesText(minutes)}.`,
  },
  mfa_factor_not_found: { status: 404, message: 'Second factor not found.' },
  mfa_passkey_refused: {
    status: 401,
    message: 'That passkey or security key was not accepted. Please try again.',
  },
  mfa_self_reset: { status: 400, message: 'You cannot reset your own second factors.' },
  mfa_proof_required: { status: 403, message: 'Please confirm it is you before adding a second factor.' },
  mfa_second_factor_needed: { status: 400, message: 'Please confirm with one of your second factors.' },
  current_password_wrong: { status: 400, message: 'The current password is not correct.' },
  password_change_locked: {
    status: 429,
    message: (minutes) => `Too many wrong passwords. Please try again in ${minutesText(minutes)}.`,
  },
  password_unchanged: { status: 400, message: 'The new password must be different from the current one.' },
  pin_change_required: { status: 403, message: 'Please choose a new PIN before continuing.' },
  password_reset_throttled: {
    status: 429,
    message: 'Too many requests from this device. Please try again later.',
    retryAfterSeconds: 3600,
  },
  metrics_token_required: { status: 401, message: 'The metrics need the bearer token the operator set.' },
  reset_code_throttled: {
    status: 429,
    message: 'Too many codes tried from this device. Please try again later.',
    retryAfterSeconds: 3600,
  },
  reset_link_invalid: {
    status: 400,
    message: 'This link is not valid any more. Please ask for a new one.',
  },
  password_too_weak: {
    status: 400,
    message: 'This password is too common or easy to guess. Please choose a longer, less predictable one.',
  },

  // A 401 makes the tablet wipe and sign out, so only an ended session answers it. Wrong PINs never end a
  // session (they may be anyone's at the lock screen): a wrong one is 403, and once the account lock is in force
  // the lock screen is refused for now (429) while the session stays, locked, for its owner to come back to.
  session_ended: { status: 401, message: 'Please sign in to continue.' },
  unlock_pin_wrong: { status: 403, message: 'The PIN is not correct.' },
  unlock_locked: {
    status: 429,
    message: (minutes) =>
      `Too many wrong PINs: this account is locked for ${
        minutesText(minutes)
      }. Please enter your PIN again after that.`,
  },
  unlock_wait: {
    status: 429,
    message: (seconds) =>
      `Too many wrong PINs. Please wait ${secondsText(seconds)} and enter your PIN again.`,
  },
  session_locked: { status: 423, message: 'This tablet is locked. Please enter your PIN.' },
  offline_event_time_impossible: { status: 400, message: 'The time of this reading is not possible.' },
  offline_event_id_taken: { status: 409, message: 'This reading was already recorded as a different one.' },
  offline_event_not_received: {
    status: 404,
    message: 'This document never reached this tablet in this session, so it cannot have been read offline.',
  },
  // Spec section 2's text for a print the PDF does not allow.
  offline_print_not_allowed: { status: 403, message: 'The document does not allow to print' },
  // The same words for a print asked online: the PDF's own permission, read at upload, decides.
  print_not_allowed: { status: 403, message: 'The document does not allow to print' },
  shown_not_received: {
    status: 409,
    message: 'This document has not reached this screen yet, so it cannot have been shown.',
  },
  offline_events_session_limit: {
    status: 429,
    message: 'This session has sent more offline readings than a tablet can make. These were not recorded.',
  },

  registration_throttled: {
    status: 429,
    message: 'Too many registrations from this network. Please try again later.',
  },
  registration_not_found: { status: 404, message: 'Registration not found.' },
  registration_already_reviewed: { status: 409, message: 'This registration has already been reviewed.' },
  user_email_taken: { status: 409, message: 'A user with this email address already exists.' },
  representative_not_found: { status: 404, message: 'Representative not found.' },
  invitation_invalid: {
    status: 400,
    message:
      'This invitation cannot be used: it has expired or been used, or it was sent to another e-mail address. ' +
      'Ask the attorney for a new one.',
  },
  invitation_throttled: {
    status: 429,
    message: 'You have sent as many invitations as a day allows. Please try again tomorrow.',
  },

  user_not_found: { status: 404, message: 'User not found.' },
  user_self_deactivation: { status: 400, message: 'You cannot deactivate your own account.' },
  user_pending: {
    status: 409,
    message: 'A pending account has no status action; it is decided in the approver portal.',
  },
  offender_duplicate: { status: 409, message: 'An offender with this DOC number already exists.' },
  offender_not_found: { status: 404, message: 'Offender not found.' },
  pin_reset_needs_facility_range: {
    status: 409,
    message:
      "A one-time PIN works only on the facility's network, and this entity has no active IP range. Add the facility's IP range in IP Whitelist first, then reset the PIN.",
  },

  entity_name_required: { status: 400, message: 'Entity name is required' },
  entity_name_too_long: { status: 400, message: 'Entity name must be at most 200 characters.' },
  entity_name_characters: { status: 400, message: NAME_CHARACTERS_MESSAGE },
  entity_slug_not_derivable: {
    status: 400,
    message: 'A slug cannot be made from this name; please enter a slug.',
  },
  entity_slug_invalid: {
    status: 400,
    message:
      'Slug must be lower-case letters and digits, with single hyphens between words (at most 100 characters).',
  },
  entity_slug_taken: { status: 409, message: 'An entity with this slug already exists.' },
  entity_email_invalid: { status: 400, message: 'Please enter a valid email address' },
  entity_phone_invalid: {
    status: 400,
    message: 'Phone may contain only digits, spaces and + - ( ) . (at most 40 characters).',
  },
  entity_address_too_long: { status: 400, message: 'Address must be at most 500 characters.' },
  entity_not_found: { status: 404, message: 'Entity not found.' },
  entity_default_slug: {
    status: 400,
    message: "The default entity's slug cannot be changed: every sign-in names it.",
  },
  entity_own_deactivation: {
    status: 400,
    message:
      'You cannot deactivate your own entity: its users, you included, would be signed out and refused.',
  },

  setting_not_found: { status: 404, message: 'Setting not found.' },
  department_admin_only: {
    status: 403,
    message: "Only the department's administrators can do that.",
  },

  ip_range_required: { status: 400, message: 'IP range is required' },
  ip_range_invalid: { status: 400, message: 'Invalid IP range format' },
  ip_range_duplicate: {
    status: 409,
    message: (existing) => `This IP range is already in the whitelist (as ${existing}).`,
  },
  ip_range_not_found: { status: 404, message: 'IP range not found.' },

  document_not_found: { status: 404, message: 'Document not found.' },
  upload_fields_required: { status: 400, message: 'Please fill in all required fields' },
  upload_title_too_long: { status: 400, message: 'Document title must be at most 200 characters.' },
  upload_description_too_long: { status: 400, message: 'Description must be at most 2000 characters.' },
  upload_no_offender: { status: 400, message: (doc) => `No active offender has DOC number ${doc}.` },
  upload_too_large: { status: 413, message: (mb) => `The file is larger than the ${mb} MB limit.` },
  upload_not_pdf: { status: 415, message: 'The file is not a PDF.' },
  upload_unreadable: { status: 422, message: 'The PDF could not be read. It may be damaged or incomplete.' },
  upload_too_complex: { status: 422, message: 'The PDF is too complex to process safely.' },
  // Every inspector slot is taken and its queue is full (api/pdf/inspect.ts): nothing was stored.
  upload_sender_busy: {
    status: 429,
    message: 'You have other uploads still arriving. Please wait for them to finish, then try again.',
    retryAfterSeconds: 10,
  },
  upload_server_busy: {
    status: 503,
    message: 'The server is busy receiving other documents. Please try again in a minute.',
    retryAfterSeconds: 30,
  },
  upload_timed_out: {
    status: 408,
    message: 'The upload stopped arriving, so it was not stored. Please try again.',
  },
  upload_busy: {
    status: 503,
    message: 'The server is busy checking other documents. Please try again in a minute.',
    retryAfterSeconds: 30,
  },

  // The store did not answer or refused the read before any byte was sent (docs/operations.md): nothing recorded.
  document_store_unavailable: {
    status: 503,
    message: 'The document cannot be opened right now. Please try again in a minute.',
    retryAfterSeconds: 30,
  },

  recipient_not_found: { status: 404, message: 'No one with this DOC number receives mail here' },
  recipient_lookup_throttled: {
    status: 429,
    message: 'Too many DOC number lookups in the last hour. Please try again later.',
    retryAfterSeconds: 600,
  },
  document_already_opened: {
    status: 409,
    message: (date) => `This document was already opened on ${date} and cannot be withdrawn.`,
  },
  document_already_fetched: {
    status: 409,
    message: (date) =>
      `This document was already saved to the recipient's tablet on ${date} and cannot be withdrawn.`,
  },
  document_already_withdrawn: { status: 409, message: 'This document was already withdrawn.' },
  user_not_offender: { status: 400, message: 'Only an offender can be marked released or transferred.' },
};

/** The error to throw for a failed outcome. */
export function failureError(failure: Failure): AppError {
  const entry = FAILURES[failure.reason];
  const message = typeof entry.message === 'string' ? entry.message : entry.message(failure.detail ?? '');
  // The detail of a message built from it goes with it (invalid_input's detail is the whole message already).
  const detail = typeof entry.message === 'string' || failure.reason === 'invalid_input'
    ? undefined
    : failure.detail;
  return new AppError(
    entry.status,
    message,
    failure.reason,
    failure.waitSeconds ?? entry.retryAfterSeconds,
    detail,
  );
}

/** The error to throw for `reason` where a route or the guard decides it itself (a missing row, a refusal). */
export function refusal(reason: Reason, detail?: string): AppError {
  return failureError(fail(reason, detail));
}

/** The fixed message of a reason, for a zod schema that must answer the catalogue's text. */
export function failureText(reason: Reason): string {
  const entry = FAILURES[reason];
  if (typeof entry.message !== 'string') throw new Error(`${reason}: its message needs a detail`);
  return entry.message;
}

/** The message of a reason (for a route that needs it in a success body, such as a per-row import report). */
export function failureMessage(failure: Failure): string {
  return failureError(failure).message;
}
