/** /api/preferences: a sender's own settings (the opt-in "opened" e-mail), kept on the server. */
import { Hono } from 'hono';
import { z } from 'zod';
import { find_preferences, update_preferences } from '../db/users.ts';
import { insert_audit_event } from '../db/audit.ts';
import type { Preferences } from '../../contract/shapes/preferences.ts';
import type { AppEnv } from '../http/context.ts';
import { requireRole } from '../http/guard.ts';
import { SUCCESS } from '../http/messages.ts';
import { jsonBodyLimit, valid } from '../http/validate.ts';
import type { PreferencesAnswer, PreferencesSavedAnswer } from '../../contract/shapes/preferences.ts';

const preferencesBody = z.object({
  notifyOnOpen: z.boolean({ error: 'notifyOnOpen must be true or false.' }),
}) satisfies z.ZodType<Preferences>;

export const preferenceRoutes = new Hono<AppEnv>()
  .use(requireRole(['attorney', 'representative']), jsonBodyLimit)
  .get('/', async (c) => {
    const preferences: Preferences = await find_preferences(c.var.deps.sql, c.var.session.id);
    return c.json({ success: true, preferences } satisfies PreferencesAnswer);
  })
  .put('/', valid('json', preferencesBody), async (c) => {
    const { sql } = c.var.deps;
    const preferences: Preferences = c.req.valid('json');
    await sql.begin(async (tx) => {
      await update_preferences(tx, c.var.session.id, preferences);
      await insert_audit_event(tx, {
        userId: c.var.session.id,
        eventType: 'preferences_updated',
        resourceType: 'user',
        resourceId: c.var.session.id,
        ipAddress: c.var.clientAddress,
        eventData: { ...preferences },
      });
    });
    return c.json(
      { success: true, message: SUCCESS.preferencesSaved, preferences } satisfies PreferencesSavedAnswer,
    );
  });
