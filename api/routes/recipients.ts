/**
 * /api/recipients/{docNumber}: who a DOC number is, for a sender about to send (attorneys and representatives).
 * Unknown, deactivated, released, transferred and another entity's numbers are one 404; throttled per sender.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { lookupRecipient } from '../domain/delivery.ts';
import type { RecipientAnswer } from '../../contract/shapes/recipient.ts';
import type { AppEnv } from '../http/context.ts';
import { failureError } from '../http/failures.ts';
import { requireRole } from '../http/guard.ts';
import { valid } from '../http/validate.ts';

// Any short string: a malformed number is answered like an unknown one (404), and audited as asked.
const docNumberParam = z.object({
  docNumber: z.string().max(200, 'No one with this DOC number receives mail here'),
});

export const recipientRoutes = new Hono<AppEnv>()
  .use(requireRole(['attorney', 'representative']))
  .get('/:docNumber', valid('param', docNumberParam), async (c) => {
    const result = await lookupRecipient(c.var.deps, c.var.session, {
      docNumber: c.req.valid('param').docNumber,
      ipAddress: c.var.clientAddress,
    });
    if (!result.ok) throw failureError(result);
    const answer: RecipientAnswer = { success: true, recipient: result.recipient };
    return c.json(answer);
  });
