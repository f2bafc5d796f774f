/**
 * Documents: all their SQL. A document's delete date is its upload time plus the
 * `document_retention_days` setting read at query time, so a change of the setting takes
 * effect at once, and no query here ever returns an expired document.
 */
import type postgres from 'postgres';
import type { Tx } from './client.ts';
import type { PdfMetadata } from '../pdf/inspect.ts';

/** 90 days: the setting's default (migration 0001), used if the row is missing. */
const DEFAULT_RETENTION_DAYS = 90;

/** The delete date of document `d`, as a SQL fragment. */
function deleteAt(sql: Tx) {
  return sql`(d.uploaded_at + coalesce((select (value->>'value')::numeric from settings
    where key = 'document_retention_days'), ${DEFAULT_RETENTION_DAYS}) * interval '1 day')`;
}

export interface DocumentRow {
  id: string;
  entity_id: string;
  sender_id: string;
  recipient_id: string;
  title: string;
  description: string | null;
  file_name: string;
  size: number;
  sha256: string;
  pages: number;
  encrypted: boolean;
  print_allowed: boolean;
  metadata: PdfMetadata;
  uploaded_at: Date;
  viewed_at: Date | null;
  delete_at: Date;
  sender_role: 'attorney' | 'representative';
  sender_first_name: string;
  sender_last_name: string;
  /**
   * The supervising attorney the document was shared with when it was sent (a representative's accepted link
   * then), who may also read it; never the sender's current supervisor, so a later change opens nothing old.
   */
  supervising_attorney_id: string | null;
  recipient_doc_number: string;
  recipient_first_name: string;
  recipient_last_name: string;
}

function selectDocuments(sql: Tx) {
  return sql`
    select d.id, d.entity_id, d.sender_id, d.recipient_id, d.title, d.description, d.file_name, d.size::float8 as size,
           d.sha256, d.pages, d.encrypted, d.print_allowed, d.metadata, d.uploaded_at, d.viewed_at,
           ${deleteAt(sql)} as delete_at,
           s.role as sender_role, s.first_name as sender_first_name, s.last_name as sender_last_name,
           d.supervising_attorney_id,
           r.doc_number as recipient_doc_number, r.first_name as recipient_first_name, r.last_name as recipient_last_name
    from documents d join users s on s.id = d.sender_id join users r on r.id = d.recipient_id`;
}

/** The active offender of an entity with this DOC number (case as stored). */
export async function find_active_offender(
  sql: Tx,
  entityId: string,
  docNumber: string,
): Promise<{ id: string } | undefined> {
  const [row] = await sql<{ id: string }[]>`
    select id from users where entity_id = ${entityId} and role = 'offender' and status = 'active'
      and doc_number = ${docNumber}`;
  return row;
}

export interface NewDocument {
  entityId: string;
  senderId: string;
  recipientId: string;
  title: string;
  description: string | null;
  fileName: string;
  size: number;
  sha256: string;
  pages: number;
  encrypted: boolean;
  printAllowed: boolean;
  metadata: PdfMetadata;
}

/**
 * Inserts a document row (its blob is already stored); returns its id and the supervisor it was shared with.
 * The sender's supervising attorney is recorded on the row in the same statement, and only when the link is
 * accepted and the attorney active at that moment: a pending, removed or later link never shares this document.
 */
export async function insert_document(
  sql: Tx,
  doc: NewDocument,
): Promise<{ id: string; supervising_attorney_id: string | null }> {
  const [row] = await sql<{ id: string; supervising_attorney_id: string | null }[]>`
    insert into documents (entity_id, sender_id, recipient_id, title, description, file_name, size, sha256, pages,
                           encrypted, print_allowed, metadata, supervising_attorney_id)
    values (${doc.entityId}, ${doc.senderId}, ${doc.recipientId}, ${doc.title}, ${doc.description}, ${doc.fileName},
            ${doc.size}, ${doc.sha256}, ${doc.pages}, ${doc.encrypted}, ${doc.printAllowed},
            ${sql.json(doc.metadata as never)},
            (select a.id from users s join users a on a.id = s.supervising_attorney_id
             where s.id = ${doc.senderId} and s.role = 'representative' and s.supervisor_accepted_at is not null
               and a.role = 'attorney' and a.status = 'active' and a.entity_id = s.entity_id))
    returning id, supervising_attorney_id`;
  return row;
}

/** Unexpired documents matching `condition`, newest first: the one place lists and lookups go through. */
function unexpiredDocuments(sql: Tx, condition: postgres.Fragment): Promise<DocumentRow[]> {
  return sql<DocumentRow[]>`${selectDocuments(sql)}
    where (${condition}) and ${deleteAt(sql)} > now()
    order by d.uploaded_at desc, d.id`;
}

/** One unexpired document by id, whoever asks (the caller applies the access rule). */
export async function find_document(sql: Tx, id: string): Promise<DocumentRow | undefined> {
  const [row] = await unexpiredDocuments(sql, sql`d.id = ${id}`);
  return row;
}

/** Sets the recipient's first-view time; later views keep the first. */
export async function mark_document_viewed(sql: Tx, id: string): Promise<void> {
  await sql`update documents set viewed_at = now() where id = ${id} and viewed_at is null`;
}

/** 10 minutes: the document_read_audit_window_minutes setting's default, used if the row is missing. */
const DEFAULT_READ_AUDIT_WINDOW_MINUTES = 10;

/** The start of the read-audit window, as a SQL fragment: a reading audited after it is not audited again. */
function readAuditWindowStart(sql: Tx) {
  return sql`now() - coalesce((select (value->>'value')::numeric from settings
    where key = 'document_read_audit_window_minutes'), ${DEFAULT_READ_AUDIT_WINDOW_MINUTES}) * interval '1 minute'`;
}

/**
 * Claims the audit of a read by this session of this document and kind: true when no read of it was audited
 * within the `document_read_audit_window_minutes` setting (the caller then writes the event). The claim is one statement: of
 * several concurrent range requests, the row lock lets exactly one through; call it in the audit's transaction so
 * a failed audit gives the claim back.
 */
export async function claim_document_read_audit(
  sql: Tx,
  read: { sessionId: string; documentId: string; kind: 'view' | 'print' | 'prefetch' },
): Promise<boolean> {
  // Most reads are a viewer's further ranges within the window: a plain read answers them without the upsert's
  // row lock, which gives the transaction an id and its commit a WAL flush on every range request.
  const [fresh] = await sql`
    select 1 from document_read_audits
    where session_id = ${read.sessionId} and document_id = ${read.documentId} and kind = ${read.kind}
      and last_audited_at > ${readAuditWindowStart(sql)}`;
  if (fresh) return false;
  const rows = await sql`
    insert into document_read_audits as a (session_id, document_id, kind)
    values (${read.sessionId}, ${read.documentId}, ${read.kind})
    on conflict (session_id, document_id, kind) do update set last_audited_at = now()
      where a.last_audited_at <= ${readAuditWindowStart(sql)}
    returning 1`;
  return rows.length > 0;
}

/** What an offender received, newest first. */
export function list_documents_for_recipient(sql: Tx, recipientId: string): Promise<DocumentRow[]> {
  return unexpiredDocuments(sql, sql`d.recipient_id = ${recipientId}`);
}

/** What a user sent, newest first. */
export function list_documents_sent_by(sql: Tx, senderId: string): Promise<DocumentRow[]> {
  return unexpiredDocuments(sql, sql`d.sender_id = ${senderId}`);
}

/** What an attorney sent and what representatives shared with them (recorded on each document), newest first. */
export function list_documents_for_attorney(sql: Tx, attorneyId: string): Promise<DocumentRow[]> {
  return unexpiredDocuments(
    sql,
    sql`d.sender_id = ${attorneyId} or d.supervising_attorney_id = ${attorneyId}`,
  );
}

/** Every document a user may read (recipient, sender or the supervisor recorded on it), newest first. */
export function list_documents_readable_by(sql: Tx, userId: string): Promise<DocumentRow[]> {
  return unexpiredDocuments(
    sql,
    sql`d.recipient_id = ${userId} or d.sender_id = ${userId} or d.supervising_attorney_id = ${userId}`,
  );
}

/** Deletes every expired document; returns what was deleted (for the audit). */
export function delete_expired_documents(sql: Tx): Promise<{ id: string; sha256: string; title: string }[]> {
  return sql<{ id: string; sha256: string; title: string }[]>`
    delete from documents d where ${deleteAt(sql)} <= now() returning d.id, d.sha256, d.title`;
}

/** The digests among `sha256s` that some document still refers to. */
export async function referenced_blobs(sql: Tx, sha256s: string[]): Promise<Set<string>> {
  if (sha256s.length === 0) return new Set();
  const rows = await sql<
    { sha256: string }[]
  >`select distinct sha256 from documents where sha256 = any(${sha256s})`;
  return new Set(rows.map((r) => r.sha256));
}
