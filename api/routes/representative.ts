/** /api/representative: a representative's uploads and what they sent. */
import { Hono } from 'hono';
import { list_documents_sent_by } from '../db/documents.ts';
import { toRepresentativeDocument } from '../domain/documents.ts';
import type { AppEnv } from '../http/context.ts';
import { requireRole } from '../http/guard.ts';
import { handleUpload } from '../http/upload.ts';
import { senderList, senderQuery } from './documents.ts';

export const representativeRoutes = new Hono<AppEnv>()
  .use(requireRole(['representative']))
  .post('/upload', handleUpload)
  // The same list, search, sort and paging as the attorney's (GET /api/documents/attorney), of what they sent.
  .get('/documents', senderQuery, (c) =>
    senderList(c, c.req.valid('query'), {
      scope: { senderId: c.var.session.id },
      all: (sql) => list_documents_sent_by(sql, c.var.session.id),
      map: toRepresentativeDocument,
    }));
