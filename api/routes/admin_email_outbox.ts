/**
 * /api/admin/email-outbox: the queued, sent and failed e-mails, read-only. The outbox is the installation's (it
 * names registrants of every entity), so only the department's administrators read it.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { list_outbox, type OutboxRow } from '../db/email_outbox.ts';
import type { OutboxEmail } from '../../contract/shapes/email_outbox.ts';
import type { AppEnv } from '../http/context.ts';
import { requireRole } from '../http/guard.ts';
import { valid } from '../http/validate.ts';
import type { OutboxEmailListAnswer } from '../../contract/shapes/email_outbox.ts';

const iso = (d: Date) => new Date(d).toISOString();

function toOutboxEmail(row: OutboxRow): OutboxEmail {
  return {
    ...row,
    created_at: iso(row.created_at),
    next_attempt_at: iso(row.next_attempt_at),
    sent_at: row.sent_at ? iso(row.sent_at) : null,
  };
}

const query = z.object({
  status: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(['pending', 'sent', 'failed'], { error: 'Status must be pending, sent or failed.' }).optional(),
  ),
});

/** The screen shows the latest messages; older ones stay in the table. */
const OUTBOX_LIST_LIMIT = 200;

export const adminEmailOutboxRoutes = new Hono<AppEnv>()
  .use(requireRole(['admin'], { departmentOnly: true }))
  .get('/', valid('query', query), async (c) => {
    const { status } = c.req.valid('query');
    const emails = await list_outbox(c.var.deps.sql, { status, limit: OUTBOX_LIST_LIMIT });
    return c.json(
      { success: true, data: { emails: emails.map(toOutboxEmail) } } satisfies OutboxEmailListAnswer,
    );
  });
