/**
 * The session part of the PWA's browser state (state/browserState.ts owns the whole: this file, the IndexedDB
 * cache and the memory; the keys of all three are in state/keys.ts): the spec's keys guid, user and docId, in
 * localStorage for staff and in the tablet's own store for an offender (below). localStorage can be missing
 * (disabled cookies), full (quota) or hold garbage from another version: every function reports that as a
 * result instead of throwing, so a screen can still decide where to go.
 */
import { parseUser, type User } from '../auth/user.ts';
import { browserSessionChannel } from './sessionChannel.ts';
import { STATE_KEYS } from './state/keys.ts';
import { createTabletSessionBackend } from './state/tabletSessionStore.ts';

/** The localStorage keys of spec section 3 (their names are part of the contract); declared in state/keys.ts. */
export const STORAGE_KEYS = STATE_KEYS.localStorage;

export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

/** The part of the Web Storage API this module needs (a fake in tests). */
export interface StorageBackend {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export type WriteResult = { ok: true } | { ok: false; failed: StorageKey[] };

export type UserReadResult =
  | { ok: true; user: User }
  | { ok: false; reason: 'missing' | 'unreadable' | 'unavailable' };

export interface Session {
  token: string;
  user: User;
  docId: string;
}

export interface SessionStorage {
  getGuid(): string | null;
  getDocId(): string | null;
  readUser(): UserReadResult;
  /** Writes all three keys; on a partial failure the keys that failed are listed. */
  saveSession(session: Session): WriteResult;
  saveUser(user: User): WriteResult;
  /** Removes every key of STORAGE_KEYS; keys that could not be removed are listed. */
  clearAll(): WriteResult;
  /** Resolves when what was written or removed has reached the disk (the offender's record, below). */
  settled?(): Promise<void>;
}

/**
 * Builds the storage functions over a backend. `backend` is a getter because
 * merely touching `window.localStorage` throws in some locked-down browsers.
 */
export function createSessionStorage(backend: () => StorageBackend | null): SessionStorage {
  function get(key: StorageKey): string | null {
    try {
      return backend()?.getItem(key) ?? null;
    } catch {
      return null;
    }
  }

  function write(entries: [StorageKey, string | null][]): WriteResult {
    const failed: StorageKey[] = [];
    for (const [key, value] of entries) {
      try {
        const store = backend();
        if (!store) throw new Error('storage unavailable');
        if (value === null) store.removeItem(key);
        else store.setItem(key, value);
      } catch {
        failed.push(key);
      }
    }
    return failed.length ? { ok: false, failed } : { ok: true };
  }

  return {
    getGuid: () => get(STORAGE_KEYS.guid) || null,
    getDocId: () => get(STORAGE_KEYS.docId),
    readUser() {
      let store: StorageBackend | null;
      try {
        store = backend();
      } catch {
        store = null;
      }
      if (!store) return { ok: false, reason: 'unavailable' };
      const raw = get(STORAGE_KEYS.user);
      if (raw === null || raw === '') return { ok: false, reason: 'missing' };
      try {
        const user = parseUser(JSON.parse(raw));
        return user ? { ok: true, user } : { ok: false, reason: 'unreadable' };
      } catch {
        return { ok: false, reason: 'unreadable' };
      }
    },
    saveSession: ({ token, user, docId }) =>
      write([
        [STORAGE_KEYS.guid, token],
        [STORAGE_KEYS.user, JSON.stringify(user)],
        [STORAGE_KEYS.docId, docId],
      ]),
    saveUser: (user) => write([[STORAGE_KEYS.user, JSON.stringify(user)]]),
    clearAll: () => write(Object.values(STORAGE_KEYS).map((key) => [key, null])),
  };
}

function browserLocalStorage(): StorageBackend | null {
  return typeof localStorage === 'undefined' ? null : localStorage;
}

const local = createSessionStorage(browserLocalStorage);

function browserIndexedDB(): IDBFactory | null {
  return typeof indexedDB === 'undefined' ? null : indexedDB;
}

/**
 * The offender's session: memory and one padded IndexedDB record (state/tabletSessionStore.ts), never
 * localStorage, whose disk keeps removed values: the next person on the tablet, or a copy of its disk, must find
 * neither the token nor the DOC number after Log Off.
 */
const tabletBackend = createTabletSessionBackend(browserIndexedDB);
const tablet = createSessionStorage(() => tabletBackend);

/** Reads an offender's stored session into memory: awaited once at start, before the first screen. */
export const loadStoredSession: () => Promise<void> = () => tabletBackend.load();

/** The store that holds the current session: the tablet's while an offender is signed in here. */
function current(): SessionStorage {
  return tablet.getGuid() ? tablet : local;
}

function merged(...results: WriteResult[]): WriteResult {
  const failed = results.flatMap((result) => (result.ok ? [] : result.failed));
  return failed.length ? { ok: false, failed } : { ok: true };
}

/** Every other window of the app hears of a cleared session (sessionChannel.ts). */
export const sessionChannel = browserSessionChannel(STORAGE_KEYS.guid);

const clearedListeners = new Set<() => void>();

/**
 * Calls `listener` in this window each time the session is cleared here (every way out passes through
 * `storage.clearAll()`); other windows hear it through `sessionChannel`. Returns the way to stop.
 */
export function onSessionCleared(listener: () => void): () => void {
  clearedListeners.add(listener);
  return () => clearedListeners.delete(listener);
}

/** Whether the stored user is an offender: the role whose tablet locks and whose mail is cached. */
export function signedInAsOffender(): boolean {
  const stored = storage.readUser();
  return stored.ok && stored.user.role === 'offender';
}

/**
 * The PWA's storage: the browser's localStorage for staff, the tablet's store for an offender. Every way out ends the session through state/browserState.ts's
 * clearSession(), which clears it here, so this stays the one place that announces the end to the other windows
 * (the viewer pop-ups close). Call clearSession(), not clearAll(), from a screen.
 */
export const storage: SessionStorage = {
  getGuid: () => current().getGuid(),
  getDocId: () => current().getDocId(),
  readUser: () => current().readUser(),
  saveSession(session) {
    // One session per browser: the store that does not take this one is emptied (what it cannot remove, it
    // never held).
    if (session.user.role === 'offender') {
      local.clearAll();
      return tablet.saveSession(session);
    }
    tablet.clearAll();
    return local.saveSession(session);
  },
  saveUser: (user) => current().saveUser(user),
  settled: () => tabletBackend.settled(),
  clearAll() {
    const result = merged(tablet.clearAll(), local.clearAll());
    sessionChannel.announce();
    for (const listener of clearedListeners) listener();
    return result;
  },
};
