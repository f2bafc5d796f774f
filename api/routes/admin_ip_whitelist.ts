/** /api/admin/ip-whitelist: the ranges offenders may connect from (admins only). */
import { Hono } from 'hono';
import { z } from 'zod';
import { list_ip_ranges } from '../db/ip_ranges.ts';
import { DESCRIPTION_MAX } from '../../contract/rules/ip_ranges.ts';
import { addIpRange, changeIpRange, IP_RANGE_TEXTS, removeIpRange } from '../domain/ip_whitelist.ts';
import { actorFrom } from '../domain/user_admin.ts';
import type { AppEnv } from '../http/context.ts';
import { AppError } from '../http/errors.ts';
import { requireRole } from '../http/guard.ts';
import { jsonBodyLimit, valid } from '../http/validate.ts';

const idParam = z.object({ id: z.uuid({ error: IP_RANGE_TEXTS.notFound }) });

/**
 * The domain tells a missing or blank range from a malformed one (a number, an over-long text): zod's own
 * messages for those would not be the spec's.
 */
const ipRangeField = z.unknown();
const descriptionField = z.string({ error: 'Description must be text.' })
  .max(DESCRIPTION_MAX, `Description must be at most ${DESCRIPTION_MAX} characters.`).nullish();

const createBody = z.object({ ipRange: ipRangeField.optional(), description: descriptionField });
const changeBody = z.object({
  ipRange: ipRangeField.optional(),
  description: descriptionField,
  isActive: z.boolean({ error: 'isActive must be true or false.' }).optional(),
});

export const adminIpWhitelistRoutes = new Hono<AppEnv>()
  .use(requireRole(['admin']), jsonBodyLimit)
  .get('/', async (c) => {
    const ipRanges = await list_ip_ranges(c.var.deps.sql);
    return c.json({ success: true, data: { ipRanges } });
  })
  .post('/', valid('json', createBody), async (c) => {
    const result = await addIpRange(
      c.var.deps,
      c.req.valid('json'),
      actorFrom(c.var.session, c.var.clientAddress),
    );
    if (!result.ok) throw new AppError(result.status, result.message);
    return c.json({ success: true, message: result.message, data: { ipRange: result.row } }, 201);
  })
  .put('/:id', valid('param', idParam), valid('json', changeBody), async (c) => {
    const result = await changeIpRange(c.var.deps, c.req.valid('param').id, {
      change: c.req.valid('json'),
      actor: actorFrom(c.var.session, c.var.clientAddress),
    });
    if (!result.ok) throw new AppError(result.status, result.message);
    return c.json({ success: true, message: result.message, data: { ipRange: result.row } });
  })
  .delete('/:id', valid('param', idParam), async (c) => {
    const result = await removeIpRange(
      c.var.deps,
      c.req.valid('param').id,
      actorFrom(c.var.session, c.var.clientAddress),
    );
    if (!result.ok) throw new AppError(result.status, result.message);
    return c.json({ success: true, message: result.message });
  });
