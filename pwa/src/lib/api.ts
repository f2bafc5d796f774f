/**
 * The one API client of the PWA. It talks to the same origin under /api, sends
 * the stored session token as a bearer credential, reads the `{ success,
 * message }` body every answer carries, and turns any failure into an ApiError
 * with the HTTP status and the server's own message, so every screen reports
 * failures the same way.
 */
import i18next, { t } from 'i18next';
import { FAILURE_CODES } from '../../../contract/shapes/failure.ts';
import { storage } from './storage.ts';

export const API_BASE = '/api';

/** A failed call. `status` is 0 when the server could not be reached at all. */
export class ApiError extends Error {
  readonly status: number;
  /** The server's `message`, when it sent one. */
  readonly serverMessage: string | null;
  /** The server's machine-readable `code`, when it sent one. */
  readonly code: string | null;
  /** What the code's text needs beyond the code (a DOC number, a limit), when the server sent it. */
  readonly detail: string | null;

  constructor(
    status: number,
    serverMessage: string | null,
    code: string | null = null,
    detail: string | null = null,
  ) {
    super(
      serverMessage ??
        (status === 0 ? t('common.serverUnreachable') : t('common.requestFailed', { status })),
    );
    this.name = 'ApiError';
    this.status = status;
    this.serverMessage = serverMessage;
    this.code = code;
    this.detail = detail;
  }
}

/** The API's answer to a call made during a forced password change (the API's role guard). */
export const PASSWORD_CHANGE_REQUIRED = FAILURE_CODES.passwordChangeRequired;

export interface ApiEvents {
  /** A call with a token got 401: the session is gone. */
  onUnauthorized?(error: ApiError): void;
  /** A call got 403 because the temporary password must be replaced first. */
  onPasswordChangeRequired?(error: ApiError): void;
}

let events: ApiEvents = {};

/** Installs the app-wide reactions to 401 and to a required password change (App does this once). */
export function setApiEvents(next: ApiEvents): void {
  events = next;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON; FormData is sent as multipart; a Blob is sent as it is, typed by its own `type` (a CSV upload). */
  body?: unknown;
  /** false: send no bearer token (sign-in, registration, public config). */
  auth?: boolean;
  /** Use this token instead of the stored one (logout after storage was cleared). */
  token?: string | null;
  /** true: do not fire the app-wide 401 / password-change reactions. */
  quiet?: boolean;
  signal?: AbortSignal;
}

/** The fields every API answer may carry. */
export interface ApiBody {
  success?: boolean;
  message?: string;
  code?: string;
}

async function readJson(response: Response): Promise<Record<string, unknown> | null> {
  try {
    const parsed: unknown = await response.json();
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

function textField(body: Record<string, unknown> | null, key: string): string | null {
  const value = body?.[key];
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/**
 * Reads a response: the parsed body for a 2xx answer, otherwise an ApiError
 * carrying the status and the server's message. Exported for tests.
 */
export async function readResponse<T>(response: Response): Promise<T & ApiBody> {
  if (!response.ok) throw await failureOf(response);
  return ((await readJson(response)) ?? {}) as T & ApiBody;
}

/** The ApiError of a non-2xx answer: its status and the server's message and code, when it sent them. */
async function failureOf(response: Response): Promise<ApiError> {
  const body = await readJson(response);
  return new ApiError(
    response.status,
    textField(body, 'message'),
    textField(body, 'code'),
    textField(body, 'detail'),
  );
}

/** Headers of one call. Exported for tests. */
export function requestHeaders(body: unknown, token: string | null): Headers {
  const headers = new Headers({ Accept: 'application/json' });
  if (body !== undefined && !(body instanceof FormData) && !(body instanceof Blob)) {
    headers.set('Content-Type', 'application/json');
  }
  if (token) headers.set('Authorization', `Bearer ${token}`);
  return headers;
}

/**
 * Sends one call and returns the 2xx response. Every failure becomes an ApiError (status 0 when the server
 * could not be reached) carrying the server's message, after the app-wide 401 / password-change reactions;
 * an abort is rethrown as it is.
 */
async function send(path: string, options: RequestOptions): Promise<Response> {
  const { method = options.body === undefined ? 'GET' : 'POST', body, auth = true, quiet = false, signal } =
    options;
  const token = auth ? (options.token !== undefined ? options.token : storage.getGuid()) : null;
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, {
      method,
      headers: requestHeaders(body, token),
      body: body === undefined
        ? undefined
        : body instanceof FormData || body instanceof Blob
        ? body
        : JSON.stringify(body),
      credentials: 'same-origin',
      cache: 'no-store',
      signal,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError(0, null);
  }
  if (!response.ok) {
    const error = await failureOf(response);
    if (!quiet) notify(error, token);
    throw error;
  }
  return response;
}

/** Calls `${API_BASE}${path}` and returns the parsed body, or throws an ApiError. */
export async function apiRequest<T = Record<string, never>>(
  path: string,
  options: RequestOptions = {},
): Promise<T & ApiBody> {
  return readResponse<T>(await send(path, options));
}

/** The API's answer to a call from a session whose tablet is locked (the server keeps the lock). */
export const SESSION_LOCKED = 'session_locked';

const lockedListeners = new Set<() => void>();

/**
 * Calls `listener` when a call finds the session locked on the server (423): the tablet shows its lock screen,
 * e.g. after the PIN reopened it offline while the server had already heard of the lock. Returns the way to stop.
 */
export function onSessionLocked(listener: () => void): () => void {
  lockedListeners.add(listener);
  return () => lockedListeners.delete(listener);
}

function notify(error: ApiError, token: string | null): void {
  if (error.status === 401 && token) events.onUnauthorized?.(error);
  if (error.status === 423 && error.code === SESSION_LOCKED && token) {
    for (const listener of lockedListeners) listener();
  }
  if (error.status === 403 && error.code === PASSWORD_CHANGE_REQUIRED) {
    events.onPasswordChangeRequired?.(error);
  }
}

/** The file name in a Content-Disposition header (RFC 6266 `filename*` preferred), or null. Exported for tests. */
export function dispositionFilename(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // Fall through to the plain parameter.
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/.exec(header);
  const name = (plain?.[2] ?? plain?.[1] ?? '').trim();
  return name === '' ? null : name;
}

/**
 * Fetches a binary answer (a PDF, a CSV export) with the same credentials and
 * error handling as apiRequest. A failure carries the server's JSON message.
 */
export async function apiDownload(
  path: string,
  options: Omit<RequestOptions, 'body' | 'method'> = {},
): Promise<{ blob: Blob; filename: string | null; contentType: string | null }> {
  const response = await send(path, options);
  return {
    blob: await response.blob(),
    filename: dispositionFilename(response.headers.get('Content-Disposition')),
    contentType: response.headers.get('Content-Type'),
  };
}

export interface FailureTexts {
  /** The answer came back with an error status but no message of its own. */
  failed: string;
  /** No answer at all (network down) or an unexpected exception. Defaults to `failed`. */
  error?: string;
}

/**
 * The text of a refusal's `code` in the language shown (the catalogues' `codes`: in English the API's own
 * message, verbatim), or null when the code has none or its text needs a detail the server did not send.
 */
export function codeText(error: ApiError): string | null {
  if (!error.code) return null;
  const key = `codes.${error.code}`;
  const raw: unknown = i18next.getResource(i18next.language, 'translation', key);
  if (typeof raw !== 'string') return null;
  if (raw.includes('{{detail}}') && !error.detail) return null;
  if (raw.includes('{{message}}') && !error.serverMessage) return null;
  // A detail that is a count (minutes) picks the text's plural form, `codes.<code>_one`, where it has one.
  const count = error.detail && /^\d+$/.test(error.detail) ? Number(error.detail) : undefined;
  return i18next.t(key as 'codes.internal', {
    detail: error.detail ?? '',
    message: error.serverMessage ?? '',
    ...(count === undefined ? {} : { count }),
  });
}

/**
 * The text to show for a failure: the text of the server's `code` in the language shown, else the server's
 * own (English) message where English is shown, otherwise the screen's default for a failed answer or for an
 * exception.
 */
export function failureMessage(error: unknown, texts: FailureTexts): string {
  if (error instanceof ApiError) {
    const coded = codeText(error);
    if (coded) return coded;
    if (error.serverMessage && (i18next.language ?? 'en') === 'en') return error.serverMessage;
    if (error.status > 0) return texts.failed;
  }
  return texts.error ?? texts.failed;
}
