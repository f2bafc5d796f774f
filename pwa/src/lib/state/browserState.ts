/**
 * The one owner of the PWA's browser state: the localStorage session (lib/storage.ts), the offender's
 * offline cache in IndexedDB (database.ts), encrypted at rest (crypto.ts), and what is held in memory (the data
 * key, the document list of mail/documentStore.ts). Every item is declared in keys.ts with when it is cleared.
 *
 * - lock(): the data key and the list leave memory; the cache stays, as ciphertext, for the PIN to reopen.
 * - The data key wrapped under the PIN (the offline lock screen's only way in) is kept in this window's memory and
 *   never written anywhere: whatever is on the tablet's disk lets no one test a guess of the PIN. A reload, or five
 *   wrong PINs, drops it, and the lock screen then needs the network (the server's throttle checks the PIN).
 * - clearSession(): every way out (Log Off, /logout, a 401, a sign-in by someone else, the idle
 *   limit) calls it and awaits it before the next screen renders: memory and the localStorage keys are cleared at
 *   once (before its first await, so nothing of the session is readable from the moment it is called), the other
 *   windows are told (sessionChannel.ts, through storage.clearAll()), then the database is deleted.
 *
 * Nothing throws: IndexedDB can be missing (private modes), full, or closed under us; every function returns
 * what failed as a value, so a screen can still decide what to show.
 */
import type { OfflineKey, OfflineReadEvent } from '../../../../contract/shapes/offline.ts';
import { type DocumentRecord, type DocumentStore, documentStore } from '../../mail/documentStore.ts';
import { type SessionStorage, storage } from '../storage.ts';
import {
  dataKeyBytes,
  importDataKey,
  PIN_ITERATIONS,
  seal,
  unseal,
  unwrapDataKey,
  wrapDataKey,
  type WrappedKey,
} from './crypto.ts';
import {
  type CachedDocument,
  deleteOfflineDatabase,
  type OfflineDatabase,
  openOfflineDatabase,
  type SessionMeta,
} from './database.ts';
import { type MemoryItemName, OFFLINE_DATABASE, SINGLE_RECORD_ID, STATE_ITEMS, STATE_KEYS } from './keys.ts';

/** Wrong PINs on the lock screen before the tablet wipes. */
export const MAX_PIN_ATTEMPTS = 5;

/** The idle clock is written to IndexedDB at most this often (every tap would be a write). */
export const ACTIVITY_WRITE_MS = 15_000;

const MB = 1024 * 1024;
const STORES = STATE_KEYS.indexedDB;

export type StateFailure =
  /** No data key in memory: the tablet is locked (or no session has given one). */
  | 'locked'
  /** IndexedDB is missing, refused, or failed. */
  | 'unavailable'
  /** The browser's storage quota is full. */
  | 'quota'
  /** Nothing is stored under that id. */
  | 'missing'
  /** Stored, but it does not decrypt: another key, or a record altered or moved. */
  | 'unreadable'
  /** A document larger than the whole storage budget. */
  | 'too-large'
  /** OfflineKey.key is not 32 bytes of base64url. */
  | 'invalid-key';

export type Result<T = null> = { ok: true; value: T } | { ok: false; reason: StateFailure };

/** What clearSession() could not remove ('localStorage:guid', 'indexedDB:legal-mail-offline (blocked)'). */
export type ClearResult = { ok: true } | { ok: false; failed: string[] };

export type UnlockResult =
  | { ok: true }
  | { ok: false; reason: 'wrong-pin'; attemptsLeft: number }
  /**
   * The fifth wrong PIN: the PIN can no longer unlock this tablet offline (the wrapped key left memory). Nothing
   * else goes: the session, its cache and its queued readings wait, locked, for the PIN given online.
   */
  | { ok: false; reason: 'too-many-pins' }
  /** The idle limit or the session's end: everything was deleted (see `cleared`). */
  | { ok: false; reason: 'wiped'; cleared: ClearResult }
  /** Nothing to unlock offline (no PIN given in this session): signing in needs the network. */
  | { ok: false; reason: 'no-key' }
  | { ok: false; reason: StateFailure };

/** What the client's clock says of the session: nothing stored, in use, due to lock, due to wipe. */
export type ClockVerdict = 'none' | 'active' | 'lock' | 'wipe';

/** The session's limits and clock as the screens need them (no key material). */
export interface SessionInfo extends Omit<OfflineKey, 'key'> {
  lastActivityAt: number;
  failedPins: number;
  /** True when the PIN can unlock offline (this window holds the wrapped key). */
  canUnlockOffline: boolean;
  /** The lock screen is up (kept across reloads). */
  locked: boolean;
}

export interface SavedList {
  documents: DocumentRecord[];
  /** ms since the epoch. */
  savedAt: number;
}

export interface BrowserStateOptions {
  storage: SessionStorage;
  documents: DocumentStore;
  /** The IndexedDB factory, or null where there is none (read at each call). */
  indexedDB: () => IDBFactory | null;
  now?: () => number;
  databaseName?: string;
  /** PBKDF2 iterations of the in-memory wrap (tests lower it). */
  pinIterations?: number;
  /** How long clearSession waits for another window to let go of the database before saying so. */
  deleteTimeoutMs?: number;
}

class StateError extends Error {
  constructor(readonly reason: StateFailure) {
    super(reason);
  }
}

function failureOf(error: unknown): StateFailure {
  if (error instanceof StateError) return error.reason;
  if (error instanceof DOMException && error.name === 'QuotaExceededError') return 'quota';
  return 'unavailable';
}

async function attempt<T>(work: () => Promise<T>): Promise<Result<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    return { ok: false, reason: failureOf(error) };
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** What versions before the wrapped key left the disk kept in `meta`; dropped when read. */
interface LegacyWrap {
  wrappedKey?: unknown;
  wrapIv?: unknown;
  salt?: unknown;
  iterations?: unknown;
}

export type BrowserState = ReturnType<typeof createBrowserState>;

export function createBrowserState(options: BrowserStateOptions) {
  const now = options.now ?? Date.now;
  const name = options.databaseName ?? OFFLINE_DATABASE;
  const iterations = options.pinIterations ?? PIN_ITERATIONS;
  const deleteTimeoutMs = options.deleteTimeoutMs ?? 3000;

  let dataKey: CryptoKey | null = null;
  /** The data key wrapped under the PIN, and whose: in memory only (see the file's comment). */
  let pinWrap: (WrappedKey & { userId: string }) | null = null;
  let connection: Promise<OfflineDatabase> | null = null;
  /** Raised by every wipe: an open started before it is closed on arrival instead of used. */
  let generation = 0;
  let lastActivity = 0;
  let lastActivityWritten = 0;
  /** Unlock attempts run one at a time, so two quick tries cannot both read the same count of wrong PINs. */
  let pinQueue: Promise<unknown> = Promise.resolve();

  /** How each memory item of keys.ts is cleared (the type makes a new memory item need its line here). */
  const clearMemory: Record<MemoryItemName, () => void> = {
    dataKey: () => {
      dataKey = null;
    },
    pinWrap: () => {
      pinWrap = null;
    },
    documentList: () => options.documents.clear(),
  };

  function factory(): IDBFactory {
    let found: IDBFactory | null = null;
    try {
      found = options.indexedDB();
    } catch {
      found = null;
    }
    if (!found) throw new StateError('unavailable');
    return found;
  }

  /**
   * The open database for an operation that began in generation `at`. An operation that began before a wipe
   * (a PDF sealed under the previous person's key) is refused instead of bringing the database back.
   */
  function database(at: number): Promise<OfflineDatabase> {
    if (at !== generation) return Promise.reject(new StateError('locked'));
    if (connection) return connection;
    const opening = openOfflineDatabase(factory(), name, {
      onBlocking: () => void closeConnection(),
      onTerminated: () => {
        if (connection === opening) connection = null;
      },
    }).then((db) => {
      if (at !== generation) {
        db.close();
        throw new StateError('unavailable');
      }
      return db;
    });
    connection = opening;
    opening.catch(() => {
      if (connection === opening) connection = null;
    });
    return opening;
  }

  /** The database when it exists, null when it does not: reading never creates it. */
  async function existingDatabase(at = generation): Promise<OfflineDatabase | null> {
    if (at !== generation) throw new StateError('locked');
    if (connection) return connection;
    const idb = factory();
    if (typeof idb.databases === 'function') {
      const known = await idb.databases();
      if (!known.some((entry) => entry.name === name)) return null;
    }
    return database(at);
  }

  async function closeConnection(): Promise<void> {
    const open = connection;
    connection = null;
    if (!open) return;
    try {
      (await open).close();
    } catch {
      // It never opened: nothing to close.
    }
  }

  function requireKey(): CryptoKey {
    if (!dataKey) throw new StateError('locked');
    return dataKey;
  }

  async function readMeta(): Promise<SessionMeta | null> {
    const db = await existingDatabase();
    const stored = db ? await db.get(STORES.meta, SINGLE_RECORD_ID) : undefined;
    if (!stored) return null;
    // A record from a version that kept the wrapped key on disk: never carried into the next write.
    const { wrappedKey: _w, wrapIv: _i, salt: _s, iterations: _n, ...meta } = stored as
      & SessionMeta
      & LegacyWrap;
    return meta;
  }

  /** The wrapped key this window holds for `userId`, if any. */
  function wrapFor(userId: string): WrappedKey | null {
    return pinWrap && pinWrap.userId === userId ? pinWrap : null;
  }

  function dropMemory(clearOn: 'lock' | 'logout'): void {
    for (const [item, declared] of Object.entries(STATE_ITEMS)) {
      if (declared.where !== 'memory') continue;
      if (clearOn === 'lock' && declared.clearOn !== 'lock') continue;
      clearMemory[item as MemoryItemName]();
    }
  }

  /** Memory, then the database: the cache of whoever used the tablet, gone. The localStorage session stays. */
  async function wipeCache(): Promise<ClearResult> {
    generation++;
    dropMemory('logout');
    lastActivity = 0;
    lastActivityWritten = 0;
    await closeConnection();
    let idb: IDBFactory;
    try {
      idb = factory();
    } catch {
      // No IndexedDB here: nothing was ever stored in it.
      return { ok: true };
    }
    const outcome = await deleteOfflineDatabase(idb, name, deleteTimeoutMs);
    return outcome === 'deleted' ? { ok: true } : { ok: false, failed: [`indexedDB:${name} (${outcome})`] };
  }

  /** Everything of the session: memory and the localStorage keys at once, the other windows told, the database. */
  function clearSession(): Promise<ClearResult> {
    dropMemory('logout');
    const local = options.storage.clearAll();
    const failed = local.ok ? [] : local.failed.map((key) => `localStorage:${key}`);
    const stored = options.storage.settled?.() ?? Promise.resolve();
    return Promise.all([wipeCache(), stored]).then(([cache]) => {
      const all = [...failed, ...(cache.ok ? [] : cache.failed)];
      return all.length ? { ok: false, failed: all } : { ok: true };
    });
  }

  /** A different owner's cache (or one that cannot be read) goes before this user's is written. */
  async function wipeIfNotOwnedBy(userId: string): Promise<ClearResult & { wiped: boolean }> {
    const meta = await attempt(readMeta);
    if (meta.ok && (meta.value === null || meta.value.userId === userId)) return { ok: true, wiped: false };
    return { ...(await wipeCache()), wiped: true };
  }

  async function putMeta(meta: SessionMeta, at = generation): Promise<void> {
    await (await database(at)).put(STORES.meta, meta);
  }

  function limitsOf(offlineKey: OfflineKey) {
    return {
      userId: offlineKey.userId,
      expiresAt: offlineKey.expiresAt,
      lockMinutes: offlineKey.lockMinutes,
      idleMinutes: offlineKey.idleMinutes,
      prefetchCount: offlineKey.prefetchCount,
      storageBudgetMb: offlineKey.storageBudgetMb,
    };
  }

  function verdictOf(meta: SessionMeta, at: number): ClockVerdict {
    const last = Math.max(meta.lastActivityAt, lastActivity);
    const expires = Date.parse(meta.expiresAt);
    if (Number.isFinite(expires) && at >= expires) return 'wipe';
    if (at - last >= meta.idleMinutes * 60_000) return 'wipe';
    if (at - last >= meta.lockMinutes * 60_000) return 'lock';
    return 'active';
  }

  /** What the client's clock says now, without acting on it. */
  function checkClock(): Promise<Result<ClockVerdict>> {
    return attempt(async () => {
      const meta = await readMeta();
      return meta ? verdictOf(meta, now()) : 'none';
    });
  }

  /**
   * One wrong PIN counted (offline by the unwrap, online by the server's 403). The fifth drops the wrapped key
   * from memory, so no more guesses can be tested on the tablet; it wipes nothing, since the PINs may be anyone's:
   * the owner's session, cache and queued readings wait for the PIN given online, which the server throttles.
   */
  async function countWrongPin(): Promise<UnlockResult> {
    const meta = await attempt(readMeta);
    const failed = (meta.ok && meta.value ? meta.value.failedPins : 0) + 1;
    let kept = false;
    if (meta.ok && meta.value) {
      kept = (await attempt(() => putMeta({ ...meta.value!, failedPins: failed }))).ok;
    }
    // A count that cannot be kept cannot protect: treated as the last try.
    if (failed >= MAX_PIN_ATTEMPTS || !kept) {
      pinWrap = null;
      return { ok: false, reason: 'too-many-pins' };
    }
    return { ok: false, reason: 'wrong-pin', attemptsLeft: MAX_PIN_ATTEMPTS - failed };
  }

  function serialized<T>(work: () => Promise<T>): Promise<T> {
    const run = pinQueue.then(work, work);
    pinQueue = run.catch(() => undefined);
    return run;
  }

  async function sealedRead(
    store: 'list' | 'pdfs',
    id: string,
    at: number,
  ): Promise<Uint8Array<ArrayBuffer>> {
    const key = requireKey();
    const db = await existingDatabase(at);
    const record = db ? await db.get(store, id) : undefined;
    if (!record) throw new StateError('missing');
    const plain = await unseal(key, store, record);
    if (!plain) throw new StateError('unreadable');
    return plain;
  }

  return {
    /** True while the data key is in memory. */
    isUnlocked: (): boolean => dataKey !== null,

    /**
     * Before a sign-in's session is stored (Login): memory is cleared, and when the tablet holds someone else's
     * session or cache, all of it is wiped first (clearSession), so nothing of theirs outlives the new sign-in.
     */
    async beginSession(userId: string): Promise<ClearResult & { wiped: boolean }> {
      dropMemory('logout');
      const stored = options.storage.readUser();
      const meta = await attempt(readMeta);
      const otherLocal = stored.ok && stored.user.id !== userId;
      const otherCache = !meta.ok || (meta.value !== null && meta.value.userId !== userId);
      if (!otherLocal && !otherCache) return { ok: true, wiped: false };
      return { ...(await clearSession()), wiped: true };
    },

    /**
     * After an online sign-in or unlock: the key goes into memory (non-extractable) and is stored wrapped under
     * the PIN with a fresh salt, with the session's limits; the count of wrong PINs starts again. Another user's
     * cache is wiped first.
     */
    async rememberKey(offlineKey: OfflineKey, pin: string): Promise<Result> {
      const raw = dataKeyBytes(offlineKey.key);
      if (!raw) return { ok: false, reason: 'invalid-key' };
      await wipeIfNotOwnedBy(offlineKey.userId);
      const at = generation;
      return attempt(async () => {
        const key = await importDataKey(raw);
        const wrap = await wrapDataKey(raw, pin, offlineKey.userId, iterations);
        raw.fill(0);
        if (at !== generation) throw new StateError('locked');
        dataKey = key;
        pinWrap = { ...wrap, userId: offlineKey.userId };
        lastActivity = now();
        await putMeta({
          id: SINGLE_RECORD_ID,
          ...limitsOf(offlineKey),
          lastActivityAt: lastActivity,
          failedPins: 0,
        }, at);
        lastActivityWritten = lastActivity;
        return null;
      });
    },

    /**
     * Online, the server hands the key back to a live session (GET /api/auth/offline-key): into memory, and
     * the limits refreshed; a stored wrap is kept (no PIN here to make a new one).
     */
    async acceptKey(offlineKey: OfflineKey): Promise<Result> {
      const raw = dataKeyBytes(offlineKey.key);
      if (!raw) return { ok: false, reason: 'invalid-key' };
      await wipeIfNotOwnedBy(offlineKey.userId);
      const at = generation;
      return attempt(async () => {
        const key = await importDataKey(raw);
        raw.fill(0);
        if (at !== generation) throw new StateError('locked');
        dataKey = key;
        lastActivity = now();
        const meta = await readMeta();
        await putMeta({
          id: SINGLE_RECORD_ID,
          failedPins: 0,
          ...meta,
          ...limitsOf(offlineKey),
          lastActivityAt: lastActivity,
        }, at);
        lastActivityWritten = lastActivity;
        return null;
      });
    },

    /**
     * The lock screen, offline: the PIN unwraps the stored key (a wrong one fails the GCM check and is counted;
     * the fifth ends offline unlocking). A session past its idle limit or its end is wiped instead of unlocked.
     */
    unlockWithPin(pin: string): Promise<UnlockResult> {
      return serialized(async () => {
        const meta = await attempt(readMeta);
        if (!meta.ok) return meta;
        if (!meta.value) return { ok: false, reason: 'no-key' };
        if (verdictOf(meta.value, now()) === 'wipe') {
          return { ok: false, reason: 'wiped', cleared: await clearSession() };
        }
        const wrap = wrapFor(meta.value.userId);
        if (!wrap) return { ok: false, reason: 'no-key' };
        const key = await unwrapDataKey(wrap, pin, meta.value.userId);
        if (!key) return countWrongPin();
        dataKey = key;
        lastActivity = now();
        const saved = await attempt(() =>
          putMeta({ ...meta.value!, failedPins: 0, lastActivityAt: lastActivity, locked: false })
        );
        if (saved.ok) lastActivityWritten = lastActivity;
        return { ok: true };
      });
    },

    /**
     * The lock screen, online, when the server answered 403 to the PIN: counted like an offline miss (the server
     * keeps its own count, and answers its growing waits itself).
     */
    wrongPinOnline(): Promise<UnlockResult> {
      return serialized(countWrongPin);
    },

    /**
     * The tablet locks: the key and the list leave memory (declared clearOn 'lock') at once; the cache stays
     * sealed, and the lock is written down so that a reload asks for the PIN again.
     */
    lock(): Promise<Result> {
      dropMemory('lock');
      return attempt(async () => {
        const meta = await readMeta();
        if (meta && !meta.locked) await putMeta({ ...meta, locked: true });
        return null;
      });
    },

    clearSession,

    /**
     * Another window ended the session (sessionChannel.ts): drop this window's memory and its database
     * connection, so the window that ended it can delete the database. It does not announce in turn.
     */
    forgetSession(): Promise<void> {
      generation++;
      dropMemory('logout');
      return closeConnection();
    },

    /** The session's limits and clock, null when none is stored. */
    session(): Promise<Result<SessionInfo | null>> {
      return attempt(async () => {
        const meta = await readMeta();
        if (!meta) return null;
        const { id: _id, ...info } = meta;
        return {
          ...info,
          lastActivityAt: Math.max(info.lastActivityAt, lastActivity),
          canUnlockOffline: wrapFor(meta.userId) !== null,
          locked: info.locked === true,
        };
      });
    },

    /** An interaction: the idle clock restarts (kept in IndexedDB at most every ACTIVITY_WRITE_MS). */
    recordActivity(): Promise<Result> {
      lastActivity = now();
      if (lastActivity - lastActivityWritten < ACTIVITY_WRITE_MS) {
        return Promise.resolve({ ok: true, value: null });
      }
      return attempt(async () => {
        const meta = await readMeta();
        if (!meta) return null;
        await putMeta({ ...meta, lastActivityAt: lastActivity });
        lastActivityWritten = lastActivity;
        return null;
      });
    },

    checkClock,

    /** Acts on the clock, offline too: past the lock time, lock(); past the idle limit or the end, clearSession(). */
    async enforceClock(): Promise<Result<ClockVerdict>> {
      const verdict = await checkClock();
      if (!verdict.ok) return verdict;
      if (verdict.value === 'lock') {
        dropMemory('lock');
        const meta = await attempt(readMeta);
        if (meta.ok && meta.value && !meta.value.locked) {
          await attempt(() => putMeta({ ...meta.value!, locked: true }));
        }
      }
      if (verdict.value === 'wipe') await clearSession();
      return verdict;
    },

    /** Stores the offender's list, sealed, with when it was saved. */
    saveList(documents: readonly DocumentRecord[], savedAt = now()): Promise<Result> {
      const at = generation;
      return attempt(async () => {
        const key = requireKey();
        const plain = encoder.encode(JSON.stringify({ documents, savedAt }));
        const record = await seal(key, STORES.list, SINGLE_RECORD_ID, plain);
        await (await database(at)).put(STORES.list, record);
        return null;
      });
    },

    /** The stored list, null when none was saved. */
    loadList(): Promise<Result<SavedList | null>> {
      const at = generation;
      return attempt(async () => {
        try {
          const plain = await sealedRead(STORES.list, SINGLE_RECORD_ID, at);
          const parsed = JSON.parse(decoder.decode(plain)) as SavedList;
          return { documents: parsed.documents, savedAt: parsed.savedAt };
        } catch (error) {
          if (error instanceof StateError && error.reason === 'missing') return null;
          if (error instanceof SyntaxError) throw new StateError('unreadable');
          throw error;
        }
      });
    },

    /**
     * Stores a PDF's bytes, sealed, evicting the least recently read ones until the cache fits the session's
     * storage budget. `read` says whether this is a reading (the viewer) or a prefetch (no read time).
     */
    putDocument(
      id: string,
      bytes: Uint8Array<ArrayBuffer>,
      read = false,
    ): Promise<Result<{ evicted: string[] }>> {
      const at = generation;
      return attempt(async () => {
        const key = requireKey();
        const meta = await readMeta();
        if (!meta) throw new StateError('locked');
        const budget = meta.storageBudgetMb * MB;
        const record = await seal(key, STORES.pdfs, id, bytes);
        const size = record.data.byteLength + record.iv.byteLength;
        if (size > budget) throw new StateError('too-large');
        const savedAt = now();
        const db = await database(at);
        const tx = db.transaction([STORES.documents, STORES.pdfs], 'readwrite');
        const entries = (await tx.objectStore(STORES.documents).index('byLastUsed').getAll())
          .filter((entry) => entry.id !== id);
        let total = entries.reduce((sum, entry) => sum + entry.size, 0);
        const evicted: string[] = [];
        for (const entry of entries) {
          if (total + size <= budget) break;
          await tx.objectStore(STORES.documents).delete(entry.id);
          await tx.objectStore(STORES.pdfs).delete(entry.id);
          total -= entry.size;
          evicted.push(entry.id);
        }
        const previous = await tx.objectStore(STORES.documents).get(id);
        const lastReadAt = read ? savedAt : previous?.lastReadAt ?? null;
        await tx.objectStore(STORES.pdfs).put(record);
        await tx.objectStore(STORES.documents).put({
          id,
          size,
          savedAt,
          lastReadAt,
          lastUsedAt: lastReadAt ?? savedAt,
        });
        await tx.done;
        return { evicted };
      });
    },

    /** A cached PDF's bytes; `read` (the default) marks it read now for eviction. */
    getDocument(id: string, read = true): Promise<Result<Uint8Array<ArrayBuffer>>> {
      const at = generation;
      return attempt(async () => {
        const bytes = await sealedRead(STORES.pdfs, id, at);
        if (read) {
          const db = await database(at);
          const entry = await db.get(STORES.documents, id);
          const readAt = now();
          if (entry) await db.put(STORES.documents, { ...entry, lastReadAt: readAt, lastUsedAt: readAt });
        }
        return bytes;
      });
    },

    /** What is cached (ids, sizes, times; no content), least recently read first. */
    cachedDocuments(): Promise<Result<CachedDocument[]>> {
      return attempt(async () => {
        const db = await existingDatabase();
        return db ? await db.getAllFromIndex(STORES.documents, 'byLastUsed') : [];
      });
    },

    evictDocument(id: string): Promise<Result> {
      return attempt(async () => {
        const db = await existingDatabase();
        if (!db) return null;
        const tx = db.transaction([STORES.documents, STORES.pdfs], 'readwrite');
        await Promise.all([
          tx.objectStore(STORES.documents).delete(id),
          tx.objectStore(STORES.pdfs).delete(id),
          tx.done,
        ]);
        return null;
      });
    },

    /**
     * Queues a reading done offline, until the API has it (the same id sent twice counts once there). Only
     * while unlocked: a reading needs the key, and a window the session ended under must not recreate the cache.
     */
    queueEvent(event: OfflineReadEvent): Promise<Result> {
      const at = generation;
      return attempt(async () => {
        requireKey();
        await (await database(at)).put(STORES.queue, { ...event, queuedAt: now() });
        return null;
      });
    },

    /** The queued events, oldest first. */
    queuedEvents(): Promise<Result<OfflineReadEvent[]>> {
      return attempt(async () => {
        const db = await existingDatabase();
        const queued = db ? await db.getAllFromIndex(STORES.queue, 'byQueuedAt') : [];
        return queued.map(({ id, documentId, kind, occurredAt }) => ({ id, documentId, kind, occurredAt }));
      });
    },

    /** Drops events the API recorded or refused for good. */
    removeEvents(ids: readonly string[]): Promise<Result> {
      return attempt(async () => {
        const db = await existingDatabase();
        if (!db) return null;
        const tx = db.transaction(STORES.queue, 'readwrite');
        await Promise.all([...ids.map((id) => tx.store.delete(id)), tx.done]);
        return null;
      });
    },
  };
}

/** The browser's IndexedDB, or null where touching it throws or it is missing. */
function browserIndexedDB(): IDBFactory | null {
  try {
    return typeof indexedDB === 'undefined' ? null : indexedDB;
  } catch {
    return null;
  }
}

/** The app's browser state: localStorage, this origin's IndexedDB, the document list in memory. */
export const browserState: BrowserState = createBrowserState({
  storage,
  documents: documentStore,
  indexedDB: browserIndexedDB,
});

/**
 * Ends the session in this browser; every way out calls it and awaits it before rendering the next screen
 * (memory and localStorage are already clear when it returns its promise; the database when it settles).
 */
export function clearSession(): Promise<ClearResult> {
  return browserState.clearSession();
}
