/**
 * The viewer pop-up's way to the offline cache. The pop-up is a window of its own: it never holds the data key
 * (a reload or a pop-up would otherwise need the PIN again, or the key would have to be stored). The offender's
 * main window, while unlocked, is the one key holder: it answers the pop-ups of this origin over a
 * BroadcastChannel with a document's bytes (decrypted in memory, never written anywhere in the clear), takes the
 * bytes a pop-up downloaded to seal them into the cache, and queues the readings a pop-up made from the cache.
 * It tells a pop-up whether the portal is open (not locked), and when it locks it says so: the pop-ups close.
 */
import type { OfflineReadEvent } from '../../../contract/shapes/offline.ts';

export const DOCUMENT_CHANNEL_NAME = 'legal-mail-offline-documents';

/** How long a pop-up waits for the main window before it takes the document as not cached. */
export const HOLDER_TIMEOUT_MS = 2000;

export type ReadKind = OfflineReadEvent['kind'];

type Message =
  | { type: 'get'; requestId: string; documentId: string }
  | { type: 'reply'; requestId: string; bytes: ArrayBuffer | null }
  | { type: 'put'; documentId: string; bytes: ArrayBuffer }
  | { type: 'read'; documentId: string; kind: ReadKind; occurredAt: string }
  | { type: 'activity' }
  | { type: 'status'; requestId: string }
  | { type: 'open'; requestId: string; open: boolean }
  | { type: 'locked' };

/** What the main window does for the pop-ups (state/browserState.ts behind it). */
export interface KeyHolder {
  /** The cached bytes, null when not cached or locked. */
  get(documentId: string): Promise<Uint8Array<ArrayBuffer> | null>;
  /** Seals a document a pop-up read from the network into the cache (a reading: it counts as read now). */
  put(documentId: string, bytes: Uint8Array<ArrayBuffer>): void;
  /** A reading made from the cache, for the audit queue. */
  read(documentId: string, kind: ReadKind, occurredAt: string): void;
  /** Someone is reading in a pop-up: the tablet's lock clock starts again. */
  activity(): void;
}

function open(): BroadcastChannel | null {
  try {
    return typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(DOCUMENT_CHANNEL_NAME);
  } catch {
    return null;
  }
}

/**
 * The main window's side: answers while `holder` is given, and tells whether the portal `isOpen` (shows the mail:
 * not locked, not ending); returns the way to stop and to announce a lock.
 */
export function serveKeyHolder(
  holder: KeyHolder,
  isOpen: () => boolean,
): { stop(): void; announceLock(): void } {
  const channel = open();
  if (!channel) return { stop() {}, announceLock() {} };
  channel.onmessage = (event: MessageEvent<Message>) => {
    const message = event.data;
    if (!message || typeof message !== 'object') return;
    if (message.type === 'get') {
      void holder.get(message.documentId).then((bytes) => {
        const copy = bytes ? bytes.slice().buffer : null;
        channel.postMessage({ type: 'reply', requestId: message.requestId, bytes: copy } satisfies Message);
      });
    }
    if (message.type === 'put' && message.bytes instanceof ArrayBuffer) {
      holder.put(message.documentId, new Uint8Array(message.bytes));
    }
    if (message.type === 'read' && (message.kind === 'view' || message.kind === 'print')) {
      holder.read(message.documentId, message.kind, message.occurredAt);
    }
    if (message.type === 'activity') holder.activity();
    if (message.type === 'status') {
      channel.postMessage(
        { type: 'open', requestId: message.requestId, open: isOpen() } satisfies Message,
      );
    }
  };
  return {
    stop: () => channel.close(),
    announceLock: () => channel.postMessage({ type: 'locked' } satisfies Message),
  };
}

/**
 * One question from a pop-up to the main window, on a channel of its own: what `answer` makes of the reply to
 * `requestId`, or `fallback` when none comes in time (or there is no channel).
 */
function ask<T>(
  question: (requestId: string) => Message,
  answer: (message: Message, requestId: string) => T | undefined,
  fallback: T,
  timeoutMs: number,
): Promise<T> {
  const channel = open();
  if (!channel) return Promise.resolve(fallback);
  const requestId = crypto.randomUUID();
  return new Promise((resolve) => {
    const finish = (value: T) => {
      clearTimeout(timer);
      channel.close();
      resolve(value);
    };
    const timer = setTimeout(() => finish(fallback), timeoutMs);
    channel.onmessage = (event: MessageEvent<Message>) => {
      if (!event.data || typeof event.data !== 'object') return;
      const value = answer(event.data, requestId);
      if (value !== undefined) finish(value);
    };
    channel.postMessage(question(requestId));
  });
}

/** The pop-up's side. */
export const keyHolderClient = {
  /** The cached bytes from the main window; null when it has none, is locked, or does not answer in time. */
  async get(documentId: string, timeoutMs = HOLDER_TIMEOUT_MS): Promise<Uint8Array<ArrayBuffer> | null> {
    // One main window holds the key (the tablet's one session): its answer, bytes or none, is the answer.
    const bytes = await ask<ArrayBuffer | null>(
      (requestId) => ({ type: 'get', requestId, documentId }),
      (message, requestId) =>
        message.type === 'reply' && message.requestId === requestId ? message.bytes : undefined,
      null,
      timeoutMs,
    );
    return bytes ? new Uint8Array(bytes) : null;
  },
  /**
   * Whether an offender's portal is open in a window of this origin: false when it is locked, when none answers
   * in time (no portal: the viewer was opened by hand), or without a channel.
   */
  isPortalOpen(timeoutMs = HOLDER_TIMEOUT_MS): Promise<boolean> {
    return ask(
      (requestId) => ({ type: 'status', requestId }),
      (message, requestId) =>
        message.type === 'open' && message.requestId === requestId ? message.open === true : undefined,
      false,
      timeoutMs,
    );
  },
  put(documentId: string, bytes: Uint8Array<ArrayBuffer>): void {
    post({ type: 'put', documentId, bytes: bytes.slice().buffer });
  },
  read(documentId: string, kind: ReadKind, occurredAt = new Date().toISOString()): void {
    post({ type: 'read', documentId, kind, occurredAt });
  },
  activity(): void {
    post({ type: 'activity' });
  },
  /** Calls `onLock` when the main window locks; returns the way to stop. */
  onLock(onLock: () => void): () => void {
    const channel = open();
    if (!channel) return () => {};
    channel.onmessage = (event: MessageEvent<Message>) => {
      if (event.data?.type === 'locked') onLock();
    };
    return () => channel.close();
  },
};

function post(message: Message): void {
  const channel = open();
  if (!channel) return;
  channel.postMessage(message);
  channel.close();
}
