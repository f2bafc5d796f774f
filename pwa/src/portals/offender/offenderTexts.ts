/** What a failed load of the offender list says (spec section 8, "Offender list"), in the language shown. */
import { t } from 'i18next';
import { ApiError } from '../../lib/api.ts';

/** The toast for a failed load, and whether the session is over (401 → /logout). */
export function offenderLoadFailure(error: unknown): { message: string; signOut: boolean } {
  if (error instanceof ApiError && error.status === 401) {
    return { message: t('offender.authFailed'), signOut: true };
  }
  if (error instanceof ApiError && error.status > 0) {
    return { message: t('offender.loadFailedStatus', { status: error.status }), signOut: false };
  }
  const reason = error instanceof ApiError
    ? error.message
    : error instanceof Error && error.message
    ? error.message
    : t('offender.unknownError');
  return { message: t('offender.loadError', { reason }), signOut: false };
}
