/**
 * The one zod-validator wrapper: a failed check answers 400 with the first
 * problem in plain words; handlers read `c.req.valid(...)` and never cast.
 */
import { zValidator } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import { isStorableText } from '../db/storable_text.ts';
import { AppError, MESSAGES } from './errors.ts';
import { documented } from './route_docs.ts';

/** First problem of a zod error, readable by a person. */
export function describeIssue(error: { issues: readonly z.core.$ZodIssue[] }): string {
  const issue = error.issues[0];
  if (!issue) return 'The request is not valid.';
  // Our schemas carry their own messages; zod's defaults start with "Invalid" or "Too".
  const generic = /^(Invalid|Too (big|small)|Unrecognized|Expected)/.test(issue.message);
  if (!generic) return issue.message;
  if (issue.path.length === 0) return 'The request must be a JSON object with the expected fields.';
  const field = issue.path.join('.');
  if (issue.code === 'invalid_type') {
    return /received undefined/.test(issue.message)
      ? `${field} is required.`
      : `${field} has the wrong type.`;
  }
  if (issue.code === 'too_big') return `${field} is too long.`;
  if (issue.code === 'too_small') return `${field} is too short.`;
  return `${field} is not valid.`;
}

/**
 * The path of the first string in `value` that PostgreSQL could not store, or undefined. A NUL would otherwise make
 * a 500 of an upload, and of a registration only for an unknown address: an account-enumeration oracle.
 */
function unstorableAt(value: unknown, path: string[] = []): string[] | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : path;
  if (value === null || typeof value !== 'object' || value instanceof Blob) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = unstorableAt(item, [...path, key]);
    if (found) return found;
  }
  return undefined;
}

/** Refuses (400) input holding text PostgreSQL could not store, before anything acts on it. */
export function refuseUnstorableText(value: unknown): void {
  const path = unstorableAt(value);
  if (!path) return;
  const field = path.length ? path.join('.') : 'The request';
  throw new AppError(400, `${field} contains a character that is not allowed.`, 'invalid');
}

/** Validates one part of the request against a zod schema, and refuses text PostgreSQL could not store. */
export function valid<T extends z.ZodType, Target extends keyof ValidationTargets>(
  target: Target,
  schema: T,
) {
  const middleware = zValidator(target, schema, (result) => {
    if (!result.success) throw new AppError(400, describeIssue(result.error), 'invalid');
    refuseUnstorableText(result.data);
  });
  // The API reference reads the schema from here (api/http/route_docs.ts).
  return documented(middleware, { input: { target, schema } });
}

/**
 * A UUID in the lower case PostgreSQL writes it in. PostgreSQL finds a row whatever the case of the id it is asked
 * for, where JavaScript's === tells 'ABC…' from 'abc…': an id that code compares (one's own account, one's own
 * entity) must be the canonical one, or its upper case would get past the comparison and still find the row.
 */
export const canonicalUuid = (error: string) => z.uuid({ error }).transform((id) => id.toLowerCase());

/** JSON bodies are small forms: anything past 64 KiB is refused before it is parsed. */
export const JSON_BODY_LIMIT = 64 * 1024;

/** Refuses an oversized JSON body with 413 as it streams in. */
export const jsonBodyLimit = bodyLimit({
  maxSize: JSON_BODY_LIMIT,
  onError: () => {
    throw new AppError(413, MESSAGES.tooLarge, 'too_large');
  },
});
