/**
 * /api/admin/audit-logs: the filtered, paged audit log and its streamed CSV export (admins only, each reading only
 * the rows of their own entity's users; the department's administrators also the rows that name no user). An
 * export whose start date is before the table's oldest row also reads the rows retention archived.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { insert_audit_event } from '../db/audit.ts';
import type { Sql } from '../db/client.ts';
import {
  audit_event_types_json,
  type AuditExportRow,
  type AuditFilter,
  type AuditLogRow,
  list_audit_event_types,
  list_audit_export_batch,
  list_audit_logs,
} from '../db/audit_search.ts';
import { parseAuditFilter } from '../domain/audit_filters.ts';
import { archivedExportRows, exportReachesArchive } from '../domain/audit_export.ts';
import { createArchiveStore } from '../blobs/audit_archive_store.ts';
import type { Logger } from '../log.ts';
import { csvRow } from '../domain/csv.ts';
import type { AuditLog, AuditLogPage } from '../../contract/shapes/audit_log.ts';
import type { ActiveSession } from '../db/sessions.ts';
import { isDepartmentAdmin } from '../../contract/rules/admin_scope.ts';
import type { AppEnv } from '../http/context.ts';
import { badRequest } from '../http/errors.ts';
import { type GuardOptions, requireRole } from '../http/guard.ts';
import { valid } from '../http/validate.ts';
import type { AuditIntegrityAnswer, AuditLogPageAnswer } from '../../contract/shapes/audit_log.ts';
import { latest_audit_checkpoint, latest_audit_verification } from '../db/audit_chain.ts';

/** The spec's client page size (section 9). */
export const AUDIT_PAGE_SIZE = 50;
/**
 * Rows per database round trip while exporting: bounds the memory an export holds at once. 250 measured both
 * faster and lower in peak RSS than 1000 in bench/audit_export.ts.
 */
export const EXPORT_BATCH = 250;

const blankIsAbsent = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema);
const text = (label: string) =>
  blankIsAbsent(z.string({ error: `${label} must be given once.` }).max(100).optional());

const filterQuery = z.object({
  startDate: text('Start date'),
  endDate: text('End date'),
  eventType: text('Event type'),
  userId: text('User ID'),
});
const pageQuery = filterQuery.extend({
  // An audit row's id: a bigint, so at most 2^63 - 1 (a larger one would be a 500).
  cursor: blankIsAbsent(
    z.string().refine(
      (id) => /^\d{1,19}$/.test(id) && BigInt(id) <= 9_223_372_036_854_775_807n,
      'The page cursor is not valid.',
    ).optional(),
  ),
  limit: blankIsAbsent(
    z.coerce.number({ error: 'Limit must be a number from 1 to 200.' }).int(
      'Limit must be a number from 1 to 200.',
    )
      .min(1, 'Limit must be a number from 1 to 200.').max(200, 'Limit must be a number from 1 to 200.')
      .optional(),
  ),
});

function toAuditLog(row: AuditLogRow): AuditLog {
  return { ...row, created_at: new Date(row.created_at).toISOString() };
}

/** The filter asked for, within what the signed-in admin may read: their own entity's rows (AuditScope). */
function checkedFilter(input: z.infer<typeof filterQuery>, session: ActiveSession): AuditFilter {
  const parsed = parseAuditFilter(input);
  if (!parsed.ok) throw badRequest(parsed.message);
  const scope = {
    entityId: session.entity_id,
    unattributed: isDepartmentAdmin({ role: session.role, entity: session.entity_slug }),
  };
  return { ...parsed.filter, scope };
}

const CSV_HEADER = ['Date/Time', 'User ID', 'Event Type', 'Resource Type', 'IP Address', 'Event Data'];

function csvRows(rows: AuditExportRow[]): string {
  let chunk = '';
  for (const r of rows) {
    chunk += csvRow([r.created_at, r.user_id, r.event_type, r.resource_type, r.ip_address, r.event_data]);
  }
  return chunk;
}

/**
 * Streams every matching row as CSV, one keyset batch at a time, so memory stays flat whatever the size; then,
 * when given, the archived rows (domain/audit_export.ts), a segment at a time. A segment that cannot be trusted
 * ends the download with an error, logged, rather than a CSV silently short of its rows.
 */
function csvStream(
  sql: Sql,
  filter: AuditFilter,
  options: { archived?: () => AsyncGenerator<AuditExportRow[]>; log: Logger },
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let afterId: string | undefined;
  let headerSent = false;
  let tableDone = false;
  let archive: AsyncGenerator<AuditExportRow[]> | undefined;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(csvRow(CSV_HEADER)));
        return;
      }
      if (!tableDone) {
        const rows = await list_audit_export_batch(sql, filter, { afterId, limit: EXPORT_BATCH });
        tableDone = rows.length < EXPORT_BATCH;
        if (rows.length) {
          afterId = rows[rows.length - 1].id;
          controller.enqueue(encoder.encode(csvRows(rows)));
        }
        if (!tableDone || (rows.length && options.archived)) return;
      }
      if (!options.archived) {
        controller.close();
        return;
      }
      archive ??= options.archived();
      try {
        const next = await archive.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(csvRows(next.value)));
      } catch (error) {
        options.log.error('audit export: the archive could not be read', { error: (error as Error).message });
        throw error;
      }
    },
    async cancel() {
      await archive?.return(undefined);
    },
  }, { highWaterMark: 1 });
}

/**
 * A page's filter list (the event types) comes with the session check, in its statement (GuardOptions.alongside);
 * the export has no use for it.
 */
const carryEventTypes: GuardOptions = {
  alongside: (c) =>
    c.req.method === 'GET' && !c.req.path.endsWith('/export.csv') && !c.req.path.endsWith('/integrity')
      ? audit_event_types_json(c.var.deps.sql)
      : undefined,
};

export const adminAuditLogRoutes = new Hono<AppEnv>()
  .use(requireRole(['admin'], carryEventTypes))
  .get('/', valid('query', pageQuery), async (c) => {
    const query = c.req.valid('query');
    const filter = checkedFilter(query, c.var.session);
    const limit = query.limit ?? AUDIT_PAGE_SIZE;
    const { sql } = c.var.deps;
    // One more row than asked tells whether another page exists without a count(*).
    const rows = await list_audit_logs(sql, filter, { afterId: query.cursor, limit: limit + 1 });
    const logs = rows.slice(0, limit);
    const nextCursor = rows.length > limit ? logs[logs.length - 1].id : null;
    const carried = c.var.alongside;
    const eventTypes = carried ? carried.value as string[] : await list_audit_event_types(sql);
    const data: AuditLogPage = { logs: logs.map(toAuditLog), nextCursor, eventTypes };
    // Reading the log is itself audited (CJIS 5.4: access to audit records), one event per page asked for:
    // paging is rare and each page is a read. Written after the read, so the page shows the log as it stood.
    const { cursor, limit: asked, ...filters } = query;
    await insert_audit_event(sql, {
      userId: c.var.session.id,
      eventType: 'audit_logs_viewed',
      resourceType: 'audit_logs',
      ipAddress: c.var.clientAddress,
      eventData: { filters, cursor: cursor ?? null, limit: asked ?? null, rows: logs.length },
    });
    return c.json({ success: true, data } satisfies AuditLogPageAnswer);
  })
  .get('/export.csv', valid('query', filterQuery), async (c) => {
    const query = c.req.valid('query');
    const filter = checkedFilter(query, c.var.session);
    const { sql, config, auditPublicKey } = c.var.deps;
    // A start date before the table's oldest row reaches into the archive (rows retention moved there).
    const readsArchive = auditPublicKey !== undefined && await exportReachesArchive(sql, filter);
    await insert_audit_event(sql, {
      userId: c.var.session.id,
      eventType: 'audit_logs_exported',
      resourceType: 'audit_logs',
      ipAddress: c.var.clientAddress,
      eventData: { filters: query, ...(readsArchive ? { archive: true } : {}) },
    });
    const archived = readsArchive
      ? () =>
        archivedExportRows({
          sql,
          archive: c.var.deps.auditArchive ?? createArchiveStore(config),
          trustedKey: auditPublicKey!,
        }, filter)
      : undefined;
    const day = new Date().toISOString().slice(0, 10);
    return new Response(csvStream(sql, filter, { archived, log: c.var.log }), {
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="audit-logs-${day}.csv"`,
        'Cache-Control': 'no-store',
      },
    });
  })
  // When the log was last verified (npm run audit:verify) and checkpointed: installation-wide facts that name no
  // row, so every admin sees them beside the log.
  .get('/integrity', async (c) => {
    const { sql } = c.var.deps;
    const [verification, checkpoint] = await Promise.all([
      latest_audit_verification(sql),
      latest_audit_checkpoint(sql),
    ]);
    return c.json(
      {
        success: true,
        data: {
          lastVerification: verification
            ? {
              verifiedAt: verification.verifiedAt.toISOString(),
              ok: verification.ok,
              rowsChecked: verification.rowsChecked,
              checkpointsChecked: verification.checkpointsChecked,
              message: verification.message,
            }
            : null,
          lastCheckpoint: checkpoint
            ? { signedAt: checkpoint.signedAt.toISOString(), size: checkpoint.size }
            : null,
        },
      } satisfies AuditIntegrityAnswer,
    );
  });
