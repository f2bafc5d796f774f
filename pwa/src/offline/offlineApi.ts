/** The offender tablet's offline calls (contract/shapes/offline.ts), all through lib/api.ts. */
import type {
  OfflineEventsRequest,
  OfflineEventsResult,
  OfflineKey,
  OfflineReadEvent,
  UnlockRequest,
} from '../../../contract/shapes/offline.ts';
import { API_BASE, ApiError, apiRequest } from '../lib/api.ts';
import { storage } from '../lib/storage.ts';

/** The contract's batch limit of POST /api/documents/offline-events. */
export const OFFLINE_EVENTS_BATCH = 100;

/** GET /api/auth/offline-key: the live session's data key and the tablet's limits. */
export async function fetchOfflineKey(
  options: { signal?: AbortSignal; token?: string | null } = {},
): Promise<OfflineKey> {
  const body = await apiRequest<{ data?: OfflineKey }>('/auth/offline-key', { quiet: true, ...options });
  if (!body.data) throw new ApiError(502, null);
  return body.data;
}

/** POST /api/auth/lock: the server refuses the session everything but unlock and logout from now on. */
export async function lockOnServer(token: string | null): Promise<void> {
  await apiRequest('/auth/lock', { method: 'POST', quiet: true, token });
}

/**
 * POST /api/auth/unlock with the lock screen's PIN. Quiet: the lock screen reads the 403 (wrong PIN) and the
 * 401 (the account lock ended the session) itself.
 */
export async function unlockOnline(pin: string, token?: string | null): Promise<OfflineKey> {
  const body = await apiRequest<{ data?: OfflineKey }>('/auth/unlock', {
    body: { pin } satisfies UnlockRequest,
    quiet: true,
    token,
  });
  if (!body.data) throw new ApiError(502, null);
  return body.data;
}

/** POST /api/documents/offline-events (one batch): which ids the API has, and which it refused for good. */
export async function sendOfflineEvents(events: OfflineReadEvent[]): Promise<OfflineEventsResult> {
  const body = await apiRequest<{ data?: OfflineEventsResult }>('/documents/offline-events', {
    body: { events } satisfies OfflineEventsRequest,
    quiet: true,
  });
  return body.data ?? { recorded: [], refused: [] };
}

/**
 * GET /api/documents/prefetch/{id}: the whole PDF, fetched ahead for reading offline (no read time is set).
 * `onProgress` gets the share received, 0 to 1, when the size is known; `token`, the session it is for (the
 * stored one by default).
 */
export async function fetchForOffline(
  documentId: string,
  options: { signal?: AbortSignal; onProgress?(share: number): void; token?: string | null } = {},
): Promise<Uint8Array<ArrayBuffer>> {
  const token = options.token !== undefined ? options.token : storage.getGuid();
  let response: Response;
  try {
    response = await fetch(`${API_BASE}/documents/prefetch/${encodeURIComponent(documentId)}`, {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      cache: 'no-store',
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError(0, null);
  }
  if (!response.ok || !response.body) throw new ApiError(response.status, null);
  const total = Number(response.headers.get('Content-Length')) || 0;
  const chunks: Uint8Array[] = [];
  let received = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    if (total) options.onProgress?.(Math.min(1, received / total));
  }
  const whole = new Uint8Array(new ArrayBuffer(received));
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.byteLength;
  }
  return whole;
}
