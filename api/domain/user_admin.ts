/** The admin's actions on user accounts: activation and deactivation. */
import { insert_audit_event } from '../db/audit.ts';
import type { Sql } from '../db/client.ts';
import { revoke_user_sessions } from '../db/sessions.ts';
import { lock_user, update_user_status } from '../db/users.ts';
import type { Outcome } from './registration.ts';

/** Who does an admin action, and from where: every action is audited with both. */
export interface Actor {
  userId: string;
  entityId: string;
  ipAddress: string | null;
}

export const USER_TEXTS = {
  activated: 'User activated successfully',
  deactivated: 'User deactivated successfully',
  notFound: 'User not found.',
  self: 'You cannot deactivate your own account.',
  pending: 'A pending account has no status action; it is decided in the approver portal.',
} as const;

/** The user's last events shown in the details modal (spec: 'Recent Activity (Last 10 Events)'). */
export const ACTIVITY_LIMIT = 10;

/**
 * Activates or deactivates a user. Deactivation revokes every session of the user in the same transaction,
 * so their very next request is a 401; the guard also refuses any user who is not active.
 */
export async function changeUserStatus(
  sql: Sql,
  change: { userId: string; status: 'active' | 'deactivated' },
  actor: Actor,
): Promise<Outcome<{ message: string }>> {
  if (change.userId === actor.userId && change.status === 'deactivated') {
    return { ok: false, status: 400, message: USER_TEXTS.self };
  }
  return await sql.begin(async (tx): Promise<Outcome<{ message: string }>> => {
    const user = await lock_user(tx, change.userId);
    if (!user) return { ok: false, status: 404, message: USER_TEXTS.notFound };
    if (user.status === 'pending') return { ok: false, status: 409, message: USER_TEXTS.pending };
    await update_user_status(tx, user.id, change.status);
    if (change.status === 'deactivated') await revoke_user_sessions(tx, user.id);
    await insert_audit_event(tx, {
      userId: actor.userId,
      eventType: 'user_status_updated',
      resourceType: 'user',
      resourceId: user.id,
      ipAddress: actor.ipAddress,
      eventData: {
        from: user.status,
        to: change.status,
        role: user.role,
        email: user.email,
        docNumber: user.doc_number,
      },
    });
    return { ok: true, message: change.status === 'active' ? USER_TEXTS.activated : USER_TEXTS.deactivated };
  });
}

/** The actor of a request: the signed-in admin and the client address. */
export function actorFrom(session: { id: string; entity_id: string }, ipAddress: string | null): Actor {
  return { userId: session.id, entityId: session.entity_id, ipAddress };
}
