/**
 * /api/admin/users: every user or a searched page of them, activation and deactivation, lifting a sign-in lock,
 * and a user's recent activity (admins only, each reaching only their own entity's users: another entity's user
 * answers 404).
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { type ActivityEvent as ActivityRow, insert_audit_event, list_user_activity } from '../db/audit.ts';
import {
  count_users_for_admin,
  find_user_by_id,
  list_users_for_admin,
  list_users_page_for_admin,
} from '../db/users.ts';
import { actorFrom } from '../domain/actor.ts';
import { adminResetStaffPassword } from '../domain/password_reset.ts';
import { ACTIVITY_LIMIT, changeUserStatus, toAdminUser, unlockUser } from '../domain/user_admin.ts';
import { createStaffAccount } from '../domain/staff_account.ts';
import { isValidEmail, REGISTRATION_MESSAGES } from '../../contract/rules/registration.ts';
import { hasUnsafeNameCharacters, NAME_CHARACTERS_MESSAGE } from '../../contract/rules/names.ts';
import type {
  AdminUserPage,
  StaffAddedAnswer,
  StaffRequest,
  UserLanguageRequest,
  UserStatusRequest,
} from '../../contract/shapes/admin_user.ts';
import { LANGUAGES } from '../../contract/languages.ts';
import { setUserLanguage } from '../domain/languages.ts';
import { ROLES, USER_STATUSES } from '../../contract/shapes/user.ts';
import type { ActivityEvent } from '../../contract/shapes/audit_log.ts';
import type { AppEnv } from '../http/context.ts';
import { failureError, failureText, refusal } from '../http/failures.ts';
import { requireRole } from '../http/guard.ts';
import { SUCCESS } from '../http/messages.ts';
import { canonicalUuid, jsonBodyLimit, valid } from '../http/validate.ts';
import type { AdminUserListAnswer, AdminUserPageAnswer } from '../../contract/shapes/admin_user.ts';
import type { MessageAnswer } from '../../contract/shapes/answer.ts';
import type { ActivityAnswer } from '../../contract/shapes/audit_log.ts';

function toActivityEvent(row: ActivityRow): ActivityEvent {
  return { ...row, created_at: new Date(row.created_at).toISOString() };
}

const idParam = z.object({ id: canonicalUuid(failureText('user_not_found')) });
const statusBody = z.object({
  status: z.enum(['active', 'deactivated', 'released', 'transferred'], {
    error: "Status must be 'active', 'deactivated', 'released' or 'transferred'.",
  }),
}) satisfies z.ZodType<UserStatusRequest>;

const languageBody = z.object({
  language: z.enum(LANGUAGES, { error: "Language must be 'en', 'es' or null." }).nullable(),
}) satisfies z.ZodType<UserLanguageRequest>;

const NAME_MAX = 100;
const nameField = (label: string) =>
  z.string({ error: `${label} is required` }).trim().min(1, `${label} is required`)
    .max(NAME_MAX, `${label} must be at most ${NAME_MAX} characters`)
    .refine((v) => !hasUnsafeNameCharacters(v), NAME_CHARACTERS_MESSAGE);
const staffBody = z.object({
  email: z.string({ error: REGISTRATION_MESSAGES.email }).trim().max(254, REGISTRATION_MESSAGES.email)
    .refine(isValidEmail, REGISTRATION_MESSAGES.email),
  firstName: nameField('First name'),
  lastName: nameField('Last name'),
  role: z.enum(['admin', 'approver'], { error: "Role must be 'admin' or 'approver'." }),
  entity: z.string({ error: 'Entity must be an entity slug.' }).max(100, 'Entity must be an entity slug.')
    .optional(),
}) satisfies z.ZodType<StaffRequest>;

const STATUS_MESSAGES: Record<UserStatusRequest['status'], string> = {
  active: SUCCESS.userActivated,
  deactivated: SUCCESS.userDeactivated,
  released: SUCCESS.userReleased,
  transferred: SUCCESS.userTransferred,
};

/** The page size when `limit` is not given, as the audit log's. */
const USER_PAGE_SIZE = 50;

const blankIsAbsent = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' || v === 'all' ? undefined : v), schema);
const pageQuery = z.object({
  q: blankIsAbsent(
    z.string({ error: 'Search must be given once.' }).max(200, 'Search is too long.').optional(),
  ),
  role: blankIsAbsent(z.enum(ROLES, { error: 'Role is not valid.' }).optional()),
  status: blankIsAbsent(z.enum(USER_STATUSES, { error: 'Status is not valid.' }).optional()),
  cursor: blankIsAbsent(canonicalUuid('The page cursor is not valid.').optional()),
  limit: blankIsAbsent(
    z.coerce.number({ error: 'Limit must be a number from 1 to 200.' }).int(
      'Limit must be a number from 1 to 200.',
    )
      .min(1, 'Limit must be a number from 1 to 200.').max(200, 'Limit must be a number from 1 to 200.')
      .optional(),
  ),
});
const PAGE_PARAMS = ['q', 'role', 'status', 'cursor', 'limit'];

export const adminUserRoutes = new Hono<AppEnv>()
  .use(requireRole(['admin']), jsonBodyLimit)
  .get('/', valid('query', pageQuery), async (c) => {
    const { sql } = c.var.deps;
    // Without page parameters: every user, as the screen has always loaded them.
    if (!PAGE_PARAMS.some((p) => c.req.query(p) !== undefined)) {
      const users = await list_users_for_admin(sql, c.var.session.entity_id);
      return c.json({ success: true, users: users.map(toAdminUser) } satisfies AdminUserListAnswer);
    }
    const query = c.req.valid('query');
    const limit = query.limit ?? USER_PAGE_SIZE;
    const filter = {
      entityId: c.var.session.entity_id,
      search: query.q,
      role: query.role,
      status: query.status,
    };
    // One more row than asked tells whether another page exists; the total is counted apart, for the screen's
    // 'Showing X of Y users' (the page alone cannot say how many match).
    const [rows, total] = await Promise.all([
      list_users_page_for_admin(sql, { ...filter, afterId: query.cursor, limit: limit + 1 }),
      count_users_for_admin(sql, filter),
    ]);
    const users = rows.slice(0, limit).map(toAdminUser);
    const page: AdminUserPage = {
      users,
      nextCursor: rows.length > limit ? users[users.length - 1].id : null,
      total,
    };
    return c.json({ success: true, ...page } satisfies AdminUserPageAnswer);
  })
  // "Add Staff": an admin or approver, e-mailed a link to set their password (api/domain/staff_account.ts).
  .post('/staff', valid('json', staffBody), async (c) => {
    const result = await createStaffAccount(
      c.var.deps,
      c.req.valid('json'),
      actorFrom(c.var.session, c.var.clientAddress),
    );
    if (!result.ok) throw failureError(result);
    return c.json(
      {
        success: true,
        message: SUCCESS.staffCreated,
        data: { userId: result.userId, entity: result.entitySlug },
      } satisfies StaffAddedAnswer,
      201,
    );
  })
  .put('/:id/status', valid('param', idParam), valid('json', statusBody), async (c) => {
    const { status } = c.req.valid('json');
    const result = await changeUserStatus(
      c.var.deps.sql,
      { userId: c.req.valid('param').id, status },
      actorFrom(c.var.session, c.var.clientAddress),
    );
    if (!result.ok) throw failureError(result);
    return c.json({ success: true, message: STATUS_MESSAGES[status] } satisfies MessageAnswer);
  })
  // Lifts the lock of failed sign-ins: the user may sign in again at once, with the secret they have.
  .post('/:id/unlock', valid('param', idParam), async (c) => {
    const result = await unlockUser(
      c.var.deps.sql,
      c.req.valid('param').id,
      actorFrom(c.var.session, c.var.clientAddress),
    );
    if (!result.ok) throw failureError(result);
    return c.json({ success: true, message: SUCCESS.accountUnlocked } satisfies MessageAnswer);
  })
  // The user's saved language (null: none, the entity's default): it applies from their next sign-in on.
  .put('/:id/language', valid('param', idParam), valid('json', languageBody), async (c) => {
    const { language } = c.req.valid('json');
    const result = await setUserLanguage(
      c.var.deps.sql,
      { userId: c.req.valid('param').id, language },
      actorFrom(c.var.session, c.var.clientAddress),
    );
    if (!result.ok) throw failureError(result);
    return c.json({ success: true, message: SUCCESS.languageSaved, language });
  })
  // A staff member's password: the old one stops working and the owner is e-mailed a link to set a new one.
  .post('/:id/password-reset', valid('param', idParam), async (c) => {
    const result = await adminResetStaffPassword(
      c.var.deps,
      c.req.valid('param').id,
      actorFrom(c.var.session, c.var.clientAddress),
    );
    if (!result.ok) throw failureError(result);
    return c.json({ success: true, message: SUCCESS.staffPasswordReset } satisfies MessageAnswer);
  })
  .get('/:id/activity', valid('param', idParam), async (c) => {
    const { sql } = c.var.deps;
    const { id } = c.req.valid('param');
    // Another entity's user is as missing as an unknown one.
    const user = await find_user_by_id(sql, id);
    if (!user || user.entity_id !== c.var.session.entity_id) throw refusal('user_not_found');
    const events = await list_user_activity(sql, id, ACTIVITY_LIMIT);
    // An admin reading someone's activity is a read of the audit log: audited like the log screen.
    await insert_audit_event(sql, {
      userId: c.var.session.id,
      eventType: 'user_activity_viewed',
      resourceType: 'user',
      resourceId: id,
      ipAddress: c.var.clientAddress,
      eventData: { rows: events.length },
    });
    return c.json({ success: true, data: { events: events.map(toActivityEvent) } } satisfies ActivityAnswer);
  });
