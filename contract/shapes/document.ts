/** Documents as their readers see them: the list rows of spec section 3 and the Info modal. */

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
}

/** GET /api/documents/offender/{docNumber} row. */
export interface OffenderDocument extends DocumentListCommon {
  attorney_name: string;
  attorney: string;
  approval_status: 'approved';
}

/** GET /api/documents/attorney row: the attorney's own and their representatives' documents. */
export interface AttorneyDocument extends DocumentListCommon {
  offenderdocnumber: string;
  approval_status: 'approved';
  sent_by: 'attorney' | 'representative';
  sender_name: string;
}

/** GET /api/representative/documents row. */
export interface RepresentativeDocument extends DocumentListCommon {
  offenderDocNumber: string;
  offenderdocnumber: string;
}

/** GET /api/documents/mine row (/files): anything the user may read. */
export interface MineDocument extends DocumentListCommon {
  from: string;
  /** 'First Last (DOC number)'. */
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
  to: string;
  /** ISO 8601. */
  date: string;
  /** ISO 8601. */
  deletedate: string;
  /** ISO 8601. */
  viewed_at: string | null;
}

/** The text fields of an upload's multipart form (`file` beside them). */
export interface UploadFields {
  recipient_doc_number: string;
  title: string;
  description?: string;
}
