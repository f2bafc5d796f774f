/** Uploading documents in tests: a real multipart body through `app.request`. */
import type { SealedBlobStore } from '../../api/blobs/sealed_store.ts';
import { setSetting, type TestApp } from './app.ts';

export interface UploadFields {
  file?: Uint8Array | string;
  fileName?: string;
  recipient?: string;
  title?: string;
  description?: string;
  /** Further recipients: `recipient_doc_number` repeated after `recipient`. */
  moreRecipients?: string[];
  time_sensitive?: string;
  respond_by?: string;
}

/** POSTs a multipart upload (attorney path unless `path` is given); returns status and body. */
export async function upload(
  t: TestApp,
  token: string,
  fields: UploadFields,
  path = '/api/documents/upload',
): Promise<{ status: number; body: any }> {
  const form = new FormData();
  if (fields.file !== undefined) {
    form.set(
      'file',
      new File([fields.file as BlobPart], fields.fileName ?? 'letter.pdf', { type: 'application/pdf' }),
    );
  }
  if (fields.recipient !== undefined) form.set('recipient_doc_number', fields.recipient);
  for (const more of fields.moreRecipients ?? []) form.append('recipient_doc_number', more);
  if (fields.time_sensitive !== undefined) form.set('time_sensitive', fields.time_sensitive);
  if (fields.respond_by !== undefined) form.set('respond_by', fields.respond_by);
  if (fields.title !== undefined) form.set('title', fields.title);
  if (fields.description !== undefined) form.set('description', fields.description);
  const response = await t.app.request(path, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  }, {
    remoteAddr: { hostname: '127.0.0.1', port: 40000, transport: 'tcp' },
  });
  return { status: response.status, body: await response.json() };
}

/** Sets a number setting directly (as the admin screen would). */
export async function setNumberSetting(t: TestApp, key: string, value: number): Promise<void> {
  await setSetting(t, key, value);
}

/** How many documents exist (the tombstones of deleted ones aside). */
export async function countDocuments(t: TestApp): Promise<number> {
  const [row] = await t.deps.sql<
    { n: number }[]
  >`select count(*)::int as n from documents where deleted_at is null`;
  return row.n;
}

/** Every stored blob's digest. */
export async function storedBlobs(t: TestApp): Promise<string[]> {
  const names: string[] = [];
  for await (const b of t.deps.blobs.list()) names.push(b.sha256);
  return names.sort();
}

export interface DocumentFixture {
  senderId: string;
  recipientId: string;
  title?: string;
  pages?: number;
  uploadedAt?: Date;
  /** The supervising attorney recorded on the row (a representative's accepted link at upload). */
  supervisingAttorneyId?: string | null;
}

/**
 * Inserts a document row straight into the table (no blob, no PDF inspection): lists only read rows, so a test
 * of paging can have dozens of documents at the cost of one insert each. Returns its id.
 */
export async function insertDocument(t: TestApp, doc: DocumentFixture): Promise<string> {
  const [row] = await t.deps.sql<{ id: string }[]>`
    insert into documents (entity_id, sender_id, recipient_id, title, file_name, size, sha256, pages, encrypted,
                           print_allowed, uploaded_at, supervising_attorney_id)
    select u.entity_id, u.id, ${doc.recipientId}, ${doc.title ?? 'Letter'}, 'letter.pdf', 1000, ${
    '0'.repeat(64)
  },
           ${doc.pages ?? 1}, false, true, ${doc.uploadedAt ?? new Date()}, ${
    doc.supervisingAttorneyId ?? null
  }
    from users u where u.id = ${doc.senderId}
    returning id`;
  return row.id;
}

/**
 * Stores an uploaded document's bytes as an installation from before sealing did: a plaintext blob under its
 * SHA-256, no sealed blob and no data key (what `npm run blobs:encrypt` and the nginx offload deal with).
 */
export async function storeAsBefore(t: TestApp, bytes: Uint8Array): Promise<void> {
  const store = t.deps.blobs as SealedBlobStore;
  const stored = await store.inner.put(new Blob([bytes as BlobPart]).stream());
  const [row] = await t.deps.sql<{ name: string }[]>`
    delete from sealed_blobs where sha256 = ${stored.sha256} returning name`;
  if (row) await store.inner.delete(row.name);
}
