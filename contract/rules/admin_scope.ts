/**
 * Who an admin administers. Every admin manages their own entity only (its users, offenders, audit log and IP
 * whitelist); the admins of the installation's first entity, the one everyone signs in to (slug 'default', which
 * cannot be renamed), are the department's administrators: they alone create and manage entities and change the
 * installation-wide settings (the CJIS floors, the password and PIN rules) and read the e-mail outbox.
 */

/** The slug of the installation's first entity (spec section 3: the sign-in's fixed entity). */
export const DEPARTMENT_ENTITY_SLUG = 'default';

/** Whether `user` is a department-wide administrator (an admin of the installation's first entity). */
export function isDepartmentAdmin(user: { role: string; entity: string }): boolean {
  return user.role === 'admin' && user.entity === DEPARTMENT_ENTITY_SLUG;
}
