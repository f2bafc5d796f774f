/**
 * Uploading a document: the form's rules, the PDF checks (by bytes, then the isolated
 * inspector), then blob first and row second, the row in one transaction with its audit.
 * A failure anywhere, or a client gone mid-body, leaves no row; a blob left without a row
 * is collected later by the GC (domain/retention.ts).
 */
import { z } from 'zod';
import { insert_audit_event } from '../db/audit.ts';
import type { Tx } from '../db/client.ts';
import { find_active_offender, find_document, insert_document } from '../db/documents.ts';
import { get_setting } from '../db/settings.ts';
import type { ActiveSession } from '../db/sessions.ts';
import type { AppDeps } from '../deps.ts';
import { type InspectLimits, inspectPdf } from '../pdf/inspect.ts';
import { documentInfo } from './documents.ts';

export const UPLOAD_TEXTS = {
  required: 'Please fill in all required fields',
  titleTooLong: 'Document title must be at most 200 characters.',
  descriptionTooLong: 'Description must be at most 2000 characters.',
  noOffender: (doc: string) => `No active offender has DOC number ${doc}.`,
  tooLarge: (mb: number) => `The file is larger than the ${mb} MB limit.`,
  notPdf: 'The file is not a PDF.',
  unreadable: 'The PDF could not be read. It may be damaged or incomplete.',
  tooComplex: 'The PDF is too complex to process safely.',
} as const;

/** Multipart boundaries, part headers and the three text fields: never more than a few KiB honestly. */
export const FORM_OVERHEAD_BYTES = 16 * 1024;
/** Where the PDF header may start (PDF 32000-1 §7.5.2; readers accept leading junk up to 1 KiB). */
const HEADER_WINDOW = 1024;

/** The `max_upload_mb` setting, read on every upload so a change takes effect at once. */
export async function uploadLimit(sql: Tx): Promise<{ mb: number; bytes: number }> {
  const mb = await get_setting(sql, 'max_upload_mb');
  return { mb, bytes: Math.floor(mb * 1024 * 1024) };
}

const text = (max: number, message: string) =>
  z.string({ error: UPLOAD_TEXTS.required }).trim().max(max, message);

export const uploadForm = z.object({
  file: z.instanceof(File, { error: UPLOAD_TEXTS.required }),
  recipient_doc_number: text(32, UPLOAD_TEXTS.required).min(1, UPLOAD_TEXTS.required),
  title: text(200, UPLOAD_TEXTS.titleTooLong).min(1, UPLOAD_TEXTS.required),
  description: z.string().trim().max(2000, UPLOAD_TEXTS.descriptionTooLong).optional(),
});
export type UploadForm = z.infer<typeof uploadForm>;

export type UploadResult =
  | { ok: true; document: ReturnType<typeof documentInfo> }
  | { ok: false; status: 400 | 413 | 415 | 422; message: string };

/** `%PDF-` within the first KiB: the bytes decide, never the name or the content type. */
export function looksLikePdf(bytes: Uint8Array): boolean {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, HEADER_WINDOW));
  return head.includes('%PDF-');
}

/** A complete PDF ends with `%%EOF` (give or take trailing whitespace); a truncated upload does not. */
export function looksComplete(bytes: Uint8Array): boolean {
  const tail = new TextDecoder('latin1').decode(bytes.subarray(Math.max(0, bytes.length - HEADER_WINDOW)));
  return tail.includes('%%EOF');
}

/** A file name safe to show and to put in a header: no path, no control characters, at most 255 characters. */
export function cleanFileName(name: string): string {
  // deno-lint-ignore no-control-regex
  const base = name.split(/[\\/]/).pop()!.replace(/[\u0000-\u001f\u007f"]/g, '').trim().slice(0, 255);
  return base || 'document.pdf';
}

/** Stores one uploaded document sent by `sender` (attorney or representative). */
export async function uploadDocument(
  deps: Pick<AppDeps, 'sql' | 'blobs'>,
  sender: ActiveSession,
  form: UploadForm,
  options: {
    ipAddress: string;
    /** The upload limit the request's body was read under (`uploadLimit`): the file alone must fit it. */
    limit: { mb: number; bytes: number };
    inspectLimits?: InspectLimits;
  },
): Promise<UploadResult> {
  const { sql, blobs } = deps;
  const { limit } = options;
  const recipient = await find_active_offender(sql, sender.entity_id, form.recipient_doc_number);
  if (!recipient) {
    return { ok: false, status: 400, message: UPLOAD_TEXTS.noOffender(form.recipient_doc_number) };
  }
  if (form.file.size > limit.bytes) {
    return { ok: false, status: 413, message: UPLOAD_TEXTS.tooLarge(limit.mb) };
  }

  const bytes = new Uint8Array(await form.file.arrayBuffer());
  if (!looksLikePdf(bytes)) return { ok: false, status: 415, message: UPLOAD_TEXTS.notPdf };
  if (!looksComplete(bytes)) return { ok: false, status: 422, message: UPLOAD_TEXTS.unreadable };
  const facts = await inspectPdf(bytes, options.inspectLimits);
  if (!facts.ok) {
    return {
      ok: false,
      status: 422,
      message: facts.reason === 'too_complex' ? UPLOAD_TEXTS.tooComplex : UPLOAD_TEXTS.unreadable,
    };
  }

  const blob = await blobs.put(new Blob([bytes as BlobPart]).stream());
  const id = await sql.begin(async (tx) => {
    const documentId = await insert_document(tx, {
      entityId: sender.entity_id,
      senderId: sender.id,
      recipientId: recipient.id,
      title: form.title,
      description: form.description || null,
      fileName: cleanFileName(form.file.name),
      size: blob.size,
      sha256: blob.sha256,
      pages: facts.pages,
      encrypted: facts.encrypted,
      printAllowed: facts.printAllowed,
      metadata: facts.metadata,
    });
    await insert_audit_event(tx, {
      userId: sender.id,
      eventType: 'document_uploaded',
      resourceType: 'document',
      resourceId: documentId,
      ipAddress: options.ipAddress,
      eventData: {
        title: form.title,
        recipient_doc_number: form.recipient_doc_number,
        size: blob.size,
        sha256: blob.sha256,
        pages: facts.pages,
      },
    });
    return documentId;
  });
  const stored = await find_document(sql, id);
  return { ok: true, document: documentInfo(stored!) };
}
