/**
 * What the role guard asks of a session on every request, and the audit of how it answered: a session found
 * lapsed is ended and audited once ('session_expired', idle or absolute), a wrong-role refusal is audited
 * ('access_denied'). The SQL is api/db/sessions.ts.
 */
import type postgres from 'postgres';
import { auditedPath, insert_audit_event } from '../db/audit.ts';
import {
  type ActiveSession,
  end_lapsed_session,
  find_active_session,
  touch_session_last_seen,
} from '../db/sessions.ts';
import type { AppDeps } from '../deps.ts';

/**
 * The live session with this id, its last-seen time written when stale; undefined when it may not be used. When
 * the reason is that it lapsed (idle or absolute expiry), the session is ended and 'session_expired' written in one
 * transaction, once per session: the next request finds it ended and writes nothing. `alongside` rides in the
 * session check's statement (find_active_session).
 */
export async function resumeSession(
  deps: Pick<AppDeps, 'sql' | 'sessionSql'>,
  sessionId: string,
  ipAddress: string,
  alongside?: postgres.Fragment,
): Promise<(ActiveSession & { alongside?: unknown }) | undefined> {
  const sessionSql = deps.sessionSql ?? deps.sql;
  const found = await find_active_session(sessionSql, sessionId, alongside);
  if (found) {
    const { stale, ...session } = found;
    // Awaited, so the idle limit counts from this request once it is answered.
    if (stale) await touch_session_last_seen(sessionSql, sessionId);
    return session;
  }
  await deps.sql.begin(async (tx) => {
    const lapsed = await end_lapsed_session(tx, sessionId);
    if (!lapsed) return;
    await insert_audit_event(tx, {
      userId: lapsed.user_id,
      eventType: 'session_expired',
      resourceType: 'session',
      resourceId: sessionId,
      ipAddress,
      eventData: { reason: lapsed.end_reason, lapsedAt: new Date(lapsed.lapsed_at).toISOString() },
    });
  });
  return undefined;
}

/**
 * Audits a signed-in user refused a route for their role ('access_denied'). One event per refused request: the
 * PWA never sends one (each portal calls its own role's routes), so these are probes or a broken client, rare
 * enough to keep each.
 */
export async function recordAccessDenied(
  deps: Pick<AppDeps, 'sql'>,
  session: ActiveSession,
  request: { method: string; path: string; ipAddress: string },
): Promise<void> {
  await insert_audit_event(deps.sql, {
    userId: session.id,
    eventType: 'access_denied',
    resourceType: 'route',
    resourceId: null,
    ipAddress: request.ipAddress,
    eventData: { method: request.method, path: auditedPath(request.path), role: session.role },
  });
}
