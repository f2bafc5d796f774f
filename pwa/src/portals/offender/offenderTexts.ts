/** What a failed load of the offender list says (spec section 8, "Offender list"). */
import { ApiError } from '../../lib/api.ts';

export const AUTH_FAILED = 'Authentication failed - please login again';

/** The toast for a failed load, and whether the session is over (401 → /logout). */
export function offenderLoadFailure(error: unknown): { message: string; signOut: boolean } {
  if (error instanceof ApiError && error.status === 401) return { message: AUTH_FAILED, signOut: true };
  if (error instanceof ApiError && error.status > 0) {
    return { message: `Failed to load documents (Error: ${error.status})`, signOut: false };
  }
  const reason = error instanceof ApiError
    ? error.message
    : error instanceof Error && error.message
    ? error.message
    : 'Unknown error';
  return { message: `Error loading documents: ${reason}`, signOut: false };
}
