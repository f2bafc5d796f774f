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
  attorneyListItem,
  DOCUMENT_TEXTS,
  documentInfo,
  findReadableDocument,
  mineListItem,
  offenderListItem,
  recordReading,
} from '../domain/documents.ts';
import {
  FORM_OVERHEAD_BYTES,
  UPLOAD_TEXTS,
  uploadDocument,
  uploadForm,
  uploadLimit,
} from '../domain/upload.ts';
import type { AppEnv } from '../http/context.ts';
import { AppError, notFound } from '../http/errors.ts';
import { requireRole, requireSignedIn } from '../http/guard.ts';
import { readLimitedForm } from '../http/limited_form.ts';
import { describeIssue, valid } from '../http/validate.ts';

const READERS = ['offender', 'attorney', 'representative'] as const;
// Any string: a malformed id is answered like a missing one (404), never with a 400 that tells them apart.
const idParam = z.object({ id: z.string() });
const docNumberParam = z.object({ docNumber: z.string() });

/** The upload handler shared by attorneys (here) and representatives (/api/representative/upload). */
export async function handleUpload(c: Context<AppEnv>) {
  const { deps, session, clientAddress } = c.var;
  const limit = await uploadLimit(deps.sql);
  const form = await readLimitedForm(c.req.raw, {
    limitBytes: limit.bytes + FORM_OVERHEAD_BYTES,
    tooLarge: () => new AppError(413, UPLOAD_TEXTS.tooLarge(limit.mb), 'too_large'),
    malformed: UPLOAD_TEXTS.required,
  });
  const fields = uploadForm.safeParse({
    file: form.get('file') ?? undefined,
    recipient_doc_number: form.get('recipient_doc_number') ?? undefined,
    title: form.get('title') ?? undefined,
    description: form.get('description') || undefined,
  });
  if (!fields.success) throw new AppError(400, describeIssue(fields.error), 'invalid');
  const result = await uploadDocument(deps, session, fields.data, { ipAddress: clientAddress, limit });
  if (!result.ok) throw new AppError(result.status, result.message);
  return c.json({ success: true, message: DOCUMENT_TEXTS.uploaded, document: result.document }, 201);
}

/** Streams a document's bytes (view or print) with Range support; audits once per reading. */
async function serveDocument(c: Context<AppEnv>, kind: 'view' | 'print') {
  const { deps, session, clientAddress } = c.var;
  const doc = await findReadableDocument(deps.sql, session, c.req.param('id') ?? '');
  if (!doc) throw notFound(DOCUMENT_TEXTS.notFound);
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
    throw notFound(DOCUMENT_TEXTS.notFound);
  }
  // A viewer fetches a large file in ranges: only the request that starts at byte 0 is a new reading.
  if (!range || range.start === 0) {
    try {
      await recordReading(deps, session, doc, { kind, ipAddress: clientAddress });
    } catch (error) {
      await stream.cancel();
      throw error;
    }
  }
  return c.body(stream, status, headers);
}

export const documentRoutes = new Hono<AppEnv>()
  .post('/upload', requireRole(['attorney']), handleUpload)
  .get('/attorney', requireRole(['attorney']), async (c) => {
    const rows = await list_documents_for_attorney(c.var.deps.sql, c.var.session.id);
    return c.json({ success: true, message: DOCUMENT_TEXTS.listed, documents: rows.map(attorneyListItem) });
  })
  .get('/offender/:docNumber', requireRole(['offender']), valid('param', docNumberParam), async (c) => {
    const { session } = c.var;
    // Only one's own list; another DOC number looks like nothing at all.
    if (c.req.valid('param').docNumber !== session.doc_number) throw notFound();
    const rows = await list_documents_for_recipient(c.var.deps.sql, session.id);
    return c.json({ success: true, documents: rows.map(offenderListItem) });
  })
  .get('/mine', requireSignedIn(), async (c) => {
    const { session } = c.var;
    // Staff never receive documents (privileged by default): their list is empty.
    if (session.role === 'admin' || session.role === 'approver') {
      return c.json({ success: true, documents: [] });
    }
    const rows = await list_documents_readable_by(c.var.deps.sql, session.id);
    return c.json({ success: true, documents: rows.map(mineListItem) });
  })
  .get('/:id/info', requireRole(READERS), valid('param', idParam), async (c) => {
    const doc = await findReadableDocument(c.var.deps.sql, c.var.session, c.req.valid('param').id);
    if (!doc) throw notFound(DOCUMENT_TEXTS.notFound);
    return c.json({ success: true, data: { document: documentInfo(doc) } });
  })
  .get('/view/:id', requireRole(READERS), valid('param', idParam), (c) => serveDocument(c, 'view'))
  .get('/print/:id', requireRole(READERS), valid('param', idParam), (c) => serveDocument(c, 'print'));
