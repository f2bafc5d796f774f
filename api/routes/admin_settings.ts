/**
 * /api/admin/settings: the typed system settings and their edits. Every setting is the installation's (the CJIS
 * floors, the password and PIN rules, retention…), so only the department's administrators read or change them.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { list_settings, type SettingRow } from '../db/settings.ts';
import type { Setting, SettingRequest } from '../../contract/shapes/setting.ts';
import { actorFrom } from '../domain/actor.ts';
import { changeSetting } from '../domain/settings.ts';
import type { AppEnv } from '../http/context.ts';
import { failureError, failureText } from '../http/failures.ts';
import { SUCCESS } from '../http/messages.ts';
import { requireRole } from '../http/guard.ts';
import { jsonBodyLimit, valid } from '../http/validate.ts';
import type { MessageAnswer } from '../../contract/shapes/answer.ts';
import type { SettingListAnswer } from '../../contract/shapes/setting.ts';

function toSetting(row: SettingRow): Setting {
  return { ...row, updated_at: new Date(row.updated_at).toISOString() };
}

const keyParam = z.object({
  key: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, failureText('setting_not_found')),
});
const VALUE_SHAPE = 'The value must be an object with a type (number, boolean or text) and a value.';
const settingBody = z.object({
  value: z.object({
    type: z.enum(['number', 'boolean', 'text'], { error: VALUE_SHAPE }),
    value: z.union([z.number(), z.boolean(), z.string().max(2000, 'The value is too long.')], {
      error: VALUE_SHAPE,
    }),
    unit: z.string().max(50).optional(),
  }, { error: VALUE_SHAPE }),
}, { error: VALUE_SHAPE }) satisfies z.ZodType<SettingRequest>;

export const adminSettingRoutes = new Hono<AppEnv>()
  .use(requireRole(['admin'], { departmentOnly: true }), jsonBodyLimit)
  .get('/', async (c) => {
    const settings = await list_settings(c.var.deps.sql);
    return c.json({ success: true, data: { settings: settings.map(toSetting) } } satisfies SettingListAnswer);
  })
  .put('/:key', valid('param', keyParam), valid('json', settingBody), async (c) => {
    const result = await changeSetting(
      c.var.deps.sql,
      c.req.valid('param').key,
      c.req.valid('json').value,
      actorFrom(c.var.session, c.var.clientAddress),
    );
    if (!result.ok) throw failureError(result);
    return c.json({ success: true, message: SUCCESS.settingUpdated } satisfies MessageAnswer);
  });
