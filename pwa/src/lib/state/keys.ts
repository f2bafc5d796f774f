/**
 * Every piece of state the PWA keeps in the browser, named in one place, with when it is cleared. `lock` items
 * leave memory when the tablet locks (and on every way out); `logout` items are removed by clearSession() only.
 * Bitwarden's `clearOn` declarations and excalidraw's LocalData.ts are the models: a new item cannot be added
 * without saying where it lives and what removes it (browserState.ts clears by these declarations, and its
 * tests check that every item is gone after a clearSession()).
 */

/** The IndexedDB database of the offender's offline cache (one per origin; its name says nothing of whose). */
export const OFFLINE_DATABASE = 'legal-mail-offline';

/** Raised with every change of the stores below; the upgrade function in database.ts walks from the old one. */
export const OFFLINE_DATABASE_VERSION = 1;

/** The single keys of the `list` and `meta` stores (one list, one session per tablet). */
export const SINGLE_RECORD_ID = 'current';

export const STATE_KEYS = {
  /**
   * The session's keys, spec section 3 (the names are part of the contract): in localStorage for staff, in the
   * tablet's own store for an offender (tabletSessionStore.ts), whose removed values no copy of the disk keeps.
   */
  localStorage: {
    /** The session token, sent as the bearer credential. */
    guid: 'guid',
    /** The user object as JSON, including its role. */
    user: 'user',
    /** The username typed at login (for an offender, the DOC ID number). */
    docId: 'docId',
  },
  /** IndexedDB: the stores of OFFLINE_DATABASE. */
  indexedDB: {
    /** The offender's document list snapshot and when it was saved: one sealed record. */
    list: 'list',
    /** Per cached PDF: size, savedAt, lastReadAt, lastUsedAt (for least-recently-read eviction); no content. */
    documents: 'documents',
    /** Per cached PDF: its bytes, sealed. Kept apart from `documents` so eviction never loads a PDF. */
    pdfs: 'pdfs',
    /** Offline read events (OfflineReadEvent) until the API has them. */
    queue: 'queue',
    /** The session: userId, the limits, the idle clock, the lock (never the key, wrapped or not). */
    meta: 'meta',
  },
} as const;

export type LocalStorageKey = (typeof STATE_KEYS.localStorage)[keyof typeof STATE_KEYS.localStorage];
export type StoreName = (typeof STATE_KEYS.indexedDB)[keyof typeof STATE_KEYS.indexedDB];

export type ClearOn = 'lock' | 'logout';

export type StateItem =
  | { where: 'localStorage'; key: LocalStorageKey; clearOn: ClearOn }
  | { where: 'indexedDB'; store: StoreName; clearOn: ClearOn; sealed: boolean }
  | { where: 'memory'; clearOn: ClearOn };

/**
 * What is kept, where, and when it goes. Nothing is cleared only on lock from localStorage or IndexedDB: those
 * hold ciphertext (or the bearer token of a live session), and the lock's job is to drop the key that reads it.
 */
export const STATE_ITEMS = {
  guid: { where: 'localStorage', key: STATE_KEYS.localStorage.guid, clearOn: 'logout' },
  user: { where: 'localStorage', key: STATE_KEYS.localStorage.user, clearOn: 'logout' },
  docId: { where: 'localStorage', key: STATE_KEYS.localStorage.docId, clearOn: 'logout' },
  list: { where: 'indexedDB', store: STATE_KEYS.indexedDB.list, clearOn: 'logout', sealed: true },
  documents: { where: 'indexedDB', store: STATE_KEYS.indexedDB.documents, clearOn: 'logout', sealed: false },
  pdfs: { where: 'indexedDB', store: STATE_KEYS.indexedDB.pdfs, clearOn: 'logout', sealed: true },
  queue: { where: 'indexedDB', store: STATE_KEYS.indexedDB.queue, clearOn: 'logout', sealed: false },
  meta: { where: 'indexedDB', store: STATE_KEYS.indexedDB.meta, clearOn: 'logout', sealed: false },
  /** The session's data key, imported non-extractable: only while unlocked. */
  dataKey: { where: 'memory', clearOn: 'lock' },
  /**
   * The data key wrapped under the PIN, for the lock screen offline: in memory only, never on disk, so the
   * tablet's files let no one test a PIN guess. Dropped at five wrong PINs, a reload and every way out.
   */
  pinWrap: { where: 'memory', clearOn: 'logout' },
  /** The document list on screen (mail/documentStore.ts): hidden by the lock. */
  documentList: { where: 'memory', clearOn: 'lock' },
} as const satisfies Record<string, StateItem>;

export type StateItemName = keyof typeof STATE_ITEMS;

/** The names of the items kept in memory: each needs a clear function in browserState.ts. */
export type MemoryItemName = {
  [Name in StateItemName]: (typeof STATE_ITEMS)[Name]['where'] extends 'memory' ? Name : never;
}[StateItemName];
