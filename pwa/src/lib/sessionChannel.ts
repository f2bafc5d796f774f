/**
 * The session's end, told to every window of the app on this device (item 10: a shared tablet). Every
 * way out (Log Off, /logout, a 401, the server's idle timeout, which arrives as a 401, a sign-in by someone else,
 * the idle limit by the tablet's clock) calls `clearSession()` (state/browserState.ts), which clears the stored
 * session through `storage.clearAll()`, and that one place announces it here. The viewer and print pop-ups listen and
 * close, so no page of privileged mail stays on screen after its session.
 *
 * Two carriers, either one enough: a BroadcastChannel message, and the `storage` event other windows receive
 * when the stored token is removed or replaced (browsers without BroadcastChannel, or a window that missed the
 * message). A listener never announces in turn, so two windows cannot echo each other.
 */

/** The BroadcastChannel's name: one per origin, so only this app's windows hear it. */
export const SESSION_CHANNEL_NAME = 'legal-mail-session';

/** The one message the channel carries; it says nothing about whose session it was. */
export const SESSION_ENDED = 'session-ended';

/** The part of BroadcastChannel this module uses (a fake in tests). */
export interface ChannelLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  removeEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}

/** The part of a storage event this module reads. */
export interface StorageChange {
  key: string | null;
  oldValue: string | null;
  newValue: string | null;
}

export interface SessionChannelOptions {
  /** Opens the channel; null where BroadcastChannel is missing or refused. */
  openChannel(): ChannelLike | null;
  /** Listens to other windows' storage changes; returns the way to stop. */
  onStorage(listener: (change: StorageChange) => void): () => void;
  /** The storage key of the session token. */
  tokenKey: string;
}

export interface SessionChannel {
  /** Tells every other window that the session ended. Never throws. */
  announce(): void;
  /** Calls `onEnd` when another window ends the session; returns the way to stop listening. */
  subscribe(onEnd: () => void): () => void;
}

/**
 * True when a storage change ends the session this window was opened under: the token removed, replaced by
 * another sign-in's, or the whole storage cleared (key null).
 */
export function endsSession(change: StorageChange, tokenKey: string): boolean {
  if (change.key === null) return true;
  return change.key === tokenKey && change.oldValue !== null && change.oldValue !== change.newValue;
}

/**
 * Builds the channel over its carriers. One BroadcastChannel object per window both posts and listens: a
 * channel object never receives its own messages, so a window does not hear its own announcement (its own way
 * out, such as the /logout screen, runs as it always did).
 */
export function createSessionChannel(options: SessionChannelOptions): SessionChannel {
  let channel: ChannelLike | null | undefined;
  function shared(): ChannelLike | null {
    if (channel !== undefined) return channel;
    try {
      channel = options.openChannel();
    } catch {
      channel = null;
    }
    return channel;
  }
  return {
    announce() {
      try {
        shared()?.postMessage({ type: SESSION_ENDED });
      } catch {
        // The storage event still carries it.
      }
    },
    // Both carriers usually arrive, so `onEnd` may run twice for one end: it must be idempotent (closing a
    // window, going to /login). It is not latched, since the main window outlives one session.
    subscribe(onEnd) {
      const onMessage = (event: { data: unknown }) => {
        const data = event.data as { type?: unknown } | null;
        if (data && data.type === SESSION_ENDED) onEnd();
      };
      shared()?.addEventListener('message', onMessage);
      const stopStorage = options.onStorage((change) => {
        if (endsSession(change, options.tokenKey)) onEnd();
      });
      return () => {
        shared()?.removeEventListener('message', onMessage);
        stopStorage();
      };
    },
  };
}

/** The browser's carriers: BroadcastChannel and window's storage event. */
export function browserSessionChannel(tokenKey: string): SessionChannel {
  return createSessionChannel({
    tokenKey,
    openChannel: () =>
      typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(SESSION_CHANNEL_NAME),
    onStorage(listener) {
      if (typeof window === 'undefined') return () => {};
      const handler = (event: StorageEvent) =>
        listener({ key: event.key, oldValue: event.oldValue, newValue: event.newValue });
      window.addEventListener('storage', handler);
      return () => window.removeEventListener('storage', handler);
    },
  });
}
