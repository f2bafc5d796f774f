/**
 * Whether the signed-in admin is one of the department's administrators (contract/rules/admin_scope.ts): only they
 * see Settings (with the e-mail outbox) and may create entities; any other admin manages their own entity, and the
 * back office hides what the server would refuse them.
 */
import { isDepartmentAdmin } from '../../../../contract/rules/admin_scope.ts';
import { storage } from '../../lib/storage.ts';

export function signedInAsDepartmentAdmin(): boolean {
  const stored = storage.readUser();
  return stored.ok && isDepartmentAdmin(stored.user);
}
