/** Uploading documents in tests: a real multipart body through `app.request`. */
import type { TestApp } from './app.ts';

export interface UploadFields {
  file?: Uint8Array | string;
  fileName?: string;
  recipient?: string;
  title?: string;
  description?: string;
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
  await t.deps
    .sql`update settings set value = jsonb_set(value, '{value}', ${value}::text::jsonb) where key = ${key}`;
}

/** How many document rows exist. */
export async function countDocuments(t: TestApp): Promise<number> {
  const [row] = await t.deps.sql<{ n: number }[]>`select count(*)::int as n from documents`;
  return row.n;
}

/** Every stored blob's digest. */
export async function storedBlobs(t: TestApp): Promise<string[]> {
  const names: string[] = [];
  for await (const b of t.deps.blobs.list()) names.push(b.sha256);
  return names.sort();
}
