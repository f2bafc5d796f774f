/** /api/admin/users: every user, activation and deactivation, and a user's recent activity (admins only). */
import { Hono } from 'hono';
import { z } from 'zod';
import { list_user_activity } from '../db/audit.ts';
import { find_user_by_id, list_users_for_admin } from '../db/users.ts';
import { ACTIVITY_LIMIT, actorFrom, changeUserStatus, USER_TEXTS } from '../domain/user_admin.ts';
import type { AppEnv } from '../http/context.ts';
import { AppError, notFound } from '../http/errors.ts';
import { requireRole } from '../http/guard.ts';
import { jsonBodyLimit, valid } from '../http/validate.ts';

const idParam = z.object({ id: z.uuid({ error: USER_TEXTS.notFound }) });
const statusBody = z.object({
  status: z.enum(['active', 'deactivated'], { error: "Status must be 'active' or 'deactivated'." }),
});

export const adminUserRoutes = new Hono<AppEnv>()
  .use(requireRole(['admin']), jsonBodyLimit)
  .get('/', async (c) => {
    const users = await list_users_for_admin(c.var.deps.sql);
    return c.json({ success: true, users });
  })
  .put('/:id/status', valid('param', idParam), valid('json', statusBody), async (c) => {
    const result = await changeUserStatus(
      c.var.deps.sql,
      { userId: c.req.valid('param').id, status: c.req.valid('json').status },
      actorFrom(c.var.session, c.var.clientAddress),
    );
    if (!result.ok) throw new AppError(result.status, result.message);
    return c.json({ success: true, message: result.message });
  })
  .get('/:id/activity', valid('param', idParam), async (c) => {
    const { sql } = c.var.deps;
    const { id } = c.req.valid('param');
    if (!await find_user_by_id(sql, id)) throw notFound(USER_TEXTS.notFound);
    const events = await list_user_activity(sql, id, ACTIVITY_LIMIT);
    return c.json({ success: true, data: { events } });
  });
