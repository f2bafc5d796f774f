/** The body of every failed API call (api/http/errors.ts writes it; the PWA's API client reads it). */

/**
 * Codes the PWA branches on. Others are sent too (a catalogue failure's code is its reason,
 * api/domain/outcome.ts), but only these carry a meaning for a client.
 */
export const FAILURE_CODES = {
  unauthenticated: 'unauthenticated',
  passwordChangeRequired: 'password_change_required',
  ipNotAllowed: 'ip_not_allowed',
  forbidden: 'forbidden',
} as const;

export interface FailureBody {
  success: false;
  message: string;
  code?: string;
  /** The value a message was built from (a count of minutes, a date), for the text in the client's language. */
  detail?: string;
}
