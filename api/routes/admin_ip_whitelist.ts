/**
 * /api/admin/ip-whitelist: the ranges the admin's entity's offenders may connect from (admins only, each
 * reaching only their own entity's ranges: another entity's range id answers 404 like a missing one).
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { type IpRangeRow, list_ip_ranges } from '../db/ip_whitelist.ts';
import { actorFrom } from '../domain/actor.ts';
import {
  addIpRange,
  changeIpRange,
  type IpRangeChangeKind,
  removeIpRange,
  whitelistPolicy,
} from '../domain/ip_whitelist.ts';
import { DESCRIPTION_MAX } from '../../contract/rules/ip_ranges.ts';
import type { IpRangeEntry, IpRangeRequest, IpWhitelistPolicy } from '../../contract/shapes/ip_range.ts';
import type { AppEnv } from '../http/context.ts';
import { failureError, failureText } from '../http/failures.ts';
import { requireRole } from '../http/guard.ts';
import { SUCCESS } from '../http/messages.ts';
import { canonicalUuid, jsonBodyLimit, valid } from '../http/validate.ts';
import type { IpRangeSavedAnswer, IpWhitelistAnswer } from '../../contract/shapes/ip_range.ts';
import type { MessageAnswer } from '../../contract/shapes/answer.ts';

function toIpRangeEntry(row: IpRangeRow): IpRangeEntry {
  return { ...row, createdAt: new Date(row.createdAt).toISOString() };
}

const CHANGE_MESSAGES: Record<IpRangeChangeKind, string> = {
  added: SUCCESS.ipRangeAdded,
  updated: SUCCESS.ipRangeUpdated,
  activated: SUCCESS.ipRangeActivated,
  deactivated: SUCCESS.ipRangeDeactivated,
};

const idParam = z.object({ id: canonicalUuid(failureText('ip_range_not_found')) });

/**
 * The domain tells a missing or blank range from a malformed one (a number, an over-long text): zod's own
 * messages for those would not be the spec's. The body type is IpRangeRequest with `ipRange` left unchecked.
 */
const ipRangeField = z.unknown();
const descriptionField = z.string({ error: 'Description must be text.' })
  .max(DESCRIPTION_MAX, `Description must be at most ${DESCRIPTION_MAX} characters.`).nullish();

/** A body type whose `ipRange` the domain checks (checkIpRange), not the schema. */
type UncheckedRange<T> = Omit<T, 'ipRange'> & { ipRange?: unknown };
const createBody = z.object({
  ipRange: ipRangeField.optional(),
  description: descriptionField,
}) satisfies z.ZodType<UncheckedRange<IpRangeRequest>>;
const changeBody = z.object({
  ipRange: ipRangeField.optional(),
  description: descriptionField,
  isActive: z.boolean({ error: 'isActive must be true or false.' }).optional(),
}) satisfies z.ZodType<UncheckedRange<IpRangeRequest>>;

export const adminIpWhitelistRoutes = new Hono<AppEnv>()
  .use(requireRole(['admin']), jsonBodyLimit)
  .get('/', async (c) => {
    const { sql } = c.var.deps;
    const entityId = c.var.session.entity_id;
    const ipRanges = await list_ip_ranges(sql, entityId);
    const { configured, whenEmpty, effect } = await whitelistPolicy(sql, entityId);
    const policy: IpWhitelistPolicy = { configured, whenEmpty, effect };
    return c.json(
      { success: true, data: { ipRanges: ipRanges.map(toIpRangeEntry), policy } } satisfies IpWhitelistAnswer,
    );
  })
  .post('/', valid('json', createBody), async (c) => {
    const result = await addIpRange(
      c.var.deps,
      c.req.valid('json'),
      actorFrom(c.var.session, c.var.clientAddress),
    );
    if (!result.ok) throw failureError(result);
    return c.json(
      {
        success: true,
        message: CHANGE_MESSAGES[result.kind],
        data: { ipRange: toIpRangeEntry(result.row) },
      } satisfies IpRangeSavedAnswer,
      201,
    );
  })
  .put('/:id', valid('param', idParam), valid('json', changeBody), async (c) => {
    const result = await changeIpRange(c.var.deps, c.req.valid('param').id, {
      change: c.req.valid('json'),
      actor: actorFrom(c.var.session, c.var.clientAddress),
    });
    if (!result.ok) throw failureError(result);
    return c.json(
      {
        success: true,
        message: CHANGE_MESSAGES[result.kind],
        data: { ipRange: toIpRangeEntry(result.row) },
      } satisfies IpRangeSavedAnswer,
    );
  })
  .delete('/:id', valid('param', idParam), async (c) => {
    const result = await removeIpRange(
      c.var.deps,
      c.req.valid('param').id,
      actorFrom(c.var.session, c.var.clientAddress),
    );
    if (!result.ok) throw failureError(result);
    return c.json({ success: true, message: SUCCESS.ipRangeDeleted } satisfies MessageAnswer);
  });
