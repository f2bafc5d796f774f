/**
 * The one role guard of the API: no or bad token 401, wrong role 403 (audited). The token
 * names a session row, and the row decides: revoked, idle, expired (audited once) or
 * belonging to a user or entity that is no longer active means 401 at once.
 */
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type postgres from 'postgres';
import { type Role, ROLES } from '../../contract/shapes/user.ts';
import { isDepartmentAdmin } from '../../contract/rules/admin_scope.ts';
import { recordAccessDenied, resumeSession } from '../domain/sessions.ts';
import { AppError, forbidden, MESSAGES, unauthorized } from './errors.ts';
import type { AppEnv } from './context.ts';
import { checkOffenderNetwork } from '../domain/ip_whitelist.ts';
import { failureError, refusal } from './failures.ts';
import { verifiedSessionId } from './verified_tokens.ts';
import { documented } from './route_docs.ts';

export const ALL_ROLES: readonly Role[] = ROLES;

/** The token of an `Authorization: Bearer …` header. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match?.[1];
}

export interface GuardOptions {
  /** The route is allowed while a temporary password must still be replaced. */
  duringPasswordChange?: boolean;
  /** The route skips the offender IP whitelist (only sign-out). */
  fromAnyNetwork?: boolean;
  /**
   * The route is allowed while the tablet's lock screen is up (only unlock, lock and sign-out): a locked
   * session's token, read from a tablet's disk or memory, opens no mail and no offline key.
   */
  whileLocked?: boolean;
  /**
   * The route's first read, carried by the session check's own statement so the request costs one round trip to
   * the database, not two (the document readings: bench:stream). Built from the request and the session id of
   * the verified token, before the session is known to be live, so it must only read: its value comes back with
   * a live session's row alone, and reaches the handler (`c.var.alongside`) only once every check here passed.
   * The handler still applies its own access rule to it. Undefined: nothing to carry (the handler reads itself).
   */
  alongside?: (c: Context<AppEnv>, sessionId: string) => postgres.Fragment | undefined;
  /**
   * Only a department-wide administrator (an admin of the installation's first entity) may use the route: the
   * entities and the installation-wide settings. Any other admin gets 403 `department_admin_only` (audited).
   */
  departmentOnly?: boolean;
}

/**
 * Requires a live session whose user has one of `roles`. A session opened with a
 * temporary password may only reach routes marked `duringPasswordChange`.
 */
export function requireRole(roles: readonly Role[], options: GuardOptions = {}) {
  const guard = createMiddleware<AppEnv>(async (c, next) => {
    const { deps } = c.var;
    const token = bearerToken(c.req.header('authorization'));
    const sessionId = token
      ? await verifiedSessionId(deps.signingKey, token, deps.previousSigningKey)
      : undefined;
    const carried = sessionId ? options.alongside?.(c, sessionId) : undefined;
    const resumed = sessionId
      ? await resumeSession(deps, sessionId, c.var.clientAddress, carried)
      : undefined;
    if (!resumed) throw unauthorized();
    const { alongside, ...session } = resumed;
    // An offender outside every active whitelist range is refused whatever the route (docs/api.md), except
    // signing out: ending a session from anywhere only ever reduces access.
    if (!options.fromAnyNetwork) {
      const network = await checkOffenderNetwork(deps, session, {
        ipAddress: c.var.clientAddress,
        method: c.req.method,
        path: c.req.path,
      });
      if (!network.ok) throw failureError(network);
    }
    if (session.locked && !options.whileLocked) throw refusal('session_locked');
    if (session.must_change_password && !options.duringPasswordChange) {
      // A session opened with a PIN an admin reset may only choose a new PIN (api/domain/pin_reset.ts).
      if (session.role === 'offender') throw refusal('pin_change_required');
      throw new AppError(403, MESSAGES.passwordChangeRequired, 'password_change_required');
    }
    if (!roles.includes(session.role)) {
      await recordAccessDenied(deps, session, {
        method: c.req.method,
        path: c.req.path,
        ipAddress: c.var.clientAddress,
      });
      throw forbidden();
    }
    c.set('session', session);
    if (options.departmentOnly) await refuseUnlessDepartmentAdmin(c);
    if (carried) c.set('alongside', { value: alongside });
    await next();
  });
  // The API reference names the roles of each route from here (api/http/route_docs.ts).
  return documented(guard, { roles, departmentOnly: options.departmentOnly });
}

/** Any signed-in user. */
export const requireSignedIn = (options: GuardOptions = {}) => requireRole(ALL_ROLES, options);

/** 403 `department_admin_only` (audited as a wrong role is) unless the signed-in user is a department admin. */
async function refuseUnlessDepartmentAdmin(c: Context<AppEnv>): Promise<void> {
  const { session } = c.var;
  if (isDepartmentAdmin({ role: session.role, entity: session.entity_slug })) return;
  await recordAccessDenied(c.var.deps, session, {
    method: c.req.method,
    path: c.req.path,
    ipAddress: c.var.clientAddress,
  });
  throw refusal('department_admin_only');
}

/** After requireRole: the route is a department-wide administrator's only (GuardOptions.departmentOnly). */
export const requireDepartmentAdmin = documented(
  createMiddleware<AppEnv>(async (c, next) => {
    await refuseUnlessDepartmentAdmin(c);
    await next();
  }),
  { departmentOnly: true },
);
