/**
 * Uploading a document: the form's rules, the PDF checks (by bytes, then the isolated
 * inspector), the recipients (checked as lookups are, on the same budget), then blob first and
 * row second, the row in one transaction with its audit.
 * A failure anywhere, or a client gone mid-body, leaves no row; a blob left without a row
 * is collected later by the GC (domain/retention.ts).
 */
import { insert_audit_event } from '../db/audit.ts';
import type { Tx } from '../db/client.ts';
import { find_document, insert_document } from '../db/documents.ts';
import { get_setting } from '../db/settings.ts';
import type { ActiveSession } from '../db/sessions.ts';
import type { AppDeps } from '../deps.ts';
import { type InspectLimits, inspectPdf } from '../pdf/inspect.ts';
import type { DocumentInfo, UploadedDocument, UploadFields } from '../../contract/shapes/document.ts';
import { findUploadRecipients } from './delivery.ts';
import { toDocumentInfo } from './documents.ts';
import { fail, type Outcome } from './outcome.ts';

/** Multipart boundaries, part headers and the three text fields: never more than a few KiB honestly. */
export const FORM_OVERHEAD_BYTES = 16 * 1024;
/** Where the PDF header may start (PDF 32000-1 §7.5.2; readers accept leading junk up to 1 KiB). */
export const HEADER_WINDOW = 1024;

/** The `max_upload_mb` setting, read on every upload so a change takes effect at once. */
export async function uploadLimit(sql: Tx): Promise<{ mb: number; bytes: number }> {
  const mb = await get_setting(sql, 'max_upload_mb');
  return { mb, bytes: Math.floor(mb * 1024 * 1024) };
}

/** An upload's form once checked (api/http/upload.ts): trimmed text fields, every recipient and the file. */
export interface UploadForm extends Omit<UploadFields, 'recipient_doc_number'> {
  /** The DOC numbers, in the order given (1 to MAX_RECIPIENTS; a repeated one counts once). */
  recipients: string[];
  file: File;
}

/** The first recipient's receipt (`document`, as for one recipient) and one entry per recipient. */
export type UploadResult = Outcome<{ document: DocumentInfo; documents: UploadedDocument[] }>;

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

/**
 * Stores one uploaded PDF sent by `sender` (attorney or representative) to every recipient: the bytes once, and a
 * document per recipient, each with its own receipt, read time and withdrawal. All or nothing: one recipient who
 * is not an active offender of the sender's entity refuses the whole upload, naming the number, and recipients
 * past the sender's lookup budget refuse it without being looked at (findUploadRecipients).
 */
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
  // The file first, the recipients after: a body that is not a PDF never gets a recipient looked at, so an upload
  // cannot be a free lookup (api/http/upload.ts refuses most such bodies while they stream).
  if (form.file.size > limit.bytes) return fail('upload_too_large', String(limit.mb));
  const bytes = new Uint8Array(await form.file.arrayBuffer());
  if (!looksLikePdf(bytes)) return fail('upload_not_pdf');
  if (!looksComplete(bytes)) return fail('upload_unreadable');
  const facts = await inspectPdf(bytes, options.inspectLimits);
  if (!facts.ok) {
    return fail(
      facts.reason === 'too_complex'
        ? 'upload_too_complex'
        : facts.reason === 'busy'
        ? 'upload_busy'
        : 'upload_unreadable',
    );
  }
  // Each recipient spends one of the sender's lookups and is audited as a lookup is (domain/delivery.ts).
  const checked = await findUploadRecipients(deps, sender, {
    docNumbers: form.recipients,
    ipAddress: options.ipAddress,
  });
  if (!checked.ok) return checked;
  const { recipients } = checked;

  const blob = await blobs.put(new Blob([bytes as BlobPart]).stream());
  // A respond-by date marks the document time-sensitive by itself.
  const timeSensitive = form.time_sensitive === 'true' || form.respond_by !== undefined;
  const documents = await sql.begin(async (tx) => {
    const made: UploadedDocument[] = [];
    for (const recipient of recipients) {
      // The sender's supervising attorney is recorded on the row now (accepted links only): this document's
      // readers never change with a later link.
      const inserted = await insert_document(tx, {
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
        timeSensitive,
        respondBy: form.respond_by ?? null,
      });
      await insert_audit_event(tx, {
        userId: sender.id,
        eventType: 'document_uploaded',
        resourceType: 'document',
        resourceId: inserted.id,
        ipAddress: options.ipAddress,
        eventData: {
          title: form.title,
          recipient_doc_number: recipient.doc_number,
          size: blob.size,
          sha256: blob.sha256,
          pages: facts.pages,
          supervisingAttorneyId: inserted.supervising_attorney_id,
          timeSensitive,
          respondBy: form.respond_by ?? null,
          recipients: recipients.length,
        },
      });
      made.push({ documentid: inserted.id, offenderdocnumber: recipient.doc_number });
    }
    return made;
  });
  const stored = await find_document(sql, documents[0].documentid);
  return { ok: true, document: toDocumentInfo(stored!), documents };
}
