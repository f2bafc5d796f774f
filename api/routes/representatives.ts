/**
 * /api/attorney/representatives: the representatives who named the signed-in attorney as their supervisor, and
 * the attorney's Accept / Remove, and their invitations of new representatives. A representative not linked to this attorney is 404, like a missing one.
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
import { jsonBodyLimit, valid } from '../http/validate.ts';
import { inviteRepresentative } from '../domain/representative_invitations.ts';
import { isValidEmail, REGISTRATION_MESSAGES } from '../../contract/rules/registration.ts';
import type {
  LinkedRepresentativeListAnswer,
  RepresentativeInvitationRequest,
} from '../../contract/shapes/representative.ts';
import type { MessageAnswer } from '../../contract/shapes/answer.ts';

const invitationBody = z.object({
  email: z.string({ error: REGISTRATION_MESSAGES.email }).trim().max(254, REGISTRATION_MESSAGES.email)
    .refine(isValidEmail, REGISTRATION_MESSAGES.email),
}) satisfies z.ZodType<RepresentativeInvitationRequest>;

// Any string: a malformed id is answered like an unknown one (404), by the domain.
const idParam = z.object({ id: z.string() });

export const representativeLinkRoutes = new Hono<AppEnv>()
  .use(requireRole(['attorney']))
  .get('/', async (c) => {
    const representatives = await listRepresentatives(c.var.deps, c.var.session);
    return c.json({ success: true, representatives } satisfies LinkedRepresentativeListAnswer);
  })
  // "Invite a representative": a single-use registration link e-mailed to the address (representative_invitations.ts).
  .post('/invitations', jsonBodyLimit, valid('json', invitationBody), async (c) => {
    const result = await inviteRepresentative(c.var.deps, c.var.session, {
      email: c.req.valid('json').email,
      ipAddress: c.var.clientAddress,
    });
    if (!result.ok) throw failureError(result);
    return c.json({ success: true, message: SUCCESS.representativeInvited } satisfies MessageAnswer, 201);
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
