/**
 * /api/receipts/verify: checks a downloaded delivery receipt against this portal's audit key, as
 * `npm run receipt:verify FILE --public-key …` does offline, for the portal's "Check a receipt" page.
 *
 * Any signed-in staff user may ask (the sender who downloaded it, and the department's admins and approvers who are
 * shown one): it reads nothing from the database and proves only what the file itself says. Not the offender's
 * tablet, which never holds a receipt, and not anonymous callers, to whom the public key and the command suffice.
 * Every text is answered with a verdict (a changed or foreign file is `valid: false` with its reason); only a
 * body that is not `{ content }` within the size cap is a 400.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { verifyReceipt } from '../domain/receipts.ts';
import type { AppEnv } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { requireRole } from '../http/guard.ts';
import { jsonBodyLimit, valid } from '../http/validate.ts';
import {
  RECEIPT_FILE_MAX_CHARS,
  type ReceiptCheckAnswer,
  type ReceiptVerifyRequest,
} from '../../contract/shapes/receipt.ts';

const STAFF = ['attorney', 'representative', 'admin', 'approver'] as const;

const verifyBody = z.object({
  content: z.string({ error: 'content must be the text of the receipt file.' }).max(RECEIPT_FILE_MAX_CHARS, {
    error: 'This file is too large to be a receipt.',
  }),
}) satisfies z.ZodType<ReceiptVerifyRequest>;

export const receiptRoutes = new Hono<AppEnv>()
  .post('/verify', requireRole(STAFF), jsonBodyLimit, valid('json', verifyBody), async (c) => {
    const publicKey = c.var.deps.auditPublicKey;
    // Without an audit key the portal signs no receipts, and has no key to check one against.
    if (!publicKey) throw notFound();
    const { content } = c.req.valid('json');
    return c.json(
      { success: true, data: await verifyReceipt(content, publicKey) } satisfies ReceiptCheckAnswer,
    );
  });
