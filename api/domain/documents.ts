/**
 * Documents as their readers see them: who may read one (the wall: any other reader finds nothing), the list shapes
 * of spec section 3, and the audit of every reading.
 */
import { pinResetAudit } from './pin_reset.ts';
import { insert_audit_event } from '../db/audit.ts';
import type { Tx } from '../db/client.ts';
import type { Carried } from '../db/sessions.ts';
import {
  claim_document_read_audit,
  count_sender_documents,
  document_rows_from_json,
  document_to_read_from_json,
  document_to_read_json,
  type DocumentRow,
  documents_received_in_session_json,
  type DocumentToRead,
  find_document,
  find_document_to_read,
  find_sent_document,
  list_documents_for_recipient,
  list_sender_documents_page,
  type ListPosition,
  mark_document_read,
  type SenderListQuery,
  type SenderListRow,
  type SenderScope,
} from '../db/documents.ts';
import { find_first_served } from '../db/offline.ts';
import type { UserRow } from '../db/users.ts';
import type { AppDeps } from '../deps.ts';
import { displayName, queueOpenedNotice } from './delivery.ts';
import { fail, type Outcome } from './outcome.ts';
import type {
  AttorneyDocument,
  DocumentInfo,
  DocumentListCommon,
  DocumentMetadata,
  DocumentState,
  MineDocument,
  OffenderDocument,
  ReceiptEvent,
  RepresentativeDocument,
  SenderDocumentFields,
  SenderPage,
  SenderSortKey,
  SortOrder,
} from '../../contract/shapes/document.ts';

/** The spec has no approval workflow for mail: a stored document is delivered. */
const APPROVAL_STATUS = 'approved';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Reader = Pick<UserRow, 'id' | 'role'>;

/** The recipient, the sender, and the supervising attorney recorded on it when sent; nobody else (staff never). */
export function mayRead(
  reader: Reader,
  doc: Pick<DocumentRow, 'recipient_id' | 'sender_id' | 'supervising_attorney_id'>,
) {
  if (reader.role === 'admin' || reader.role === 'approver') return false;
  return reader.id === doc.recipient_id || reader.id === doc.sender_id ||
    reader.id === doc.supervising_attorney_id;
}

/** The document `find` gives if this reader may read it; undefined for a malformed, missing, expired or forbidden id alike. */
async function readable<Row extends Parameters<typeof mayRead>[1]>(
  reader: Reader,
  id: string,
  find: (id: string) => Promise<Row | undefined>,
): Promise<Row | undefined> {
  if (!UUID.test(id)) return undefined;
  const doc = await find(id.toLowerCase());
  return doc && mayRead(reader, doc) ? doc : undefined;
}

/** The document if this reader may read it (readable). */
export function findReadableDocument(sql: Tx, reader: Reader, id: string): Promise<DocumentRow | undefined> {
  return readable(reader, id, (id) => find_document(sql, id));
}

/**
 * The Info dialog's document: what findReadableDocument gives, and for its sender and the supervising attorney
 * also a withdrawn one and a tombstone (their receipt says what became of it). The recipient never sees either.
 */
export async function findReceipt(sql: Tx, reader: Reader, id: string): Promise<DocumentRow | undefined> {
  const doc = await readable(reader, id, (id) => find_sent_document(sql, id));
  if (!doc) return undefined;
  const gone = doc.withdrawn_at !== null || doc.deleted_at !== null;
  return gone && reader.id === doc.recipient_id ? undefined : doc;
}

/**
 * findReadableDocument for a reading of its bytes (view, print, prefetch): the same rule, and in the same
 * statement whether this session's reading of this kind was already audited within the window. `carried` is
 * what documentToReadAlongside's read answered in the session check's statement; without it the document is
 * read here.
 */
export function findDocumentToRead(
  sql: Tx,
  reader: Reader & { session_id: string },
  id: string,
  kind: 'view' | 'print' | 'prefetch' | 'shown',
  carried?: Carried,
): Promise<DocumentToRead | undefined> {
  return readable(
    reader,
    id,
    (id) =>
      carried
        ? Promise.resolve(document_to_read_from_json(carried.value))
        : find_document_to_read(sql, id, { sessionId: reader.session_id, kind }),
  );
}

/**
 * findDocumentToRead's read for the guard to carry (GuardOptions.alongside); nothing for a malformed id, which
 * readable answers without the database.
 */
export function documentToReadAlongside(
  sql: Tx,
  sessionId: string,
  id: string,
  kind: 'view' | 'print' | 'prefetch' | 'shown',
) {
  return UUID.test(id) ? document_to_read_json(sql, id, { sessionId, kind }) : undefined;
}

/**
 * The offender's own list, newest first: `carried` is what receivedDocumentsAlongside's read answered in the
 * session check's statement; without it the list is read here.
 */
export function listReceivedDocuments(
  sql: Tx,
  recipientId: string,
  carried?: Carried,
): Promise<DocumentRow[]> {
  return carried
    ? Promise.resolve(document_rows_from_json(carried.value))
    : list_documents_for_recipient(sql, recipientId);
}

/** listReceivedDocuments' read for the guard to carry (GuardOptions.alongside): the session's own user's list. */
export const receivedDocumentsAlongside = documents_received_in_session_json;

/**
 * Accounts for one read of a document's bytes, whatever its Range: the first read by this session of this
 * document and kind within the `document_read_audit_window_minutes` setting writes 'document_viewed' /
 * 'document_printed' (a viewer's many range requests are one reading). Bytes served for viewing are a download,
 * not an opening: the receipt's "opened" comes only from the viewer's report that it showed them (recordShown).
 * The recipient's first print sets the print time (the caller has already refused a PDF that forbids printing).
 * The window's claim, the print time and the event share one transaction, so concurrent range requests write one
 * event and a failed audit gives the claim back. False when the document was withdrawn between the check and this
 * reading: the caller answers it as missing.
 */
export async function recordReading(
  deps: Pick<AppDeps, 'sql'>,
  reader: Reader & { session_id: string; pin_reset_by?: string | null },
  doc: DocumentToRead,
  options: { kind: 'view' | 'print'; ipAddress: string; range?: { start: number; end: number } },
): Promise<boolean> {
  const firstPrint = reader.id === doc.recipient_id && options.kind === 'print' && doc.printed_at === null;
  const read = { sessionId: reader.session_id, documentId: doc.id, kind: options.kind };
  // A viewer's further range requests within the window: nothing to write, so no transaction at all.
  if (!firstPrint && doc.read_audited_recently) return true;
  return await deps.sql.begin(async (tx) => {
    if (firstPrint && !(await mark_document_read(tx, doc.id, 'print'))) return false;
    const claimed = await claim_document_read_audit(tx, read);
    if (!claimed) return true;
    await insert_audit_event(tx, {
      userId: reader.id,
      eventType: options.kind === 'view' ? 'document_viewed' : 'document_printed',
      resourceType: 'document',
      resourceId: doc.id,
      ipAddress: options.ipAddress,
      eventData: {
        title: doc.title,
        sha256: doc.sha256,
        range: options.range ? `${options.range.start}-${options.range.end}` : null,
        ...pinResetAudit(reader),
      },
    });
    return true;
  });
}

/**
 * The viewer's report that the reader's screen showed the document (its first page drawn): the only way a
 * document becomes "opened". Held to the reading's own rule (findDocumentToRead, kind 'shown') and to its bytes
 * having reached this session: a screen cannot show what it never received. The recipient's first report sets the
 * read time and queues the sender's "opened" e-mail; every reader's first report of the session within the
 * read-audit window writes 'document_shown'. Repeating it changes nothing. Fails for 'shown_not_received', or
 * 'document_not_found' when the document was withdrawn meanwhile.
 */
export async function recordShown(
  deps: Pick<AppDeps, 'sql'>,
  reader: Reader & { session_id: string; pin_reset_by?: string | null },
  doc: DocumentToRead,
  options: { ipAddress: string },
): Promise<Outcome<Record<never, never>>> {
  const firstView = reader.id === doc.recipient_id && doc.viewed_at === null;
  if (!firstView && doc.read_audited_recently) return { ok: true };
  if (!(await find_first_served(deps.sql, reader.session_id, doc.id))) return fail('shown_not_received');
  return await deps.sql.begin(async (tx): Promise<Outcome<Record<never, never>>> => {
    if (firstView) {
      const marked = await mark_document_read(tx, doc.id, 'shown');
      if (!marked) return fail('document_not_found');
      if (marked.firstView) await queueOpenedNotice(tx, doc.id);
    }
    const claimed = await claim_document_read_audit(tx, {
      sessionId: reader.session_id,
      documentId: doc.id,
      kind: 'shown',
    });
    if (!claimed) return { ok: true };
    await insert_audit_event(tx, {
      userId: reader.id,
      eventType: 'document_shown',
      resourceType: 'document',
      resourceId: doc.id,
      ipAddress: options.ipAddress,
      eventData: { title: doc.title, sha256: doc.sha256, ...pinResetAudit(reader) },
    });
    return { ok: true };
  });
}

/**
 * Audits a refused print of a PDF that forbids printing ('document_print_refused'): an investigator sees the
 * attempt, while the receipt and the document's print time stay untouched.
 */
export async function recordPrintRefused(
  deps: Pick<AppDeps, 'sql'>,
  reader: Reader & { pin_reset_by?: string | null },
  doc: Pick<DocumentToRead, 'id' | 'title'>,
  options: { ipAddress: string },
): Promise<void> {
  await insert_audit_event(deps.sql, {
    userId: reader.id,
    eventType: 'document_print_refused',
    resourceType: 'document',
    resourceId: doc.id,
    ipAddress: options.ipAddress,
    eventData: { title: doc.title, ...pinResetAudit(reader) },
  });
}

/** Longest requested id an audit event keeps: the URL is the client's, the log must stay small. */
const AUDITED_ID_LENGTH = 100;

/**
 * Audits a signed-in user's request for a document they cannot have ('document_not_found'): missing,
 * expired, forbidden and malformed ids alike, so the event tells an investigator what was probed while the
 * answer (the caller's 404) stays the same for all of them.
 */
export async function recordDocumentNotFound(
  deps: Pick<AppDeps, 'sql'>,
  reader: Pick<UserRow, 'id' | 'role'>,
  request: {
    id: string;
    kind: 'view' | 'print' | 'info' | 'prefetch' | 'withdraw' | 'shown';
    ipAddress: string;
  },
): Promise<void> {
  await insert_audit_event(deps.sql, {
    userId: reader.id,
    eventType: 'document_not_found',
    resourceType: 'document',
    resourceId: request.id.slice(0, AUDITED_ID_LENGTH),
    ipAddress: request.ipAddress,
    eventData: { kind: request.kind, role: reader.role },
  });
}

/**
 * A receipt's metadata has every field, null when unknown: a deleted document's tombstone keeps none of it (its
 * row holds `{}`), and its receipt still answers in the DocumentInfo shape.
 */
const NO_METADATA: DocumentMetadata = {
  title: null,
  author: null,
  subject: null,
  keywords: null,
  creator: null,
  producer: null,
  creationDate: null,
  modDate: null,
  pdfVersion: null,
};

const iso = (d: Date) => new Date(d).toISOString();
const isoOrNull = (d: Date | null) => (d ? iso(d) : null);
const name = (first: string, last: string) => `${first} ${last}`.trim();
const senderName = (d: DocumentRow) => name(d.sender_first_name, d.sender_last_name);
/**
 * The recipient as the recipient lookup shows them ('KOWALSKI, T. (200009)'), to whoever reads the row: a sender
 * learns no more of a name from a receipt or a list than the lookup would tell them.
 */
const recipientName = (d: DocumentRow) =>
  `${displayName(d.recipient_first_name, d.recipient_last_name)} (${d.recipient_doc_number})`;

/** Where the document stands for its sender: the latest of its receipt's events. */
export function documentState(
  d: Pick<DocumentRow, 'deleted_at' | 'withdrawn_at' | 'printed_at' | 'viewed_at'>,
): DocumentState {
  if (d.deleted_at) return 'deleted';
  if (d.withdrawn_at) return 'withdrawn';
  if (d.printed_at) return 'printed';
  if (d.viewed_at) return 'opened';
  return 'delivered';
}

/** The sender's view of the delivery (list rows). */
function senderFields(d: DocumentRow): SenderDocumentFields {
  return {
    state: documentState(d),
    opened_at: isoOrNull(d.viewed_at),
    printed_at: isoOrNull(d.printed_at),
    withdrawn_at: isoOrNull(d.withdrawn_at),
    deleted_at: isoOrNull(d.deleted_at),
    recipient_released: d.recipient_status === 'released' || d.recipient_status === 'transferred',
  };
}

/** The receipt's events that happened, oldest first (ties in the order a delivery goes). */
export function receiptTimeline(d: DocumentRow): ReceiptEvent[] {
  const events: [ReceiptEvent['event'], Date | null][] = [
    ['sent', d.uploaded_at],
    ['fetched', d.prefetched_at],
    ['opened', d.viewed_at],
    ['printed', d.printed_at],
    ['withdrawn', d.withdrawn_at],
    ['deleted', d.deleted_at],
  ];
  return events
    .filter((e): e is [ReceiptEvent['event'], Date] => e[1] !== null)
    .map(([event, at], order) => ({ event, at: iso(at), order }))
    .sort((a, b) => a.at.localeCompare(b.at) || a.order - b.order)
    .map(({ event, at }) => ({ event, at }));
}

/** Fields every list row carries. */
function common(d: DocumentRow): DocumentListCommon {
  const deletedate = iso(d.delete_at);
  return {
    documentid: d.id,
    id: d.id,
    name: d.title,
    description: d.description ?? '',
    date: iso(d.uploaded_at),
    pages: d.pages,
    deletedate,
    eformDue: deletedate,
    viewed_at: isoOrNull(d.viewed_at),
    encrypted: d.encrypted,
    print_allowed: d.print_allowed,
    time_sensitive: d.time_sensitive,
    respond_by: d.respond_by,
  };
}

/** Offender list row (spec section 3). */
export function toOffenderDocument(d: DocumentRow): OffenderDocument {
  return {
    ...common(d),
    attorney_name: senderName(d),
    attorney: senderName(d),
    approval_status: APPROVAL_STATUS,
  };
}

/** Attorney list row: their own and their representatives' documents, marked by sender. */
export function toAttorneyDocument(d: DocumentRow): AttorneyDocument {
  return {
    ...common(d),
    ...senderFields(d),
    offenderdocnumber: d.recipient_doc_number,
    approval_status: APPROVAL_STATUS,
    sent_by: d.sender_role,
    sender_name: senderName(d),
  };
}

/** Representative list row. */
export function toRepresentativeDocument(d: DocumentRow): RepresentativeDocument {
  return {
    ...common(d),
    ...senderFields(d),
    offenderDocNumber: d.recipient_doc_number,
    offenderdocnumber: d.recipient_doc_number,
  };
}

/** /files row: anything the user may read. */
export function toMineDocument(d: DocumentRow): MineDocument {
  return { ...common(d), from: senderName(d), to: recipientName(d) };
}

/** The Info modal: the delivery receipt (SHA-256, pages) and the PDF's metadata. */
export function toDocumentInfo(d: DocumentRow): DocumentInfo {
  return {
    documentid: d.id,
    name: d.title,
    description: d.description ?? '',
    file_name: d.file_name,
    size: d.size,
    sha256: d.sha256,
    pages: d.pages,
    encrypted: d.encrypted,
    print_allowed: d.print_allowed,
    metadata: { ...NO_METADATA, ...d.metadata },
    from: senderName(d),
    to: recipientName(d),
    date: iso(d.uploaded_at),
    deletedate: iso(d.delete_at),
    viewed_at: isoOrNull(d.viewed_at),
    state: documentState(d),
    time_sensitive: d.time_sensitive,
    respond_by: d.respond_by,
    timeline: receiptTimeline(d),
  };
}

/**
 * A sender-list cursor: the row's sort value and id, with the sort it belongs to, as base64url JSON. Opaque to
 * clients; the API reads it back with readCursor and refuses anything it did not write.
 */
export interface ListCursor extends ListPosition {
  sort: SenderSortKey;
  order: SortOrder;
}

/** The longest cursor we write: a 200-character name (its lower case may grow) and a uuid, in base64. */
export const CURSOR_MAX_LENGTH = 2000;

/** The form of each key's sort value (api/db/documents.ts sortValueText). */
const VALUE_FORM: Record<SenderSortKey, RegExp> = {
  name: /^[^]{0,800}$/,
  offenderdocnumber: /^[^]{0,200}$/,
  pages: /^\d{1,9}$/,
  date: /^-?\d{1,18}$/,
  eformDue: /^-?\d{1,18}$/,
};

/**
 * A time sort value (microseconds since 1970) PostgreSQL can turn back into a timestamp: years 1 to 9999. An
 * 18-digit value before 4713 BC would make the page a 500.
 */
const EARLIEST_MICROS = -62_135_596_800_000_000n;
const LATEST_MICROS = 253_402_300_799_999_999n;
const TIME_SORTS: ReadonlySet<SenderSortKey> = new Set(['date', 'eformDue']);

function base64url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The cursor of a row of a page in this sort. */
export function writeCursor(
  row: Pick<SenderListRow, 'sort_value' | 'id'>,
  sort: SenderSortKey,
  order: SortOrder,
) {
  return base64url(JSON.stringify({ s: sort, o: order, v: row.sort_value, i: row.id }));
}

/** A cursor back from the client, or undefined when it is not one we wrote. */
export function readCursor(text: string): ListCursor | undefined {
  if (text.length > CURSOR_MAX_LENGTH || !/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  let parsed: unknown;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(
      Uint8Array.from(binary, (c) => c.charCodeAt(0)),
    ));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { s, o, v, i } = parsed as Record<string, unknown>;
  // Own keys only: 'constructor' or '__proto__' are `in` every object (they would be a 500).
  if (typeof s !== 'string' || !Object.hasOwn(VALUE_FORM, s)) return undefined;
  const sort = s as SenderSortKey;
  if ((o !== 'asc' && o !== 'desc') || typeof v !== 'string' || !VALUE_FORM[sort].test(v)) return undefined;
  if (TIME_SORTS.has(sort) && !(EARLIEST_MICROS <= BigInt(v) && BigInt(v) <= LATEST_MICROS)) return undefined;
  if (typeof i !== 'string' || !UUID.test(i)) return undefined;
  return { sort, order: o, value: v, id: i.toLowerCase() };
}

/** Where a page starts: the first, a numbered one, or next to a cursor's row. */
export type PageStart =
  | { kind: 'first' }
  | { kind: 'number'; page: number }
  | { kind: 'after' | 'before'; at: ListPosition };

/**
 * One page of a sender list and where it stands in the whole (total and offset, from one count over the same
 * rows). A numbered page past the end is the last page. Going back from a row with fewer rows than a page before
 * it (some expired meanwhile) gives the first page, so Previous never shows a short page.
 */
export async function listSenderPage(
  sql: Tx,
  scope: SenderScope,
  query: SenderListQuery & { pageSize: number; start: PageStart },
): Promise<SenderPage<SenderListRow>> {
  const { pageSize, start } = query;
  const list: SenderListQuery = { search: query.search, sort: query.sort, order: query.order };
  let rows: SenderListRow[];
  let counted: { total: number; preceding: number };
  if (start.kind === 'after' || start.kind === 'before') {
    counted = await count_sender_documents(sql, scope, {
      ...list,
      position: { ...start.at, inclusive: start.kind === 'after' },
    });
    rows = await list_sender_documents_page(
      sql,
      scope,
      start.kind === 'after'
        ? { ...list, limit: pageSize, after: start.at }
        : { ...list, limit: pageSize, before: start.at },
    );
    if (start.kind === 'before') {
      if (rows.length < pageSize) {
        rows = await list_sender_documents_page(sql, scope, { ...list, limit: pageSize });
        counted = { ...counted, preceding: 0 };
      } else counted = { ...counted, preceding: counted.preceding - rows.length };
    }
  } else {
    counted = await count_sender_documents(sql, scope, list);
    const lastPage = Math.max(1, Math.ceil(counted.total / pageSize));
    const page = start.kind === 'number' ? Math.min(start.page, lastPage) : 1;
    counted = { ...counted, preceding: (page - 1) * pageSize };
    rows = await list_sender_documents_page(sql, scope, {
      ...list,
      limit: pageSize,
      offset: counted.preceding,
    });
  }
  const { total, preceding: offset } = counted;
  const first = rows[0];
  const last = rows[rows.length - 1];
  return {
    documents: rows,
    total,
    offset,
    pageSize,
    sort: query.sort,
    order: query.order,
    nextCursor: last && offset + rows.length < total ? writeCursor(last, query.sort, query.order) : null,
    prevCursor: first && offset > 0 ? writeCursor(first, query.sort, query.order) : null,
  };
}
