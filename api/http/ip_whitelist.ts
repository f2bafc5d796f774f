/**
 * The enforcement of the IP whitelist on offender API calls (the role guard runs it once the session is
 * known; sign-in asks the same question in api/domain/auth.ts). Staff are never restricted by it.
 */
import { insert_audit_event } from '../db/audit.ts';
import type { ActiveSession } from '../db/sessions.ts';
import type { AppDeps } from '../deps.ts';
import { offenderAddressAllowed } from '../domain/ip_whitelist.ts';
import { AppError } from './errors.ts';

/** docs/api.md, IP whitelist: the refusal text, verbatim. */
export const IP_NOT_ALLOWED_MESSAGE =
  'Access from this network is not allowed. Please use a facility tablet.';

/** 403 with the code the PWA may branch on. */
export const ipNotAllowed = () => new AppError(403, IP_NOT_ALLOWED_MESSAGE, 'ip_not_allowed');

/**
 * Refuses an offender's call from outside every active range, and records the attempt: a live offender
 * session used from outside the facility is worth an admin's attention.
 */
export async function enforceOffenderNetwork(
  deps: AppDeps,
  session: ActiveSession,
  request: { ipAddress: string; method: string; path: string },
): Promise<void> {
  if (session.role !== 'offender') return;
  if (await offenderAddressAllowed(deps.sql, request.ipAddress)) return;
  await insert_audit_event(deps.sql, {
    userId: session.id,
    eventType: 'request_blocked_ip',
    resourceType: 'session',
    resourceId: session.session_id,
    ipAddress: request.ipAddress,
    eventData: { method: request.method, path: request.path },
  });
  throw ipNotAllowed();
}
