/**
 * "Add Staff": an admin makes an admin or approver account, and its owner is e-mailed a set-password link valid
 * ADMIN_LINK_MINUTES (the same account and link as `npm run admin:create`, api/domain/admin_account.ts, with the
 * link e-mailed rather than printed).
 *
 * Who may make whom (docs/security.md): a department-wide administrator makes admins and approvers of any entity,
 * so a new entity is not a dead end; an entity's own admin makes approvers of their own entity only. Another
 * entity is as unknown to them as a missing one (404), as on every admin route; an admin account made by an
 * entity's admin is refused as the department's (403).
 */
import type { AppDeps } from '../deps.ts';
import { insert_audit_event } from '../db/audit.ts';
import { find_entity, find_entity_by_slug } from '../db/entities.ts';
import { lock_user } from '../db/users.ts';
import type { Actor } from './actor.ts';
import { insertStaffAwaitingPassword } from './admin_account.ts';
import { fail, type Failure } from './outcome.ts';
import { ADMIN_LINK_MINUTES, newToken, sendLink } from './password_reset.ts';
import { hashSecret } from './passwords.ts';
import type { StaffRequest } from '../../contract/shapes/admin_user.ts';

/** Makes the account and queues its set-password e-mail, in one transaction; audited `user_created`. */
export async function createStaffAccount(
  deps: Pick<AppDeps, 'sql' | 'config' | 'mfaKey'>,
  request: StaffRequest,
  actor: Actor,
): Promise<{ ok: true; userId: string; entitySlug: string } | Failure> {
  if (request.role === 'admin' && !actor.departmentAdmin) return fail('department_admin_only');
  const email = request.email.trim().toLowerCase();
  // Nobody knows this secret: until the owner uses the link, nothing signs in.
  const unusableHash = await hashSecret(newToken(), undefined, { patient: true });
  return await deps.sql.begin(async (tx) => {
    const entity = request.entity === undefined
      ? await find_entity(tx, actor.entityId)
      : await find_entity_by_slug(tx, request.entity);
    // Another entity is the department's to staff: to an entity's admin it is as missing as an unknown one.
    if (!entity || (entity.id !== actor.entityId && !actor.departmentAdmin)) return fail('entity_not_found');
    const entityId = entity.id;
    const made = await insertStaffAwaitingPassword(tx, {
      entityId,
      role: request.role,
      email,
      firstName: request.firstName.trim(),
      lastName: request.lastName.trim(),
    }, unusableHash);
    if (!made.ok) return fail('user_email_taken');
    const user = await lock_user(tx, made.id);
    if (!user) throw new Error('the account just made is missing');
    await sendLink(tx, deps, { ...user, email }, {
      purpose: 'admin_reset',
      createdBy: actor.userId,
      minutes: ADMIN_LINK_MINUTES,
      cause: 'account_created',
    });
    const slug = user.entity_slug;
    await insert_audit_event(tx, {
      userId: actor.userId,
      eventType: 'user_created',
      resourceType: 'user',
      resourceId: made.id,
      ipAddress: actor.ipAddress,
      eventData: { via: 'add_staff', role: request.role, email, entity: slug },
    });
    return { ok: true as const, userId: made.id, entitySlug: slug };
  });
}
