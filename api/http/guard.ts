/**
 * The one role guard of the API: no or bad token 401, wrong role 403. The token
 * names a session row, and the row decides: revoked, idle, expired or belonging
 * to a user who is no longer active means 401 at once.
 */
import { createMiddleware } from 'hono/factory';
import type { Role } from '../db/users.ts';
import { touch_active_session } from '../db/sessions.ts';
import { verifySessionToken } from '../domain/tokens.ts';
import { AppError, forbidden, MESSAGES, unauthorized } from './errors.ts';
import type { AppEnv } from './context.ts';

export const ALL_ROLES: readonly Role[] = ['offender', 'attorney', 'representative', 'admin', 'approver'];

function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match?.[1];
}

/**
 * Requires a live session whose user has one of `roles`. A session opened with a
 * temporary password may only reach routes marked `duringPasswordChange`.
 */
export function requireRole(roles: readonly Role[], options: { duringPasswordChange?: boolean } = {}) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const { deps } = c.var;
    const token = bearerToken(c.req.header('authorization'));
    const sessionId = token ? await verifySessionToken(deps.signingKey, token) : undefined;
    const session = sessionId ? await touch_active_session(deps.sql, sessionId) : undefined;
    if (!session) throw unauthorized();
    if (session.must_change_password && !options.duringPasswordChange) {
      throw new AppError(403, MESSAGES.passwordChangeRequired, 'password_change_required');
    }
    if (!roles.includes(session.role)) throw forbidden();
    c.set('session', session);
    await next();
  });
}

/** Any signed-in user. */
export const requireSignedIn = (options: { duringPasswordChange?: boolean } = {}) => requireRole(ALL_ROLES, options);
