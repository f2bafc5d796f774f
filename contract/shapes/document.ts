/** Documents as their readers see them: the list rows of spec section 3 and the Info modal. */

/**
 * Where a document stands for its sender: in the recipient's list (delivered), read (opened, with its date,
 * offline reads included once they reach the server), printed, taken back by the sender (withdrawn) or deleted
 * by retention or after the recipient's release (a tombstone kept for one more retention period).
 */
export const DOCUMENT_STATES = ['delivered', 'opened', 'printed', 'withdrawn', 'deleted'] as const;
export type DocumentState = (typeof DOCUMENT_STATES)[number];

/** Fields every list row carries. Dates are ISO 8601. */
export interface DocumentListCommon {
  documentid: string;
  id: string;
  name: string;
  description: string;
  date: string;
  pages: number;
  deletedate: string;
  eformDue: string;
  viewed_at: string | null;
  encrypted: boolean;
  print_allowed: boolean;
  /** Marked by the sender: sorts first on the recipient's list and is fetched ahead first. */
  time_sensitive: boolean;
  /** 'YYYY-MM-DD' (a calendar day), only with time_sensitive; null when none was given. */
  respond_by: string | null;
}

/** What a sender's list row adds: the delivery's state and its dates. */
export interface SenderDocumentFields {
  state: DocumentState;
  /** The recipient's first reading (ISO 8601); the same as viewed_at. */
  opened_at: string | null;
  printed_at: string | null;
  withdrawn_at: string | null;
  deleted_at: string | null;
  /**
   * The recipient was released or transferred: no more mail reaches them, and their documents are deleted
   * `release_purge_days` after it (the list shows "Recipient released" until then).
   */
  recipient_released: boolean;
}

/** GET /api/documents/offender/{docNumber} row. */
export interface OffenderDocument extends DocumentListCommon {
  attorney_name: string;
  attorney: string;
  approval_status: 'approved';
}

/** GET /api/documents/attorney row: the attorney's own and their representatives' documents. */
export interface AttorneyDocument extends DocumentListCommon, SenderDocumentFields {
  offenderdocnumber: string;
  approval_status: 'approved';
  sent_by: 'attorney' | 'representative';
  sender_name: string;
}

/** GET /api/representative/documents row. */
export interface RepresentativeDocument extends DocumentListCommon, SenderDocumentFields {
  offenderDocNumber: string;
  offenderdocnumber: string;
}

/** The columns a sender's list sorts by (spec section 9), on the server as in the PWA. */
export const SENDER_SORT_KEYS = ['name', 'offenderdocnumber', 'date', 'pages', 'eformDue'] as const;
export type SenderSortKey = (typeof SENDER_SORT_KEYS)[number];
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];
/** The page sizes the screen offers (spec section 9); the API takes any size from 1 to the largest. */
export const SENDER_PAGE_SIZES = [10, 25, 50, 100] as const;

/**
 * The query of a sender's list page (GET /api/documents/attorney, GET /api/representative/documents), as the
 * PWA sends it. At most one of `page`, `after` and `before`; none is the first page.
 */
export interface SenderPageRequest {
  /** Case-insensitive 'starts with' on the name, the offender's DOC number or the page count as text. */
  q?: string;
  sort?: SenderSortKey;
  order?: SortOrder;
  pageSize?: number;
  /** A numbered page (1-based): an OFFSET, for the numbered buttons. */
  page?: number;
  /** The page after the row this cursor names (`nextCursor`): keyset, for Next. */
  after?: string;
  /** The page before the row this cursor names (`prevCursor`): keyset, for Previous. */
  before?: string;
}

/**
 * One page of a sender's list: the rows, how many rows match in all (`total`) and how many come before this
 * page in this order (`offset`, so page = offset / pageSize + 1). The cursors are opaque; null when there is
 * no next (or previous) page.
 */
export interface SenderPage<Row> {
  documents: Row[];
  total: number;
  offset: number;
  pageSize: number;
  sort: SenderSortKey;
  order: SortOrder;
  nextCursor: string | null;
  prevCursor: string | null;
}

/** GET /api/documents/mine row (/files): anything the user may read. */
export interface MineDocument extends DocumentListCommon {
  from: string;
  /** The recipient as the recipient lookup shows them, with the DOC number: 'SMITH, J. (100001)'. */
  to: string;
}

/** The PDF's own metadata, as the isolated inspector read it. */
export interface DocumentMetadata {
  title: string | null;
  author: string | null;
  subject: string | null;
  keywords: string | null;
  creator: string | null;
  producer: string | null;
  creationDate: string | null;
  modDate: string | null;
  pdfVersion: string | null;
}

/** One event of a delivery receipt: the recipient's own, never who else looked. */
export interface ReceiptEvent {
  event: 'sent' | 'fetched' | 'opened' | 'printed' | 'withdrawn' | 'deleted';
  /** ISO 8601. */
  at: string;
}

/** GET /api/documents/{id}/info `data.document` and the upload answer's `document`: the delivery receipt. */
export interface DocumentInfo {
  documentid: string;
  name: string;
  description: string;
  file_name: string;
  size: number;
  sha256: string;
  pages: number;
  encrypted: boolean;
  print_allowed: boolean;
  metadata: DocumentMetadata;
  from: string;
  /** The recipient as the recipient lookup shows them, with the DOC number: 'SMITH, J. (100001)'. */
  to: string;
  /** ISO 8601. */
  date: string;
  /** ISO 8601. */
  deletedate: string;
  /** ISO 8601. */
  viewed_at: string | null;
  state: DocumentState;
  time_sensitive: boolean;
  respond_by: string | null;
  /** Sent, fetched ahead to the tablet, opened, printed, withdrawn, deleted: each that happened, oldest first. */
  timeline: ReceiptEvent[];
}

/** One document of an upload: one per recipient, each with its own receipt. */
export interface UploadedDocument {
  documentid: string;
  offenderdocnumber: string;
}

/**
 * The most recipients one upload may name (`recipient_doc_number` repeated): co-defendants or a class notice,
 * not a mailing list.
 */
export const MAX_RECIPIENTS = 20;

/** The text fields of an upload's multipart form (`file` beside them). */
export interface UploadFields {
  recipient_doc_number: string;
  title: string;
  description?: string;
  /** 'true' marks it time-sensitive; absent or 'false' does not. */
  time_sensitive?: string;
  /** 'YYYY-MM-DD', only with time_sensitive. */
  respond_by?: string;
}

/** GET /api/documents/offender/{docNumber} answer: the offender's own list. */
export interface OffenderDocumentListAnswer {
  success: true;
  documents: OffenderDocument[];
}

/** GET /api/documents/mine answer (empty for staff, who never receive documents). */
export interface MineDocumentListAnswer {
  success: true;
  documents: MineDocument[];
}

/** A sender's whole list, when the query has no paging parameter. */
export interface SenderListAnswer<Row> {
  success: true;
  message: string;
  documents: Row[];
}

/** One page of a sender's list, when the query has any paging parameter. */
export interface SenderPageAnswer<Row> extends SenderPage<Row> {
  success: true;
  message: string;
}

/** GET /api/documents/attorney answer: the whole list or one page of it. */
export type AttorneyDocumentsAnswer = SenderListAnswer<AttorneyDocument> | SenderPageAnswer<AttorneyDocument>;

/** GET /api/representative/documents answer: the whole list or one page of it. */
export type RepresentativeDocumentsAnswer =
  | SenderListAnswer<RepresentativeDocument>
  | SenderPageAnswer<RepresentativeDocument>;

/** GET /api/documents/{id}/info answer: the delivery receipt. */
export interface DocumentInfoAnswer {
  success: true;
  data: { document: DocumentInfo };
}

/** POST /api/documents/shown/{id}: the viewer's report that the document was shown, recorded (or already). */
export interface DocumentShownAnswer {
  success: true;
  message: string;
}

/** POST /api/documents/{id}/withdraw answer: the document, withdrawn, and when. */
export interface DocumentWithdrawnAnswer {
  success: true;
  message: string;
  data: {
    documentid: string;
    state: 'withdrawn';
    /** ISO 8601. */
    withdrawn_at: string;
  };
}
