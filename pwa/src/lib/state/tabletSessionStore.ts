/**
 * Where an offender's session lives on the shared tablet: the token, the user and the DOC number, under the
 * spec's key names (guid, user, docId), in this window's memory and in one IndexedDB record padded past
 * SEALED_MIN_BYTES. Chromium keeps a removed localStorage value in its LevelDB log until a compaction that may
 * never come, so a token or a DOC number written there is read back from a copy of the tablet's disk long after
 * Log Off; a value this large is written to a blob file of its own, unlinked when the record or its database is
 * deleted. A reload and the viewer pop-ups read the record back (load()); every way out deletes the database.
 * Staff sessions stay in localStorage (storage.ts): their computers are not passed from one person to the next.
 */
import type { StorageBackend } from '../storage.ts';
import { randomBytes, SEALED_MIN_BYTES } from './crypto.ts';
import { deleteOfflineDatabase } from './database.ts';

/** The database of the offender's session (its name says nothing of whose). */
export const TABLET_SESSION_DATABASE = 'legal-mail-tablet-session';
const STORE = 'session';
const RECORD_ID = 'current';
const DELETE_TIMEOUT_MS = 3000;

interface SessionRecord {
  id: string;
  entries: [string, string][];
  /** Random bytes that send the whole value to a blob file of its own (crypto.ts, SEALED_MIN_BYTES). */
  pad: Uint8Array<ArrayBuffer>;
}

export interface TabletSessionBackend extends StorageBackend {
  /** Reads the stored session into memory (at start, before the first screen). Never throws. */
  load(): Promise<void>;
  /** Resolves when every write and deletion asked for so far has reached the database. */
  settled(): Promise<void>;
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function open(factory: IDBFactory): Promise<IDBDatabase> {
  const req = factory.open(TABLET_SESSION_DATABASE, 1);
  req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: 'id' });
  return request(req);
}

async function exists(factory: IDBFactory): Promise<boolean> {
  // Opening a database creates it: a tablet with no session must not gain an empty one at every start.
  if (typeof factory.databases !== 'function') return true;
  const all = await factory.databases();
  return all.some((db) => db.name === TABLET_SESSION_DATABASE);
}

async function write(factory: IDBFactory, entries: [string, string][]): Promise<void> {
  const db = await open(factory);
  try {
    const record: SessionRecord = { id: RECORD_ID, entries, pad: randomBytes(SEALED_MIN_BYTES) };
    const tx = db.transaction(STORE, 'readwrite');
    tx.objectStore(STORE).put(record);
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = tx.onabort = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

async function read(factory: IDBFactory): Promise<[string, string][]> {
  if (!(await exists(factory))) return [];
  const db = await open(factory);
  try {
    const record = await request<SessionRecord | undefined>(
      db.transaction(STORE, 'readonly').objectStore(STORE).get(RECORD_ID),
    );
    const entries = Array.isArray(record?.entries) ? record.entries : [];
    return entries.filter((entry): entry is [string, string] =>
      Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'string'
    );
  } finally {
    db.close();
  }
}

/** The backend over `factory` (the browser's IndexedDB, or null where there is none: memory only). */
export function createTabletSessionBackend(factory: () => IDBFactory | null): TabletSessionBackend {
  const values = new Map<string, string>();
  let pending: Promise<void> = Promise.resolve();
  let scheduled = false;

  function idb(): IDBFactory | null {
    try {
      return factory();
    } catch {
      return null;
    }
  }

  /** The changes of one task are written together: a Log Off's three removals are one deletion. */
  function persist(): void {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(() => {
      scheduled = false;
      writeNow();
    });
  }

  /** Writes the whole session (or deletes the database once it is empty), after every earlier write. */
  function writeNow(): void {
    const found = idb();
    if (!found) return;
    const entries = [...values];
    pending = pending
      .then(async () => {
        if (entries.length) await write(found, entries);
        else await deleteOfflineDatabase(found, TABLET_SESSION_DATABASE, DELETE_TIMEOUT_MS);
      })
      .catch(() => {
        // A full or refused IndexedDB: the session still works in this window's memory until a reload.
      });
  }

  return {
    getItem: (key) => values.get(key) ?? null,
    setItem(key, value) {
      values.set(key, value);
      persist();
    },
    removeItem(key) {
      if (!values.delete(key)) return;
      persist();
    },
    async load() {
      const found = idb();
      if (!found) return;
      try {
        for (const [key, value] of await read(found)) values.set(key, value);
      } catch {
        // Unreadable: no session; the next sign-in writes a new record over it.
      }
    },
    async settled() {
      await Promise.resolve(); // lets a change of this task be queued first
      await pending;
    },
  };
}
