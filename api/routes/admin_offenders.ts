/** /api/admin/offenders: the offender roster — add one, reset a PIN, import a CSV file (admins only). */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import { addOffender, importRoster, importSummary, resetOffenderPin } from '../domain/offenders.ts';
import { toAdminUser } from '../domain/user_admin.ts';
import { ROSTER_MAX_BYTES, ROSTER_MESSAGES } from '../../contract/rules/roster.ts';
import type {
  OffenderAddedAnswer,
  OffenderRequest,
  PinResetRequest,
} from '../../contract/shapes/admin_user.ts';
import type { MessageAnswer } from '../../contract/shapes/answer.ts';
import type { RosterReport } from '../../contract/shapes/roster_report.ts';
import { actorFrom } from '../domain/actor.ts';
import type { AppEnv } from '../http/context.ts';
import { badRequest } from '../http/errors.ts';
import { failureError, failureText } from '../http/failures.ts';
import { requireRole } from '../http/guard.ts';
import { SUCCESS } from '../http/messages.ts';
import { canonicalUuid, jsonBodyLimit, valid } from '../http/validate.ts';

const idParam = z.object({ id: canonicalUuid(failureText('offender_not_found')) });
const text = (message: string) => z.string({ error: message }).max(1000, message);
const offenderBody = z.object({
  docNumber: text(ROSTER_MESSAGES.docNumber),
  firstName: text(ROSTER_MESSAGES.firstName),
  lastName: text(ROSTER_MESSAGES.lastName),
  pin: text(ROSTER_MESSAGES.pin),
}) satisfies z.ZodType<OffenderRequest>;
const pinBody = z.object({ pin: text(ROSTER_MESSAGES.pin) }) satisfies z.ZodType<PinResetRequest>;

/** The roster file is refused past 5 MB as it streams in, before it is held in memory. */
const rosterBodyLimit = bodyLimit({
  maxSize: ROSTER_MAX_BYTES,
  onError: () => {
    throw badRequest(ROSTER_MESSAGES.tooLarge);
  },
});

export const adminOffenderRoutes = new Hono<AppEnv>()
  .use(requireRole(['admin']))
  .post('/', jsonBodyLimit, valid('json', offenderBody), async (c) => {
    const result = await addOffender(
      c.var.deps,
      c.req.valid('json'),
      actorFrom(c.var.session, c.var.clientAddress),
    );
    if (!result.ok) throw failureError(result);
    return c.json(
      {
        success: true,
        message: SUCCESS.offenderAdded,
        data: { user: toAdminUser(result.user) },
      } satisfies OffenderAddedAnswer,
      201,
    );
  })
  .put('/:id/pin', jsonBodyLimit, valid('param', idParam), valid('json', pinBody), async (c) => {
    const result = await resetOffenderPin(
      c.var.deps,
      { userId: c.req.valid('param').id, pin: c.req.valid('json').pin },
      actorFrom(c.var.session, c.var.clientAddress),
    );
    if (!result.ok) throw failureError(result);
    return c.json({ success: true, message: SUCCESS.pinReset } satisfies MessageAnswer);
  })
  .post('/import', rosterBodyLimit, async (c) => {
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    const { session, clientAddress } = c.var;
    const result = await importRoster(c.var.deps, bytes, {
      userId: session.id,
      entityId: session.entity_id,
      ipAddress: clientAddress,
      source: 'api',
    });
    if (!result.ok) throw failureError(result);
    const report: RosterReport = result.report;
    return c.json({ success: true, message: importSummary(report), data: report });
  });
