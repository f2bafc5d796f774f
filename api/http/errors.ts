/**
 * The one error type of the API and the one place it becomes HTTP. Every failure
 * leaves as `{ success: false, message }` with a status a client can act on, and
 * never with a stack, a SQL text or a path.
 */
import type { Logger } from '../log.ts';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { HashingBusy } from '../domain/hashing_gate.ts';
import { fail } from '../domain/outcome.ts';
import { failureError } from './failures.ts';

export class AppError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    /** A machine-readable reason the PWA may branch on. */
    readonly code?: string,
    /** Sent as Retry-After: when a refusal is temporary and the client may try again. */
    readonly retryAfterSeconds?: number,
    /** The value the message was built from (a count, a date), for the PWA's text in the language shown. */
    readonly detail?: string,
  ) {
    super(message);
  }
}

/** The HTTP layer's own messages (the domain's reasons are in failures.ts). */
export const MESSAGES = {
  unauthenticated: 'Please sign in to continue.',
  forbidden: 'You do not have permission to do that.',
  notFound: 'Not found.',
  passwordChangeRequired: 'You must set a new password before continuing.',
  malformedJson: 'The request body is not valid JSON.',
  tooLarge: 'The request is too large.',
  internal: 'Something went wrong on our side. Please try again.',
} as const;

export const unauthorized = () => new AppError(401, MESSAGES.unauthenticated, 'unauthenticated');
export const forbidden = () => new AppError(403, MESSAGES.forbidden, 'forbidden');
export const notFound = (message: string = MESSAGES.notFound) => new AppError(404, message, 'not_found');
export const badRequest = (message: string) => new AppError(400, message, 'bad_request');
export const conflict = (message: string) => new AppError(409, message, 'conflict');

/** Writes the standard failure body. */
export function failure(
  c: Context,
  status: ContentfulStatusCode,
  message: string,
  code?: string,
  detail?: string,
) {
  return c.json(
    { success: false, message, ...(code ? { code } : {}), ...(detail ? { detail } : {}) },
    status,
  );
}

/** Hono's onError: maps every thrown thing to the standard body. */
export function handleError(error: Error, c: Context): Response {
  // The password-hashing gate refused a derivation deep inside a use case: the catalogue's 503 with Retry-After.
  if (error instanceof HashingBusy) return handleError(failureError(fail('hashing_busy')), c);
  if (error instanceof AppError) {
    if (error.code) c.set('failureCode', error.code);
    if (error.retryAfterSeconds !== undefined) c.header('Retry-After', String(error.retryAfterSeconds));
    return failure(c, error.status, error.message, error.code, error.detail);
  }
  if (error instanceof HTTPException) {
    const status = error.status as ContentfulStatusCode;
    if (status === 413) return failure(c, 413, MESSAGES.tooLarge, 'too_large');
    if (status === 400 && /json/i.test(error.message)) {
      return failure(c, 400, MESSAGES.malformedJson, 'bad_json');
    }
    if (status < 500) return failure(c, status, error.message || MESSAGES.internal);
  }
  const log = (c.var as { log?: Logger }).log;
  if (log) {
    // The stack names our files, never the request's data; the request line with its id follows.
    log.error('unhandled error', {
      request_id: (c.var as { requestId?: string }).requestId,
      error: error.stack ?? String(error),
    });
  } else console.error(`[error] ${c.req.method} ${new URL(c.req.url).pathname}:`, error);
  return failure(c, 500, MESSAGES.internal, 'internal');
}
