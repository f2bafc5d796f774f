/** Calls a browser test makes straight to the API, to set the scene faster than through the UI. */
import assert from 'node:assert/strict';
import type { TestServer } from './server.ts';

export interface Credentials {
  username: string;
  password: string;
}

/** Signs in and returns the session token (the login must succeed). */
export async function apiToken(server: TestServer, who: Credentials): Promise<string> {
  const response = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(who),
  });
  const body = await response.json();
  assert.equal(response.status, 200, JSON.stringify(body));
  return body.token;
}

/** A JSON call to the API as a test client: its status and parsed body, whatever the status. */
export async function apiCall(
  server: TestServer,
  path: string,
  init: { method?: string; token?: string; body?: unknown } = {},
  // deno-lint-ignore no-explicit-any
): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  const response = await fetch(`${server.url}/api${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, body: await response.json() };
}

export interface UploadRequest {
  recipient: string;
  title: string;
  bytes: Uint8Array;
  description?: string;
  /** Further multipart fields (time_sensitive, respond_by). */
  fields?: Record<string, string>;
}

/** Uploads a PDF as an attorney (the upload must succeed); returns the document id. */
export async function apiUpload(server: TestServer, token: string, upload: UploadRequest): Promise<string> {
  const form = new FormData();
  form.set('recipient_doc_number', upload.recipient);
  form.set('title', upload.title);
  if (upload.description) form.set('description', upload.description);
  for (const [name, value] of Object.entries(upload.fields ?? {})) form.set(name, value);
  const fileName = `${upload.title.toLowerCase().replace(/\W+/g, '-')}.pdf`;
  form.set('file', new File([upload.bytes as BlobPart], fileName, { type: 'application/pdf' }));
  const response = await fetch(`${server.url}/api/documents/upload`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  const body = await response.json();
  assert.equal(response.status, 201, JSON.stringify(body));
  const id = body.document?.documentid ?? body.document?.id;
  assert.ok(id, `no document id in ${JSON.stringify(body)}`);
  return String(id);
}
