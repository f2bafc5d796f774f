/** /api/representative: a representative's uploads and what they sent. */
import { Hono } from 'hono';
import { list_documents_sent_by } from '../db/documents.ts';
import { DOCUMENT_TEXTS, representativeListItem } from '../domain/documents.ts';
import type { AppEnv } from '../http/context.ts';
import { requireRole } from '../http/guard.ts';
import { handleUpload } from './documents.ts';

export const representativeRoutes = new Hono<AppEnv>()
  .use(requireRole(['representative']))
  .post('/upload', handleUpload)
  .get('/documents', async (c) => {
    const rows = await list_documents_sent_by(c.var.deps.sql, c.var.session.id);
    return c.json({
      success: true,
      message: DOCUMENT_TEXTS.listed,
      documents: rows.map(representativeListItem),
    });
  });
