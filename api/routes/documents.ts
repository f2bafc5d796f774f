/** /api/documents: upload (attorney), the lists, the Info modal, and the bytes (view, print). */
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { parseRange } from '../blobs/range.ts';
import {
  list_documents_for_attorney,
  list_documents_for_recipient,
  list_documents_readable_by,
} from '../db/documents.ts';
import {
  findReadableDocument,
  recordDocumentNotFound,
  recordReading,
  toAttorneyDocument,
  toDocumentInfo,
  toMineDocument,
  toOffenderDocument,
} from '../domain/documents.ts';
import type { AppEnv } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { refusal } from '../http/failures.ts';
import { requireRole, requireSignedIn } from '../http/guard.ts';
import { SUCCESS } from '../http/messages.ts';
import { handleUpload } from '../http/upload.ts';
import { valid } from '../http/validate.ts';

const READERS = ['offender', 'attorney', 'representative'] as const;
// Any string: a malformed id is answered like a missing one (404), never with a 400 that tells them apart.
const idParam = z.object({ id: z.string() });
const docNumberParam = z.object({ docNumber: z.string() });

/**
 * The 404 of a document a signed-in user may not have, audited ('document_not_found' with the id asked for).
 * Every cause (malformed, missing, expired, someone else's) takes this same path, so the answer stays alike.
 */
async function documentNotFound(c: Context<AppEnv>, id: string, kind: 'view' | 'print' | 'info') {
  await recordDocumentNotFound(c.var.deps, c.var.session, { id, kind, ipAddress: c.var.clientAddress });
  return refusal('document_not_found');
}

/** Streams a document's bytes (view or print) with Range support; every read is accounted for (recordReading). */
async function serveDocument(c: Context<AppEnv>, kind: 'view' | 'print') {
  const { deps, session, clientAddress } = c.var;
  const id = c.req.param('id') ?? '';
  const doc = await findReadableDocument(deps.sql, session, id);
  if (!doc) throw await documentNotFound(c, id, kind);
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
  const length = range ? range.end - range.start + 1 : doc.size;
  headers['Content-Length'] = String(length);
  if (range) headers['Content-Range'] = `bytes ${range.start}-${range.end}/${doc.size}`;
  const status = range ? 206 : 200;
  // HEAD (Hono runs this GET handler for it) tells the size without reading or auditing anything.
  if (c.req.method === 'HEAD') return c.body(null, status, headers);
  const stream = await deps.blobs.open(doc.sha256, range);
  if (!stream) {
    console.error(`[documents] blob ${doc.sha256} of document ${doc.id} is missing`);
    throw await documentNotFound(c, id, kind);
  }
  // Whatever the range (bytes=1- is nearly the whole file): recordReading writes one event per session,
  // document and kind within the audit window, so a viewer's many ranges are one reading.
  try {
    await recordReading(deps, session, doc, { kind, ipAddress: clientAddress, range });
  } catch (error) {
    await stream.cancel();
    throw error;
  }
  return c.body(stream, status, headers);
}

export const documentRoutes = new Hono<AppEnv>()
  .post('/upload', requireRole(['attorney']), handleUpload)
  .get('/attorney', requireRole(['attorney']), async (c) => {
    const rows = await list_documents_for_attorney(c.var.deps.sql, c.var.session.id);
    return c.json({
      success: true,
      message: SUCCESS.documentsListed,
      documents: rows.map(toAttorneyDocument),
    });
  })
  .get('/offender/:docNumber', requireRole(['offender']), valid('param', docNumberParam), async (c) => {
    const { session } = c.var;
    // Only one's own list; another DOC number looks like nothing at all.
    if (c.req.valid('param').docNumber !== session.doc_number) throw notFound();
    const rows = await list_documents_for_recipient(c.var.deps.sql, session.id);
    return c.json({ success: true, documents: rows.map(toOffenderDocument) });
  })
  .get('/mine', requireSignedIn(), async (c) => {
    const { session } = c.var;
    // Staff never receive documents (privileged by default): their list is empty.
    if (session.role === 'admin' || session.role === 'approver') {
      return c.json({ success: true, documents: [] });
    }
    const rows = await list_documents_readable_by(c.var.deps.sql, session.id);
    return c.json({ success: true, documents: rows.map(toMineDocument) });
  })
  .get('/:id/info', requireRole(READERS), valid('param', idParam), async (c) => {
    const { id } = c.req.valid('param');
    const doc = await findReadableDocument(c.var.deps.sql, c.var.session, id);
    if (!doc) throw await documentNotFound(c, id, 'info');
    return c.json({ success: true, data: { document: toDocumentInfo(doc) } });
  })
  .get('/view/:id', requireRole(READERS), valid('param', idParam), (c) => serveDocument(c, 'view'))
  .get('/print/:id', requireRole(READERS), valid('param', idParam), (c) => serveDocument(c, 'print'));
