/**
 * The document calls of the portals (docs/api.md "Documents"), all through
 * lib/api.ts, plus the one upload that reports its progress (fetch cannot
 * report upload progress, so it goes through XMLHttpRequest and reads the
 * answer with the same rules as every other call).
 */
import type {
  AttorneyDocument,
  DocumentInfo,
  ReceiptEvent,
  RepresentativeDocument,
  SenderPage,
  SenderPageRequest,
} from '../../../contract/shapes/document.ts';
import type { Preferences } from '../../../contract/shapes/preferences.ts';
import type { ReceiptCheckAnswer, ReceiptCheckResult } from '../../../contract/shapes/receipt.ts';
import type { RecipientPreview } from '../../../contract/shapes/recipient.ts';
import { API_BASE, apiDownload, ApiError, apiRequest, readResponse } from '../lib/api.ts';
import { storage } from '../lib/storage.ts';
import { type DocumentRow, toDocumentRow } from './listLogic.ts';

type ListAnswer = { documents?: unknown };

function rowsOf(body: ListAnswer): DocumentRow[] {
  const documents = Array.isArray(body.documents) ? body.documents : [];
  return documents
    .filter((entry): entry is Record<string, unknown> => typeof entry === 'object' && entry !== null)
    .map(toDocumentRow);
}

/** Which list a screen shows. */
export type ListSource =
  | { kind: 'offender'; docNumber: string }
  | { kind: 'attorney' }
  | { kind: 'representative' }
  | { kind: 'mine' };

function listPath(source: ListSource): string {
  switch (source.kind) {
    case 'offender':
      return `/documents/offender/${encodeURIComponent(source.docNumber)}`;
    case 'attorney':
      return '/documents/attorney';
    case 'representative':
      return '/representative/documents';
    case 'mine':
      return '/documents/mine';
  }
}

/**
 * Loads a list. `quiet` leaves a 401 to the caller (the offender portal has
 * its own message and goes to /logout instead of /login).
 */
export async function fetchDocuments(
  source: ListSource,
  options: { signal?: AbortSignal; quiet?: boolean } = {},
): Promise<DocumentRow[]> {
  return rowsOf(await apiRequest<ListAnswer>(listPath(source), options));
}

/** One page of a sender's list, its rows mapped like every list's. */
export interface SenderPageAnswer {
  rows: DocumentRow[];
  total: number;
  offset: number;
  nextCursor: string | null;
  prevCursor: string | null;
}

/**
 * One page of the attorney's or the representative's list (docs/api.md "Documents"): the server searches,
 * sorts and pages; the request names the page by number or by a cursor of the last answer.
 */
export async function fetchSenderPage(
  kind: 'attorney' | 'representative',
  request: SenderPageRequest,
  options: { signal?: AbortSignal } = {},
): Promise<SenderPageAnswer> {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(request)) {
    if (value !== undefined && value !== '') params.set(name, String(value));
  }
  const body = await apiRequest<Partial<SenderPage<AttorneyDocument | RepresentativeDocument>>>(
    `${listPath({ kind })}?${params}`,
    options,
  );
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
  const cursor = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  return {
    rows: rowsOf(body),
    total: count(body.total),
    offset: count(body.offset),
    nextCursor: cursor(body.nextCursor),
    prevCursor: cursor(body.prevCursor),
  };
}

/** The delivery receipt of GET /api/documents/{id}/info. */
export interface DocumentReceipt {
  name: string;
  description: string;
  fileName: string;
  size: number;
  sha256: string;
  pages: number;
  encrypted: boolean;
  uploaded: string;
  viewedAt: string | null;
  timeSensitive: boolean;
  respondBy: string | null;
  /** The recipient's own events, oldest first. */
  timeline: ReceiptEvent[];
}

const RECEIPT_EVENTS: readonly ReceiptEvent['event'][] = [
  'sent',
  'fetched',
  'opened',
  'printed',
  'withdrawn',
  'deleted',
];

function timelineOf(value: unknown): ReceiptEvent[] {
  if (!Array.isArray(value)) return [];
  return value.filter((entry): entry is ReceiptEvent =>
    typeof entry === 'object' && entry !== null && RECEIPT_EVENTS.includes(entry.event) &&
    typeof entry.at === 'string'
  );
}

/** GET /api/documents/{id}/info → the receipt. */
export async function fetchReceipt(documentId: string, signal?: AbortSignal): Promise<DocumentReceipt> {
  const body = await apiRequest<{ data?: { document?: Partial<DocumentInfo> } }>(
    `/documents/${encodeURIComponent(documentId)}/info`,
    { signal },
  );
  const doc = body.data?.document ?? {};
  const str = (value: unknown) => (typeof value === 'string' ? value : '');
  return {
    name: str(doc.name),
    description: str(doc.description),
    fileName: str(doc.file_name),
    size: Number(doc.size) || 0,
    sha256: str(doc.sha256),
    pages: Number(doc.pages) || 0,
    encrypted: doc.encrypted === true,
    uploaded: str(doc.date),
    viewedAt: str(doc.viewed_at) || null,
    timeSensitive: doc.time_sensitive === true,
    respondBy: str(doc.respond_by) || null,
    timeline: timelineOf(doc.timeline),
  };
}

/** POST /api/documents/{id}/withdraw → the server's message. */
export async function withdrawDocument(documentId: string): Promise<string> {
  const body = await apiRequest<{ message?: string }>(
    `/documents/${encodeURIComponent(documentId)}/withdraw`,
    { method: 'POST' },
  );
  return typeof body.message === 'string' ? body.message : '';
}

/**
 * GET /api/recipients/{docNumber}: who a DOC number is. Rejects with the ApiError (404: 'No one with this DOC
 * number receives mail here'; 429 past the hourly limit).
 */
export async function lookupRecipient(docNumber: string, signal?: AbortSignal): Promise<RecipientPreview> {
  const body = await apiRequest<{ recipient?: Partial<RecipientPreview> }>(
    `/recipients/${encodeURIComponent(docNumber)}`,
    { signal },
  );
  return {
    docNumber: typeof body.recipient?.docNumber === 'string' ? body.recipient.docNumber : docNumber,
    displayName: typeof body.recipient?.displayName === 'string' ? body.recipient.displayName : '',
  };
}

/** GET /api/preferences. */
export async function fetchPreferences(signal?: AbortSignal): Promise<Preferences> {
  const body = await apiRequest<{ preferences?: Partial<Preferences> }>('/preferences', { signal });
  return { notifyOnOpen: body.preferences?.notifyOnOpen === true };
}

/** PUT /api/preferences. */
export async function savePreferences(preferences: Preferences): Promise<void> {
  await apiRequest('/preferences', { method: 'PUT', body: preferences });
}

/** Upload progress as a whole percentage, 0 to 100. */
export type ProgressListener = (percent: number) => void;

/**
 * POSTs a multipart body to `${API_BASE}${path}` with the session token,
 * reporting upload progress; resolves with the server's message, rejects with
 * an ApiError (status 0 when the server could not be reached).
 */
export function uploadWithProgress(
  path: '/documents/upload' | '/representative/upload',
  body: FormData,
  onProgress: ProgressListener,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${API_BASE}${path}`);
    xhr.setRequestHeader('Accept', 'application/json');
    const token = storage.getGuid();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) {
        onProgress(Math.min(100, Math.floor((event.loaded / event.total) * 100)));
      }
    };
    xhr.onerror = () => reject(new ApiError(0, null));
    xhr.onabort = () => reject(new ApiError(0, null));
    xhr.onload = () => {
      // Read through the same rules as every fetch answer (lib/api.ts).
      const response = new Response(xhr.status === 204 ? null : xhr.responseText, {
        status: xhr.status,
        headers: { 'Content-Type': 'application/json' },
      });
      readResponse<Record<string, unknown>>(response).then(
        (answer) => resolve(typeof answer.message === 'string' ? answer.message : ''),
        reject,
      );
    };
    xhr.send(body);
  });
}

/**
 * POST /api/receipts/verify: the portal's check of a signed receipt file's text, against its own audit key (the
 * check `npm run receipt:verify` makes offline). A changed or foreign file is a result (`valid: false`), not a
 * failure.
 */
export async function checkReceiptFile(content: string): Promise<ReceiptCheckResult> {
  const body = await apiRequest<Partial<ReceiptCheckAnswer>>('/receipts/verify', {
    method: 'POST',
    body: { content },
  });
  if (typeof body.data?.valid !== 'boolean') throw new ApiError(200, null);
  return body.data;
}

/**
 * Downloads the document's signed delivery receipt (a JSON file `npm run receipt:verify` checks offline) and
 * saves it through a temporary object URL.
 */
export async function downloadSignedReceipt(documentId: string): Promise<void> {
  const { blob, filename } = await apiDownload(`/documents/${encodeURIComponent(documentId)}/receipt`);
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = filename ?? `receipt-${documentId}.json`;
    document.body.appendChild(link);
    link.click();
    link.remove();
  } finally {
    // The click has started the download; the browser keeps its own copy.
    setTimeout(() => URL.revokeObjectURL(url), 5000);
  }
}
