/** The admin's actions on user accounts: activation and deactivation, and lifting a sign-in lock. */
import { insert_audit_event } from '../db/audit.ts';
import type { Sql } from '../db/client.ts';
import { clear_login_lock } from '../db/login_throttle.ts';
import { revoke_user_sessions } from '../db/sessions.ts';
import { type AdminUserRow, lock_user, update_user_status } from '../db/users.ts';
import type { AdminUser } from '../../contract/shapes/admin_user.ts';
import type { Actor } from './actor.ts';
import { fail, type Outcome } from './outcome.ts';
import { accountAttemptKey } from './sign_in_throttle.ts';

/** A user as the admin screens show it (the users list, and the answer of adding an offender). */
export function toAdminUser(row: AdminUserRow): AdminUser {
  return {
    ...row,
    created_at: new Date(row.created_at).toISOString(),
    locked_until: row.locked_until ? new Date(row.locked_until).toISOString() : null,
  };
}

/** The user's last events shown in the details modal (spec: 'Recent Activity (Last 10 Events)'). */
export const ACTIVITY_LIMIT = 10;

/**
 * Activates or deactivates a user, or marks an offender released or transferred (they cannot sign in or be sent
 * to; their documents are deleted `release_purge_days` later, api/domain/retention.ts). Any status but active
 * revokes every session of the user in the same transaction, so their very next request is refused as signed
 * out; the guard also refuses any user who is not active.
 */
export async function changeUserStatus(
  sql: Sql,
  change: { userId: string; status: 'active' | 'deactivated' | 'released' | 'transferred' },
  actor: Actor,
): Promise<Outcome> {
  return await sql.begin(async (tx): Promise<Outcome> => {
    const user = await lock_user(tx, change.userId);
    // Another entity's user is as missing as an unknown one: an admin manages their own entity only.
    if (!user || user.entity_id !== actor.entityId) return fail('user_not_found');
    // The row's id, not the one asked for: PostgreSQL finds a row whatever the case of the id it is given.
    if (user.id === actor.userId && change.status !== 'active') return fail('user_self_deactivation');
    if (user.status === 'pending') return fail('user_pending');
    const leaving = change.status === 'released' || change.status === 'transferred';
    if (leaving && user.role !== 'offender') return fail('user_not_offender');
    await update_user_status(tx, user.id, change.status);
    if (change.status !== 'active') await revoke_user_sessions(tx, user.id);
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
    return { ok: true };
  });
}

/**
 * Lifts the lock that failed sign-ins (`failed_login_limit` in a row) put on a user of the admin's entity, and
 * starts their count again: they may sign in at once rather than after `lockout_minutes`. Their secret is
 * unchanged (a PIN reset is the other way back, when the PIN itself is in doubt). Audited `account_unlocked`
 * with the lock's end; an account without a lock in force is answered alike, its count cleared.
 */
export async function unlockUser(sql: Sql, userId: string, actor: Actor): Promise<Outcome> {
  return await sql.begin(async (tx): Promise<Outcome> => {
    const user = await lock_user(tx, userId);
    // Another entity's user is as missing as an unknown one.
    if (!user || user.entity_id !== actor.entityId) return fail('user_not_found');
    const { username } = accountAttemptKey(user, actor.ipAddress ?? '');
    const { lockedUntil } = await clear_login_lock(tx, user.entity_id, username);
    await insert_audit_event(tx, {
      userId: actor.userId,
      eventType: 'account_unlocked',
      resourceType: 'user',
      resourceId: user.id,
      ipAddress: actor.ipAddress,
      eventData: {
        lockedUntil: lockedUntil?.toISOString() ?? null,
        role: user.role,
        email: user.email,
        docNumber: user.doc_number,
      },
    });
    return { ok: true };
  });
}
