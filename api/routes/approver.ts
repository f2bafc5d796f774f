/** /api/approver: pending registrations and the decision on each. */
import { Hono } from 'hono';
import { z } from 'zod';
import {
  approveRegistration,
  listPendingRegistrations,
  rejectRegistration,
} from '../domain/registration_review.ts';
import type { ApprovalResult, RejectionRequest } from '../../contract/shapes/registration.ts';
import type { AppEnv } from '../http/context.ts';
import { failureError, failureText } from '../http/failures.ts';
import { requireRole } from '../http/guard.ts';
import { SUCCESS } from '../http/messages.ts';
import { canonicalUuid, jsonBodyLimit, valid } from '../http/validate.ts';
import type { ApprovalAnswer, PendingRegistrationListAnswer } from '../../contract/shapes/registration.ts';
import type { MessageAnswer } from '../../contract/shapes/answer.ts';

const idParam = z.object({ id: canonicalUuid(failureText('registration_not_found')) });
const rejectBody = z.object({
  reason: z.string({ error: 'Please provide a rejection reason' }).trim().min(
    1,
    'Please provide a rejection reason',
  )
    .max(2000, 'Please keep the reason under 2000 characters.'),
}) satisfies z.ZodType<RejectionRequest>;

export const approverRoutes = new Hono<AppEnv>()
  .use(requireRole(['approver']), jsonBodyLimit)
  .get('/registrations', async (c) => {
    const registrations = await listPendingRegistrations(c.var.deps, c.var.session);
    return c.json({ success: true, registrations } satisfies PendingRegistrationListAnswer);
  })
  .post('/registrations/:id/approve', valid('param', idParam), async (c) => {
    const result = await approveRegistration(
      c.var.deps,
      c.req.valid('param').id,
      c.var.session,
      c.var.clientAddress,
    );
    if (!result.ok) throw failureError(result);
    const data: ApprovalResult = { supervisingAttorney: result.supervisingAttorney };
    return c.json({ success: true, message: SUCCESS.registrationApproved, data } satisfies ApprovalAnswer);
  })
  .post('/registrations/:id/reject', valid('param', idParam), valid('json', rejectBody), async (c) => {
    const result = await rejectRegistration(c.var.deps, c.req.valid('param').id, c.var.session, {
      reason: c.req.valid('json').reason,
      ipAddress: c.var.clientAddress,
    });
    if (!result.ok) throw failureError(result);
    return c.json({ success: true, message: SUCCESS.registrationRejected } satisfies MessageAnswer);
  });
