/**
 * The upload request both senders use (attorneys at /api/documents/upload, representatives at
 * /api/representative/upload): the form read under the `max_upload_mb` limit, its fields checked (the
 * `recipient_doc_number` field once per recipient, up to MAX_RECIPIENTS), then the domain's uploadDocument.
 */
import type { Context } from 'hono';
import { z } from 'zod';
import {
  FORM_OVERHEAD_BYTES,
  HEADER_WINDOW,
  looksLikePdf,
  uploadDocument,
  uploadLimit,
} from '../domain/upload.ts';
import { MAX_RECIPIENTS, type UploadFields } from '../../contract/shapes/document.ts';
import type { AppEnv } from './context.ts';
import { AppError } from './errors.ts';
import { failureError, failureText, refusal } from './failures.ts';
import { readLimitedForm } from './limited_form.ts';
import { admitUpload } from './upload_gate.ts';
import type { UploadLimits } from '../config.ts';
import { SUCCESS } from './messages.ts';
import { describeIssue, refuseUnstorableText } from './validate.ts';
import { documented } from './route_docs.ts';

const REQUIRED = failureText('upload_fields_required');
const text = (max: number, message: string) => z.string({ error: REQUIRED }).trim().max(max, message);

const uploadForm = z.object({
  file: z.instanceof(File, { error: REQUIRED }).meta({ type: 'string', contentMediaType: 'application/pdf' }),
  recipient_doc_number: z.array(text(32, REQUIRED).min(1, REQUIRED), { error: REQUIRED }).min(1, REQUIRED)
    .max(
      MAX_RECIPIENTS,
      `Please send to at most ${MAX_RECIPIENTS} recipients at once.`,
    ),
  title: text(200, failureText('upload_title_too_long')).min(1, REQUIRED),
  description: z.string().trim().max(2000, failureText('upload_description_too_long')).optional(),
  time_sensitive: z.enum(['true', 'false'], { error: "time_sensitive must be 'true' or 'false'." })
    .optional(),
  respond_by: z.string().trim().refine(isRespondByDate, {
    error: 'The respond-by date must be a date (YYYY-MM-DD) from today on.',
  }).optional(),
}) satisfies z.ZodType<
  Omit<UploadFields, 'recipient_doc_number'> & { recipient_doc_number: string[]; file: File }
>;

/** 'YYYY-MM-DD', a real calendar day, not before yesterday (UTC; a sender's today may still be UTC's yesterday). */
export function isRespondByDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const day = new Date(`${text}T00:00:00Z`);
  if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== text) return false;
  return day.getTime() >= Date.now() - 2 * 86_400_000 && day.getUTCFullYear() <= 9999;
}

/** Answers an upload by the signed-in sender: 201 with the delivery receipt, or the catalogue's refusal. */
export const handleUpload = documented(answerUpload, { input: { target: 'form', schema: uploadForm } });

async function answerUpload(c: Context<AppEnv>) {
  const { deps, session } = c.var;
  const limits = deps.config.uploads;
  // Counted before a byte of the body is read: a sender cannot hold more than a few bodies, nor everyone many.
  const admitted = admitUpload(limits, session.id);
  if (typeof admitted === 'string') throw refusal(admitted);
  try {
    return await receiveUpload(c, limits);
  } finally {
    admitted();
  }
}

async function receiveUpload(c: Context<AppEnv>, limits: UploadLimits) {
  const { deps, session, clientAddress } = c.var;
  const limit = await uploadLimit(deps.sql);
  const form = await readLimitedForm(c.req.raw, {
    limitBytes: limit.bytes + FORM_OVERHEAD_BYTES,
    tooLarge: () => refusal('upload_too_large', String(limit.mb)),
    malformed: REQUIRED,
    idleMs: limits.idleMs,
    deadlineMs: limits.deadlineMs,
    timedOut: () => refusal('upload_timed_out'),
    tempDir: `${deps.config.dataDir}/upload-spool`,
    textBytes: FORM_OVERHEAD_BYTES,
    // Each recipient a part, and the title, description, time-sensitive, respond-by and file parts, and a few more.
    maxParts: MAX_RECIPIENTS + 10,
    // A file that does not open as a PDF is refused from its first KiB: the rest of the body is not read and no
    // recipient is looked at (an upload must not be a way round the lookup's budget).
    fileHead: { bytes: HEADER_WINDOW, accept: looksLikePdf, refuse: () => refusal('upload_not_pdf') },
  });
  const fields = uploadForm.safeParse({
    file: form.file,
    recipient_doc_number: form.getAll('recipient_doc_number'),
    title: form.get('title') ?? undefined,
    description: form.get('description') || undefined,
    time_sensitive: form.get('time_sensitive') || undefined,
    respond_by: form.get('respond_by') || undefined,
  });
  if (!fields.success) throw new AppError(400, describeIssue(fields.error), 'invalid');
  const { recipient_doc_number: recipients, ...rest } = fields.data;
  refuseUnstorableText({ ...rest, recipient_doc_number: recipients.join(',') });
  const result = await uploadDocument(deps, session, { ...rest, recipients }, {
    ipAddress: clientAddress,
    limit,
  });
  if (!result.ok) throw failureError(result);
  return c.json({
    success: true,
    message: SUCCESS.documentUploaded,
    document: result.document,
    documents: result.documents,
  }, 201);
}
