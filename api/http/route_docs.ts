/**
 * What a middleware tells the API reference about the routes it guards or validates. The reference
 * (api/http/openapi.ts) walks the app's own routes and reads this for each middleware it finds on them, so a new
 * route is documented with its inputs and its roles by being written the usual way: `valid(...)` and
 * `requireRole(...)` register what they check on the middleware they return.
 */
import type { z } from 'zod';
import type { Role } from '../../contract/shapes/user.ts';

/** The request inputs `valid(...)` checks: `json`, `query`, `param`, `form`, `header`… */
export interface ValidatedInput {
  target: string;
  schema: z.ZodType;
}

export interface MiddlewareDoc {
  input?: ValidatedInput;
  /** The roles a guard admits. */
  roles?: readonly Role[];
  /** The guard admits only the department's administrators (contract/rules/admin_scope.ts). */
  departmentOnly?: boolean;
}

// Keyed by the middleware function itself, so nothing is kept alive that the app does not hold.
const docs = new WeakMap<object, MiddlewareDoc>();

/** Records what `middleware` checks, and returns it unchanged. */
export function documented<T extends object>(middleware: T, doc: MiddlewareDoc): T {
  docs.set(middleware, doc);
  return middleware;
}

/** What a middleware registered about itself, if anything. */
export function middlewareDoc(middleware: unknown): MiddlewareDoc | undefined {
  return typeof middleware === 'function' ? docs.get(middleware) : undefined;
}
