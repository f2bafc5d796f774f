/**
 * /api/documents: upload (attorney), the lists, the Info modal, the bytes (view, print, and the offender tablet's
 * prefetch), and the readings made offline.
 */
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { type ByteRange, parseRange } from '../blobs/range.ts';
import { watchedRead } from '../blobs/watched_read.ts';
import { OFFLOAD_HEADER, OFFLOAD_LOCATION } from '../http/blob_offload.ts';
import { offloadCanary } from '../http/readiness.ts';
import {
  type DocumentRow,
  type DocumentToRead,
  list_documents_for_attorney,
  list_documents_readable_by,
  type SenderScope,
} from '../db/documents.ts';
import type { Tx } from '../db/client.ts';
import {
  CURSOR_MAX_LENGTH,
  documentToReadAlongside,
  findDocumentToRead,
  findReceipt,
  listReceivedDocuments,
  listSenderPage,
  type PageStart,
  readCursor,
  receivedDocumentsAlongside,
  recordDocumentNotFound,
  recordPrintRefused,
  recordReading,
  recordShown,
  toAttorneyDocument,
  toDocumentInfo,
  toMineDocument,
  toOffenderDocument,
} from '../domain/documents.ts';
import {
  type AttorneyDocument,
  type RepresentativeDocument,
  SENDER_PAGE_SIZES,
  SENDER_SORT_KEYS,
  type SenderPage,
  type SenderPageRequest,
  SORT_ORDERS,
} from '../../contract/shapes/document.ts';
import { withdrawDocument } from '../domain/delivery.ts';
import { makeReceipt } from '../domain/receipts.ts';
import { recordOfflineEvents, recordPrefetch } from '../domain/offline.ts';
import type { OfflineEventsRequest, OfflineEventsResult } from '../../contract/shapes/offline.ts';
import type { AppEnv } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { failureError, failureMessage, refusal } from '../http/failures.ts';
import { type GuardOptions, requireRole, requireSignedIn } from '../http/guard.ts';
import { SUCCESS } from '../http/messages.ts';
import { handleUpload } from '../http/upload.ts';
import { canonicalUuid, jsonBodyLimit, valid } from '../http/validate.ts';
import type {
  DocumentInfoAnswer,
  DocumentShownAnswer,
  DocumentWithdrawnAnswer,
  MineDocumentListAnswer,
  OffenderDocumentListAnswer,
  SenderListAnswer,
  SenderPageAnswer,
} from '../../contract/shapes/document.ts';

const READERS = ['offender', 'attorney', 'representative'] as const;
// Any string: a malformed id is answered like a missing one (404), never with a 400 that tells them apart.
const idParam = z.object({ id: z.string() });
const docNumberParam = z.object({ docNumber: z.string() });

/** A tablet sends its queue in batches of at most 100 (contract/shapes/offline.ts). */
export const OFFLINE_EVENTS_MAX = 100;
const offlineEventsBody = z.object({
  events: z.array(
    z.object({
      id: canonicalUuid('Each event needs a UUID id.'),
      // Any short string: an id that is not a document is refused per event ('Document not found.'), so one bad
      // entry never holds the rest of the queue back.
      documentId: z.string({ error: 'documentId must be text.' }).max(100, 'Document not found.'),
      kind: z.enum(['view', 'print'], { error: "kind must be 'view' or 'print'." }),
      occurredAt: z.iso.datetime({ offset: true, error: 'occurredAt must be an ISO 8601 time.' }),
    }),
    { error: 'events must be a list.' },
  ).max(OFFLINE_EVENTS_MAX, `Please send at most ${OFFLINE_EVENTS_MAX} events at once.`),
}) satisfies z.ZodType<OfflineEventsRequest>;

/** The largest page the screen offers is also the largest the API sends. */
const MAX_PAGE_SIZE = Math.max(...SENDER_PAGE_SIZES);
/** The screen's default (spec section 9), when a paged request names no size. */
const DEFAULT_PAGE_SIZE = SENDER_PAGE_SIZES[0];
const SIZE_TEXT = `Page size must be a whole number from 1 to ${MAX_PAGE_SIZE}.`;
const PAGE_TEXT = 'Page must be a whole number from 1.';
const CURSOR_TEXT = 'The page cursor is not valid. Start again from the first page.';
const cursorParam = z.string({ error: CURSOR_TEXT }).max(CURSOR_MAX_LENGTH, CURSOR_TEXT).transform(
  (text, ctx) => {
    const cursor = readCursor(text);
    if (!cursor) ctx.addIssue({ code: 'custom', message: CURSOR_TEXT });
    return cursor!;
  },
);
const senderPageQuery = z.object({
  q: z.string({ error: 'Search must be given once.' }).max(200, 'Search is too long.').optional(),
  sort: z.enum(SENDER_SORT_KEYS, { error: `Sort must be one of ${SENDER_SORT_KEYS.join(', ')}.` }).optional(),
  order: z.enum(SORT_ORDERS, { error: "Order must be 'asc' or 'desc'." }).optional(),
  pageSize: z.coerce.number({ error: SIZE_TEXT }).int(SIZE_TEXT).min(1, SIZE_TEXT).max(
    MAX_PAGE_SIZE,
    SIZE_TEXT,
  )
    .optional(),
  // The upper bound only keeps the number a number: a page past the end is the last page.
  page: z.coerce.number({ error: PAGE_TEXT }).int(PAGE_TEXT).min(1, PAGE_TEXT).max(1e9, PAGE_TEXT).optional(),
  after: cursorParam.optional(),
  before: cursorParam.optional(),
}).superRefine((query, ctx) => {
  const starts = [query.page, query.after, query.before].filter((v) => v !== undefined);
  if (starts.length > 1) {
    ctx.addIssue({ code: 'custom', message: 'Give only one of page, after and before.' });
  }
  const cursor = query.after ?? query.before;
  if (cursor && (cursor.sort !== (query.sort ?? 'name') || cursor.order !== (query.order ?? 'asc'))) {
    ctx.addIssue({
      code: 'custom',
      message: 'The page cursor belongs to another sort. Start again from the first page.',
    });
  }
});
// The request type and the schema's input must name the same parameters.
type SenderQueryKeys = keyof z.input<typeof senderPageQuery>;
const SENDER_PAGE_PARAMS: readonly SenderQueryKeys[] = [
  'q',
  'sort',
  'order',
  'pageSize',
  'page',
  'after',
  'before',
] satisfies (keyof SenderPageRequest)[];

/** The sender list's query, validated (senderPageQuery). */
export type SenderQuery = z.output<typeof senderPageQuery>;

/** GET /api/documents/attorney and GET /api/representative/documents validate their query with this. */
export const senderQuery = valid('query', senderPageQuery);

/**
 * A sender's list (attorney or representative). With any paging parameter: one page of it (SenderPage) from
 * the server's search, sort and paging; without any: every row, as before paging existed (docs/api.md).
 */
export async function senderList<Shape extends AttorneyDocument | RepresentativeDocument>(
  c: Context<AppEnv>,
  query: SenderQuery,
  list: { scope: SenderScope; all(sql: Tx): Promise<DocumentRow[]>; map(row: DocumentRow): Shape },
) {
  const { sql } = c.var.deps;
  if (!SENDER_PAGE_PARAMS.some((p) => c.req.query(p) !== undefined)) {
    const rows = await list.all(sql);
    return c.json(
      {
        success: true,
        message: SUCCESS.documentsListed,
        documents: rows.map(list.map),
      } satisfies SenderListAnswer<
        Shape
      >,
    );
  }
  const { q, sort = 'name', order = 'asc', pageSize = DEFAULT_PAGE_SIZE, page, after, before } = query;
  const start: PageStart = after
    ? { kind: 'after', at: after }
    : before
    ? { kind: 'before', at: before }
    : page
    ? { kind: 'number', page }
    : { kind: 'first' };
  const result = await listSenderPage(sql, list.scope, { search: q, sort, order, pageSize, start });
  const answer: SenderPage<Shape> = { ...result, documents: result.documents.map(list.map) };
  return c.json(
    { success: true, message: SUCCESS.documentsListed, ...answer } satisfies SenderPageAnswer<Shape>,
  );
}

/**
 * The 404 of a document a signed-in user may not have, audited ('document_not_found' with the id asked for).
 * Every cause (malformed, missing, expired, someone else's) takes this same path, so the answer stays alike.
 */
async function documentNotFound(
  c: Context<AppEnv>,
  id: string,
  kind: 'view' | 'print' | 'info' | 'prefetch' | 'withdraw' | 'shown',
) {
  await recordDocumentNotFound(c.var.deps, c.var.session, { id, kind, ipAddress: c.var.clientAddress });
  return refusal('document_not_found');
}

/**
 * Streams a document's bytes (view, print or prefetch) with Range support; every read is accounted for
 * (recordReading). A prefetch (the tablet fetching ahead for offline reading) is the recipient's only and is not a
 * reading: no read time, its own audit event (recordPrefetch).
 */
async function serveDocument(c: Context<AppEnv>, kind: 'view' | 'print' | 'prefetch') {
  const { deps, session, clientAddress } = c.var;
  const id = c.req.param('id') ?? '';
  const found = await findDocumentToRead(deps.sql, session, id, kind, c.var.alongside);
  // The sender and the supervising attorney may read a document but never cache it: the same 404 as any other.
  const doc = kind === 'prefetch' && found?.recipient_id !== session.id ? undefined : found;
  if (!doc) throw await documentNotFound(c, id, kind);
  // The PDF's own permission, read at upload, holds for everyone who may read it: no print copy, no print time.
  if (kind === 'print' && !doc.print_allowed) throw await printRefused(c, doc);
  const headers: Record<string, string> = {
    'Content-Type': 'application/pdf',
    'ETag': `"${doc.sha256}"`,
    'Accept-Ranges': 'bytes',
    'Cache-Control': 'private, no-store',
    'Content-Disposition': `inline; filename*=UTF-8''${encodeURIComponent(doc.file_name)}`,
  };
  const wanted = parseRange(c.req.header('range'), doc.size);
  if (wanted.kind === 'unsatisfiable') {
    return c.json({ success: false, message: 'The requested range is not available.' }, 416, {
      'Content-Range': `bytes */${doc.size}`,
    });
  }
  const range = wanted.kind === 'partial' ? wanted.range : undefined;
  // A sealed document goes through the API, which alone holds its key: the front sends plaintext blobs only.
  if (
    deps.config.blobOffload === 'nginx' && c.req.method !== 'HEAD' &&
    !(await deps.blobs.isSealed?.(doc.sha256))
  ) {
    return await offloadDocument(c, kind, doc, headers, range);
  }
  const length = range ? range.end - range.start + 1 : doc.size;
  headers['Content-Length'] = String(length);
  if (range) headers['Content-Range'] = `bytes ${range.start}-${range.end}/${doc.size}`;
  const status = range ? 206 : 200;
  // HEAD (Hono runs this GET handler for it) tells the size without reading or auditing anything.
  if (c.req.method === 'HEAD') return c.body(null, status, headers);
  const stream = await openBlob(c, doc, range);
  if (!stream) {
    console.error(`[documents] blob ${doc.sha256} of document ${doc.id} is missing`);
    throw await documentNotFound(c, id, kind);
  }
  // Whatever the range (bytes=1- is nearly the whole file): recordReading writes one event per session,
  // document and kind within the audit window, so a viewer's many ranges are one reading.
  let recorded: boolean;
  try {
    recorded = kind === 'prefetch'
      ? await recordPrefetch(deps, session, doc, { ipAddress: clientAddress })
      : await recordReading(deps, session, doc, { kind, ipAddress: clientAddress, range });
  } catch (error) {
    await stream.cancel();
    throw error;
  }
  if (!recorded) {
    // Withdrawn between the check and this reading: the withdrawal came first, so nothing is sent.
    await stream.cancel();
    throw await documentNotFound(c, id, kind);
  }
  // A store that breaks or goes silent now aborts the connection (the reader sees an incomplete transfer); the log
  // says which document, how far it got and why. The reading was recorded: its bytes had started to go.
  const watched = watchedRead(stream, {
    expected: length,
    idleMs: deps.config.blobReadIdleMs,
    onBroken: ({ cause, bytesSent }) =>
      c.var.log.error('document read broke off', {
        request_id: c.var.requestId,
        document_id: doc.id,
        bytes_sent: bytesSent,
        bytes_expected: length,
        cause,
      }),
  });
  return c.body(watched, status, headers);
}

/**
 * The blob's bytes, or undefined when it is missing. A store that cannot start the read (down, refusing, silent
 * past its deadline) is the 503 `document_store_unavailable` with Retry-After, before anything is recorded: the
 * sender never sees "opened" for a read that did not happen. The cause goes to the log, never to the reader.
 */
async function openBlob(c: Context<AppEnv>, doc: DocumentToRead, range: ByteRange | undefined) {
  try {
    return await c.var.deps.blobs.open(doc.sha256, range);
  } catch (error) {
    c.var.log.error('document read could not start', {
      request_id: c.var.requestId,
      document_id: doc.id,
      cause: (error as Error).message,
    });
    throw refusal('document_store_unavailable');
  }
}

/** A print of a PDF that forbids printing: refused, audited ('document_print_refused'), nothing recorded as printed. */
async function printRefused(c: Context<AppEnv>, doc: DocumentToRead) {
  const { deps, session, clientAddress } = c.var;
  await recordPrintRefused(deps, session, doc, { ipAddress: clientAddress });
  return refusal('print_not_allowed');
}

/**
 * BLOB_OFFLOAD=nginx: the same checks, audit and headers as a streamed answer, then no body but the file's place
 * for nginx (X-Accel-Redirect to its internal /_blobs/ location, deploy/nginx/portal-blobs.conf), which sends it
 * with sendfile. nginx applies the client's Range to the file itself (206, or 416 for what only it refuses), so
 * this answer is always the whole document's 200: no Content-Length or Content-Range of ours. A range we already
 * know is unsatisfiable never gets here (serveDocument's 416: no bytes, no audit, as without offload).
 */
async function offloadDocument(
  c: Context<AppEnv>,
  kind: 'view' | 'print' | 'prefetch',
  doc: DocumentToRead,
  headers: Record<string, string>,
  range: ByteRange | undefined,
) {
  const { deps, session, clientAddress } = c.var;
  // A front that could not send the canary cannot send this either: refused before the reading is recorded.
  const canary = offloadCanary(deps);
  const state = canary ? await canary.result : 'ok';
  if (state !== 'ok') {
    c.var.log.error('document read refused: the front cannot send the blobs', {
      request_id: c.var.requestId,
      document_id: doc.id,
      cause: state,
    });
    throw refusal('document_store_unavailable');
  }
  const inside = await deps.blobs.relativePath?.(doc.sha256);
  if (!inside) {
    console.error(`[documents] blob ${doc.sha256} of document ${doc.id} is missing`);
    throw await documentNotFound(c, doc.id, kind);
  }
  const recorded = kind === 'prefetch'
    ? await recordPrefetch(deps, session, doc, { ipAddress: clientAddress })
    : await recordReading(deps, session, doc, { kind, ipAddress: clientAddress, range });
  if (!recorded) throw await documentNotFound(c, doc.id, kind);
  // nginx sends its own Accept-Ranges with the file; ours as well would make two.
  const { 'Accept-Ranges': _ours, ...kept } = headers;
  return c.body(null, 200, { ...kept, [OFFLOAD_HEADER]: `${OFFLOAD_LOCATION}${inside}` });
}

/** A reading's document comes with the session check, in its statement (GuardOptions.alongside). */
const carryDocument = (kind: 'view' | 'print' | 'prefetch' | 'shown'): GuardOptions => ({
  alongside: (c, sessionId) =>
    documentToReadAlongside(c.var.deps.sql, sessionId, c.req.param('id') ?? '', kind),
});

/** The offender's own list comes with the session check, in its statement (GuardOptions.alongside). */
const carryOwnList: GuardOptions = {
  alongside: (c, sessionId) => receivedDocumentsAlongside(c.var.deps.sql, sessionId),
};

export const documentRoutes = new Hono<AppEnv>()
  .post('/upload', requireRole(['attorney']), handleUpload)
  .get('/attorney', requireRole(['attorney']), senderQuery, (c) =>
    senderList(c, c.req.valid('query'), {
      scope: { attorneyId: c.var.session.id },
      all: (sql) => list_documents_for_attorney(sql, c.var.session.id),
      map: toAttorneyDocument,
    }))
  .get(
    '/offender/:docNumber',
    requireRole(['offender'], carryOwnList),
    valid('param', docNumberParam),
    async (c) => {
      const { session } = c.var;
      // Only one's own list; another DOC number looks like nothing at all.
      if (c.req.valid('param').docNumber !== session.doc_number) throw notFound();
      const rows = await listReceivedDocuments(c.var.deps.sql, session.id, c.var.alongside);
      return c.json(
        { success: true, documents: rows.map(toOffenderDocument) } satisfies OffenderDocumentListAnswer,
      );
    },
  )
  .get('/mine', requireSignedIn(), async (c) => {
    const { session } = c.var;
    // Staff never receive documents (privileged by default): their list is empty.
    if (session.role === 'admin' || session.role === 'approver') {
      return c.json({ success: true, documents: [] } satisfies MineDocumentListAnswer);
    }
    const rows = await list_documents_readable_by(c.var.deps.sql, session.id);
    return c.json({ success: true, documents: rows.map(toMineDocument) } satisfies MineDocumentListAnswer);
  })
  .get('/:id/info', requireRole(READERS), valid('param', idParam), async (c) => {
    const { id } = c.req.valid('param');
    const doc = await findReceipt(c.var.deps.sql, c.var.session, id);
    if (!doc) throw await documentNotFound(c, id, 'info');
    return c.json({ success: true, data: { document: toDocumentInfo(doc) } } satisfies DocumentInfoAnswer);
  })
  // The Info dialog's receipt as a signed file the sender keeps (npm run receipt:verify checks it offline).
  .get('/:id/receipt', requireRole(['attorney', 'representative']), valid('param', idParam), async (c) => {
    const { id } = c.req.valid('param');
    const { sql, auditSigner } = c.var.deps;
    const doc = await findReceipt(sql, c.var.session, id);
    if (!doc) throw await documentNotFound(c, id, 'info');
    if (!auditSigner) throw notFound();
    const info = toDocumentInfo(doc);
    return new Response(await makeReceipt(sql, auditSigner, info), {
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Disposition': `attachment; filename="receipt-${info.documentid}.json"`,
        'Cache-Control': 'no-store',
      },
    });
  })
  .post('/:id/withdraw', requireRole(READERS), valid('param', idParam), async (c) => {
    const { id } = c.req.valid('param');
    const result = await withdrawDocument(c.var.deps, c.var.session, { id, ipAddress: c.var.clientAddress });
    if (!result.ok && result.reason === 'document_not_found') throw await documentNotFound(c, id, 'withdraw');
    if (!result.ok) throw failureError(result);
    return c.json(
      {
        success: true,
        message: SUCCESS.documentWithdrawn,
        data: {
          documentid: id.toLowerCase(),
          state: 'withdrawn',
          withdrawn_at: result.withdrawnAt.toISOString(),
        },
      } satisfies DocumentWithdrawnAnswer,
    );
  })
  .get(
    '/view/:id',
    requireRole(READERS, carryDocument('view')),
    valid('param', idParam),
    (c) => serveDocument(c, 'view'),
  )
  .get(
    '/print/:id',
    requireRole(READERS, carryDocument('print')),
    valid('param', idParam),
    (c) => serveDocument(c, 'print'),
  )
  .post(
    '/shown/:id',
    requireRole(READERS, carryDocument('shown')),
    valid('param', idParam),
    async (c) => {
      const { deps, session, clientAddress } = c.var;
      const { id } = c.req.valid('param');
      const doc = await findDocumentToRead(deps.sql, session, id, 'shown', c.var.alongside);
      if (!doc) throw await documentNotFound(c, id, 'shown');
      const result = await recordShown(deps, session, doc, { ipAddress: clientAddress });
      if (!result.ok && result.reason === 'document_not_found') throw await documentNotFound(c, id, 'shown');
      if (!result.ok) throw failureError(result);
      return c.json({ success: true, message: SUCCESS.documentShown } satisfies DocumentShownAnswer);
    },
  )
  .get(
    '/prefetch/:id',
    requireRole(['offender'], carryDocument('prefetch')),
    valid('param', idParam),
    (c) => serveDocument(c, 'prefetch'),
  )
  .post(
    '/offline-events',
    requireRole(['offender']),
    jsonBodyLimit,
    valid('json', offlineEventsBody),
    async (c) => {
      const result = await recordOfflineEvents(c.var.deps, c.var.session, {
        events: c.req.valid('json').events,
        ipAddress: c.var.clientAddress,
      });
      if (!result.ok) throw failureError(result);
      const data: OfflineEventsResult = {
        recorded: result.recorded,
        refused: result.refused.map((r) => ({
          id: r.id,
          message: failureMessage({ ok: false, reason: r.reason }),
        })),
      };
      return c.json({ success: true, data });
    },
  );
