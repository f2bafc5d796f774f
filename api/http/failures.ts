/**
 * The one error catalogue: each domain reason (api/domain/outcome.ts) with its HTTP status and the message a
 * person reads. Routes turn a failed Outcome into an AppError here and nowhere else.
 */
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Failure, Reason } from '../domain/outcome.ts';
import { AppError } from './errors.ts';

interface CatalogueEntry {
  status: ContentfulStatusCode;
  /** Fixed text, or text built from the failure's detail. */
  message: string | ((detail: string) => string);
}

export const FAILURES: Record<Reason, CatalogueEntry> = {
  invalid_input: { status: 400, message: (detail) => detail },
  setting_not_found: { status: 404, message: 'Setting not found.' },
};

/** The error to throw for a failed outcome. */
export function failureError(failure: Failure): AppError {
  const entry = FAILURES[failure.reason];
  const message = typeof entry.message === 'string' ? entry.message : entry.message(failure.detail ?? '');
  return new AppError(entry.status, message, failure.reason);
}

/** The message of a reason (for a route that needs it in a success body, such as a per-row import report). */
export function failureMessage(failure: Failure): string {
  return failureError(failure).message;
}
