/**
 * The offline cache's IndexedDB database: its schema, its versions and the upgrade between them. Opened
 * through `idb` over an injected IDBFactory (the browser's, or fake-indexeddb's in tests).
 */
import { type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames, wrap } from 'idb';
import type { OfflineReadEvent } from '../../../../contract/shapes/offline.ts';
import type { SealedRecord } from './crypto.ts';
import { OFFLINE_DATABASE_VERSION, STATE_KEYS } from './keys.ts';

/** What the tablet keeps of one cached PDF beside its sealed bytes: enough to evict, nothing of its content. */
export interface CachedDocument {
  id: string;
  /** Bytes of the sealed record (what counts against the storage budget). */
  size: number;
  /** ms since the epoch: when it was fetched. */
  savedAt: number;
  /** ms since the epoch: when it was last opened, null for a prefetched document not read yet. */
  lastReadAt: number | null;
  /** lastReadAt, or savedAt until it is read: the least recent goes first. */
  lastUsedAt: number;
}

/**
 * The session as the tablet keeps it: no content, no DOC number and nothing of the data key (the key wrapped
 * under the PIN stays in the main window's memory, browserState.ts), so nothing here tests a guess of the PIN.
 */
export interface SessionMeta {
  id: string;
  userId: string;
  /** ISO 8601: the session's absolute end (OfflineKey.expiresAt). */
  expiresAt: string;
  lockMinutes: number;
  idleMinutes: number;
  prefetchCount: number;
  storageBudgetMb: number;
  /** ms since the epoch: the last interaction, the client's idle clock (enforced offline too). */
  lastActivityAt: number;
  /** Wrong PINs on the lock screen since the last right one; the fifth ends offline unlocking. */
  failedPins: number;
  /**
   * The lock screen is up: kept here so that a reload, online too, asks for the PIN again instead of taking the
   * key back from the server without it. Absent in records written before it existed: unlocked.
   */
  locked?: boolean;
}

export interface QueuedEvent extends OfflineReadEvent {
  /** ms since the epoch, when it was queued (sent in this order). */
  queuedAt: number;
}

export interface OfflineSchema extends DBSchema {
  list: { key: string; value: SealedRecord };
  documents: { key: string; value: CachedDocument; indexes: { byLastUsed: number } };
  pdfs: { key: string; value: SealedRecord };
  queue: { key: string; value: QueuedEvent; indexes: { byQueuedAt: number } };
  meta: { key: string; value: SessionMeta };
}

export type OfflineDatabase = IDBPDatabase<OfflineSchema>;

type UpgradeTransaction = IDBPTransaction<OfflineSchema, StoreNames<OfflineSchema>[], 'versionchange'>;

/**
 * Walks the database from `oldVersion` to OFFLINE_DATABASE_VERSION, one step per version. A later version adds
 * `if (oldVersion < 2) { ... }` below; it never edits a step that has shipped.
 */
export function upgrade(db: OfflineDatabase, oldVersion: number, _transaction: UpgradeTransaction): void {
  if (oldVersion < 1) {
    const stores = STATE_KEYS.indexedDB;
    db.createObjectStore(stores.list, { keyPath: 'id' });
    db.createObjectStore(stores.documents, { keyPath: 'id' }).createIndex('byLastUsed', 'lastUsedAt');
    db.createObjectStore(stores.pdfs, { keyPath: 'id' });
    db.createObjectStore(stores.queue, { keyPath: 'id' }).createIndex('byQueuedAt', 'queuedAt');
    db.createObjectStore(stores.meta, { keyPath: 'id' });
  }
}

export interface OpenHandlers {
  /** Another window wants the database deleted or upgraded: close this connection so it can. */
  onBlocking(): void;
  /** The browser closed the connection (storage cleared under it). */
  onTerminated(): void;
}

/** Opens (creating or upgrading) the database on `factory`. */
export function openOfflineDatabase(
  factory: IDBFactory,
  name: string,
  handlers: OpenHandlers,
): Promise<OfflineDatabase> {
  const request = factory.open(name, OFFLINE_DATABASE_VERSION);
  request.addEventListener('upgradeneeded', (event) => {
    upgrade(
      wrap(request.result) as OfflineDatabase,
      event.oldVersion,
      wrap(request.transaction!) as unknown as UpgradeTransaction,
    );
  });
  return (wrap(request) as unknown as Promise<OfflineDatabase>).then((db) => {
    db.addEventListener('versionchange', () => handlers.onBlocking());
    db.addEventListener('close', () => handlers.onTerminated());
    return db;
  });
}

export type DeleteOutcome = 'deleted' | 'blocked' | 'failed';

/**
 * Deletes the database and waits for it. `blocked` means another window still holds a connection after
 * `timeoutMs` (its `versionchange` handler should have closed it): the request stays queued in the browser and
 * completes when that window lets go, before any later open, but the caller is told.
 */
export function deleteOfflineDatabase(
  factory: IDBFactory,
  name: string,
  timeoutMs: number,
): Promise<DeleteOutcome> {
  return new Promise((resolve) => {
    let blockedTimer: ReturnType<typeof setTimeout> | undefined;
    let request: IDBOpenDBRequest;
    try {
      request = factory.deleteDatabase(name);
    } catch {
      resolve('failed');
      return;
    }
    request.onsuccess = () => {
      clearTimeout(blockedTimer);
      resolve('deleted');
    };
    request.onerror = () => {
      clearTimeout(blockedTimer);
      resolve('failed');
    };
    request.onblocked = () => {
      blockedTimer ??= setTimeout(() => resolve('blocked'), timeoutMs);
    };
  });
}
