/**
 * The upload form of the attorney and representative portals (spec sections
 * 2, 3, 5): which fields are required, and the file checks made before any
 * byte is sent, so a wrong or oversized file fails at once.
 */

import { t } from 'i18next';
import { MAX_RECIPIENTS } from '../../../contract/shapes/document.ts';

export interface UploadFormState {
  /** One DOC number, or several separated by commas, spaces or lines (up to MAX_RECIPIENTS). */
  recipientDocNumber: string;
  documentTitle: string;
  description: string;
  selectedFile: File | null;
  timeSensitive?: boolean;
  /** 'YYYY-MM-DD' or ''. */
  respondBy?: string;
}

export const EMPTY_UPLOAD_FORM: UploadFormState = {
  recipientDocNumber: '',
  documentTitle: '',
  description: '',
  selectedFile: null,
  timeSensitive: false,
  respondBy: '',
};

export { MAX_RECIPIENTS };

/** The DOC numbers typed, in order, each once: separated by commas, semicolons, spaces or lines. */
export function docNumbers(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).map((part) => part.trim()).filter(Boolean))];
}

/** What the lookup said of one typed DOC number (GET /api/recipients/{docNumber}). */
export type RecipientCheck =
  | { kind: 'checking' }
  | { kind: 'found'; displayName: string }
  | { kind: 'missing'; message: string }
  | { kind: 'error'; message: string };

/**
 * The recipients are confirmed: at least one, at most MAX_RECIPIENTS, and the lookup found every one (Upload
 * stays disabled until then, so nothing is sent to a number nobody confirmed).
 */
export function recipientsConfirmed(text: string, checks: ReadonlyMap<string, RecipientCheck>): boolean {
  const numbers = docNumbers(text);
  return numbers.length > 0 && numbers.length <= MAX_RECIPIENTS &&
    numbers.every((number) => checks.get(number)?.kind === 'found');
}

/** The file facts the checks need (a File has them; tests pass plain objects). */
export interface FileFacts {
  name: string;
  size: number;
  type: string;
}

/** Spec section 2: the Upload button stays disabled until DOC number, title and file are set. */
export function uploadReady(form: UploadFormState): boolean {
  return form.recipientDocNumber.trim() !== '' && form.documentTitle.trim() !== '' &&
    form.selectedFile !== null;
}

/** The picker's hint, with the server's configured limit (spec: 'PDF files only, max 10MB'). */
export function uploadHint(maxUploadMb: number): string {
  return t('upload.hint', { max: maxUploadMb });
}

/** Same text as the API's 413, so the user reads one message whichever side refuses. */
export function tooLargeMessage(maxUploadMb: number): string {
  return t('upload.tooLarge', { max: maxUploadMb });
}

/** Same text as the API's 415. */
export function notPdfMessage(): string {
  return t('upload.notPdf');
}

/**
 * Null when the picked file may be sent, else the reason. The name or type
 * must say PDF (the server checks the bytes); the size is checked against the
 * configured limit in MiB, as the server counts it.
 */
export function fileProblem(file: FileFacts, maxUploadMb: number): string | null {
  const pdf = file.name.toLowerCase().endsWith('.pdf') || file.type === 'application/pdf';
  if (!pdf) return notPdfMessage();
  if (file.size > maxUploadMb * 1024 * 1024) return tooLargeMessage(maxUploadMb);
  return null;
}

/**
 * The multipart body of docs/api.md: file, recipient_doc_number (once per recipient), title, description (only
 * when given), time_sensitive and respond_by (only when set).
 */
export function uploadBody(form: UploadFormState & { selectedFile: File }): FormData {
  const body = new FormData();
  for (const number of docNumbers(form.recipientDocNumber)) body.append('recipient_doc_number', number);
  body.set('title', form.documentTitle.trim());
  if (form.description.trim() !== '') body.set('description', form.description.trim());
  if (form.timeSensitive) {
    body.set('time_sensitive', 'true');
    if (form.respondBy) body.set('respond_by', form.respondBy);
  }
  body.set('file', form.selectedFile, form.selectedFile.name);
  return body;
}

/** The texts that differ between the two portals (spec section 8). */
export interface UploadTexts {
  required: string;
  failed: string;
  error: string;
}

/** In the language shown, read when shown. */
export const ATTORNEY_UPLOAD_TEXTS: UploadTexts = {
  get required() {
    return t('upload.attorneyRequired');
  },
  get failed() {
    return t('upload.failed');
  },
  get error() {
    return t('upload.attorneyError');
  },
};

export const REPRESENTATIVE_UPLOAD_TEXTS: UploadTexts = {
  get required() {
    return t('upload.representativeRequired');
  },
  get failed() {
    return t('upload.failed');
  },
  get error() {
    return t('upload.failed');
  },
};
