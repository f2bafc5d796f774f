/** A user as the admin screens show it (GET /api/admin/users, the added offender). */
import type { Language } from '../languages.ts';
import type { Role, UserStatus } from './user.ts';

export interface AdminUser {
  id: string;
  first_name: string;
  last_name: string;
  email: string | null;
  doc_number: string | null;
  role: Role;
  status: UserStatus;
  entity_name: string | null;
  /** The user's saved language; null: none saved (the entity's default applies). */
  language: Language | null;
  /** ISO 8601. */
  created_at: string;
  /**
   * ISO 8601: the end of the lock that failed sign-ins put on the account (`failed_login_limit` in a row), while
   * it is in force; null when the account is not locked.
   */
  locked_until: string | null;
}

/**
 * GET /api/admin/users with any of `q`, `role`, `status`, `limit`, `cursor`: one page of the matching users,
 * newest first; `nextCursor` goes in `cursor` for the next page (null on the last). Without any of them the
 * answer is still `{ users }`, every user.
 */
export interface AdminUserPage {
  users: AdminUser[];
  nextCursor: string | null;
  /** How many users match `q`, `role` and `status` in all pages (counted afresh with every page). */
  total: number;
}

/**
 * PUT /api/admin/users/{id}/status body. 'released' and 'transferred' are for offenders only: they cannot sign
 * in or be sent to, and their documents are deleted `release_purge_days` later; 'active' brings them back.
 */
export interface UserStatusRequest {
  status: 'active' | 'deactivated' | 'released' | 'transferred';
}

/** PUT /api/admin/users/{id}/language body: the user's saved language (null: none, the entity's default). */
export interface UserLanguageRequest {
  language: Language | null;
}

/** POST /api/admin/offenders body. */
export interface OffenderRequest {
  docNumber: string;
  firstName: string;
  lastName: string;
  pin: string;
}

/**
 * POST /api/admin/users/staff body ("Add Staff"): an admin or approver account, whose owner is e-mailed a link to
 * set its password. `entity` is an entity's slug, for a department-wide administrator staffing another entity;
 * absent, the admin's own.
 */
export interface StaffRequest {
  email: string;
  firstName: string;
  lastName: string;
  role: 'admin' | 'approver';
  entity?: string;
}

/** POST /api/admin/users/staff answer (201): the account made, in the entity of that slug. */
export interface StaffAddedAnswer {
  success: true;
  message: string;
  data: { userId: string; entity: string };
}

/** PUT /api/admin/offenders/{id}/pin body. */
export interface PinResetRequest {
  pin: string;
}

/** GET /api/admin/users answer without a page parameter: every user of the admin's entity. */
export interface AdminUserListAnswer {
  success: true;
  users: AdminUser[];
}

/** GET /api/admin/users answer with any page parameter. */
export interface AdminUserPageAnswer extends AdminUserPage {
  success: true;
}

/** POST /api/admin/offenders answer (201): the offender as added, as the Users list shows them. */
export interface OffenderAddedAnswer {
  success: true;
  message: string;
  data: { user: AdminUser };
}
