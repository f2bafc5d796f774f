/** /api/representative: a representative's uploads and what they sent. */
import { Hono } from 'hono';
import { list_documents_sent_by } from '../db/documents.ts';
import { toRepresentativeDocument } from '../domain/documents.ts';
import type { AppEnv } from '../http/context.ts';
import { requireRole } from '../http/guard.ts';
import { SUCCESS } from '../http/messages.ts';
import { handleUpload } from '../http/upload.ts';

export const representativeRoutes = new Hono<AppEnv>()
  .use(requireRole(['representative']))
  .post('/upload', handleUpload)
  .get('/documents', async (c) => {
    const rows = await list_documents_sent_by(c.var.deps.sql, c.var.session.id);
    return c.json({
      success: true,
      message: SUCCESS.documentsListed,
      documents: rows.map(toRepresentativeDocument),
    });
  });
