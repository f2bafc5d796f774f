/**
 * /api/attorney/representatives: the representatives who named the signed-in attorney as their supervisor, and
 * the attorney's Accept / Remove. A representative not linked to this attorney is 404, like a missing one.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import {
  acceptRepresentative,
  listRepresentatives,
  removeRepresentative,
} from '../domain/representatives.ts';
import type { AppEnv } from '../http/context.ts';
import { failureError } from '../http/failures.ts';
import { requireRole } from '../http/guard.ts';
import { SUCCESS } from '../http/messages.ts';
import { valid } from '../http/validate.ts';
import type { LinkedRepresentativeListAnswer } from '../../contract/shapes/representative.ts';
import type { MessageAnswer } from '../../contract/shapes/answer.ts';

// Any string: a malformed id is answered like an unknown one (404), by the domain.
const idParam = z.object({ id: z.string() });

export const representativeLinkRoutes = new Hono<AppEnv>()
  .use(requireRole(['attorney']))
  .get('/', async (c) => {
    const representatives = await listRepresentatives(c.var.deps, c.var.session);
    return c.json({ success: true, representatives } satisfies LinkedRepresentativeListAnswer);
  })
  .post('/:id/accept', valid('param', idParam), async (c) => {
    const result = await acceptRepresentative(c.var.deps, c.var.session, {
      representativeId: c.req.valid('param').id,
      ipAddress: c.var.clientAddress,
    });
    if (!result.ok) throw failureError(result);
    return c.json({
      success: true,
      message: SUCCESS.representativeAccepted,
      representative: result.representative,
    });
  })
  .post('/:id/remove', valid('param', idParam), async (c) => {
    const result = await removeRepresentative(c.var.deps, c.var.session, {
      representativeId: c.req.valid('param').id,
      ipAddress: c.var.clientAddress,
    });
    if (!result.ok) throw failureError(result);
    return c.json({ success: true, message: SUCCESS.representativeRemoved } satisfies MessageAnswer);
  });
