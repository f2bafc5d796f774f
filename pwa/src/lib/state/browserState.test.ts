import assert from 'node:assert/strict';
// idb checks values against the global IDB classes: the fake's, in Deno.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import type { OfflineKey } from '../../../../contract/shapes/offline.ts';
import { createDocumentStore } from '../../mail/documentStore.ts';
import { createSessionStorage, STORAGE_KEYS, type StorageBackend } from '../storage.ts';
import { createBrowserState, MAX_PIN_ATTEMPTS } from './browserState.ts';
import { OFFLINE_DATABASE, STATE_ITEMS, STATE_KEYS } from './keys.ts';

const PIN = '482913';
const TITLE = 'Parole Board Decision for Jonathan Example';
const MARKER = 'MARKER-7f3a-PRIVILEGED-DRAWN-IN-PDF';

class MemoryStorage implements StorageBackend {
  readonly items = new Map<string, string>();
  failRemoval = false;
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  removeItem(key: string) {
    if (this.failRemoval) throw new DOMException('denied', 'SecurityError');
    this.items.delete(key);
  }
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function offlineKey(userId = 'user-1', overrides: Partial<OfflineKey> = {}): OfflineKey {
  return {
    key: base64url(crypto.getRandomValues(new Uint8Array(32))),
    userId,
    expiresAt: new Date(Date.UTC(2030, 0, 1)).toISOString(),
    lockMinutes: 5,
    idleMinutes: 30,
    prefetchCount: 10,
    storageBudgetMb: 1,
    ...overrides,
  };
}

/** A fake PDF: the marker drawn in it, padded to `size` bytes. */
function pdf(size = 2000): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  bytes.set(new TextEncoder().encode(`%PDF-1.7\nBT (${MARKER}) Tj ET\n`));
  return bytes;
}

/** One tablet: an IndexedDB, a localStorage, a clock; `open()` is a window of the app on it. */
function tablet() {
  const idb = new IDBFactory();
  const local = new MemoryStorage();
  const clock = { now: Date.UTC(2026, 10, 23, 10, 0) };
  let announced = 0;
  const sessionStorage = createSessionStorage(() => local);
  function open() {
    const documents = createDocumentStore();
    const state = createBrowserState({
      storage: {
        ...sessionStorage,
        clearAll() {
          announced++;
          return sessionStorage.clearAll();
        },
      },
      documents,
      indexedDB: () => idb,
      now: () => clock.now,
      pinIterations: 1000,
      deleteTimeoutMs: 200,
    });
    return { state, documents };
  }
  function signIn(userId = 'user-1') {
    sessionStorage.saveSession({
      token: `token-of-${userId}`,
      docId: 'A123',
      user: { id: userId, role: 'offender', firstName: 'J', lastName: 'E', email: null } as never,
    });
  }
  return { idb, local, clock, open, signIn, announced: () => announced };
}

async function databaseNames(idb: IDBFactory): Promise<string[]> {
  return (await idb.databases()).map((entry) => entry.name ?? '');
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

async function rawDatabase(idb: IDBFactory): Promise<IDBDatabase> {
  return await request(idb.open(OFFLINE_DATABASE));
}

/** Every value of every store, as the text a scan of the disk would see (typed arrays as Latin-1 and UTF-8). */
async function rawDump(idb: IDBFactory): Promise<string> {
  const db = await rawDatabase(idb);
  const parts: string[] = [];
  const flatten = (value: unknown): void => {
    if (value instanceof Uint8Array) {
      parts.push(String.fromCharCode(...value), new TextDecoder().decode(value));
    } else if (value instanceof ArrayBuffer) {
      flatten(new Uint8Array(value));
    } else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        parts.push(key);
        flatten(inner);
      }
    } else {
      parts.push(String(value));
    }
  };
  for (const store of Array.from(db.objectStoreNames)) {
    const values = await request(db.transaction(store).objectStore(store).getAll());
    flatten(values);
  }
  db.close();
  return parts.join('\n');
}

async function readySession(userId = 'user-1', overrides: Partial<OfflineKey> = {}) {
  const device = tablet();
  device.signIn(userId);
  const window = device.open();
  const key = offlineKey(userId, overrides);
  assert.deepEqual(await window.state.rememberKey(key, PIN), { ok: true, value: null });
  return { ...device, ...window, key };
}

Deno.test('the list and a PDF round-trip through the sealed cache', async () => {
  const { state } = await readySession();
  const list = [{ documentid: 'doc-a', title: TITLE }];
  assert.ok((await state.saveList(list, 1234)).ok);
  assert.deepEqual(await state.loadList(), { ok: true, value: { documents: list, savedAt: 1234 } });
  assert.deepEqual(await state.putDocument('doc-a', pdf(), true), { ok: true, value: { evicted: [] } });
  const read = await state.getDocument('doc-a');
  assert.ok(read.ok);
  assert.deepEqual(read.value, pdf());
  assert.deepEqual(await state.getDocument('doc-b'), { ok: false, reason: 'missing' });
});

Deno.test('at rest: no title, no PDF marker and no data key in any stored value', async () => {
  const { state, idb, key } = await readySession();
  await state.saveList([{ documentid: 'doc-a', title: TITLE }]);
  await state.putDocument('doc-a', pdf(), true);
  await state.queueEvent({ id: 'e1', documentId: 'doc-a', kind: 'view', occurredAt: '2026-11-23T10:00:00Z' });
  const dump = await rawDump(idb);
  assert.ok(dump.includes('doc-a'), 'the scan sees the stored records');
  assert.ok(!dump.includes(TITLE), 'title in the clear');
  assert.ok(!dump.includes(MARKER), 'PDF marker in the clear');
  assert.ok(!dump.includes('Parole'), 'part of the title in the clear');
  const rawKey = String.fromCharCode(
    ...Uint8Array.from(atob(key.key.replace(/-/g, '+').replace(/_/g, '/') + '='), (c) => c.charCodeAt(0)),
  );
  assert.ok(!dump.includes(rawKey), 'data key in the clear');
  assert.ok(!dump.includes(key.key), 'data key (base64url) in the clear');
});

Deno.test('locked, or in a new window without the PIN, the cache does not open', async () => {
  const { state, open } = await readySession();
  await state.saveList([{ documentid: 'doc-a', title: TITLE }]);
  await state.putDocument('doc-a', pdf());
  state.lock();
  assert.equal(state.isUnlocked(), false);
  assert.deepEqual(await state.getDocument('doc-a'), { ok: false, reason: 'locked' });
  assert.deepEqual(await state.loadList(), { ok: false, reason: 'locked' });
  const reloaded = open().state;
  assert.deepEqual(await reloaded.getDocument('doc-a'), { ok: false, reason: 'locked' });
  // The wrapped key never left the first window's memory: the reload needs the PIN online.
  assert.deepEqual(await reloaded.unlockWithPin(PIN), { ok: false, reason: 'no-key' });
  assert.deepEqual(await state.unlockWithPin(PIN), { ok: true });
  assert.ok((await state.getDocument('doc-a')).ok);
});

Deno.test('the lock is written down: a reload still shows it until the PIN reopens the cache', async () => {
  const { state, open } = await readySession();
  assert.equal(
    (await state.session()).ok && (await state.session() as { value: { locked: boolean } }).value.locked,
    false,
  );
  assert.deepEqual(await state.lock(), { ok: true, value: null });
  const reloaded = open().state;
  const locked = await reloaded.session();
  assert.ok(locked.ok && locked.value?.locked === true, JSON.stringify(locked));
  assert.equal(locked.ok && locked.value?.canUnlockOffline, false, 'no wrapped key in a new window');
  assert.deepEqual(await state.unlockWithPin(PIN), { ok: true });
  const unlocked = await reloaded.session();
  assert.ok(unlocked.ok && unlocked.value?.locked === false, JSON.stringify(unlocked));
});

Deno.test('a sealed PDF moved to another document id is refused, not shown as that document', async () => {
  const { state, idb } = await readySession();
  await state.putDocument('doc-a', pdf());
  await state.putDocument('doc-b', new Uint8Array(100));
  const db = await rawDatabase(idb);
  const pdfs = STATE_KEYS.indexedDB.pdfs;
  const sealedA = await request(db.transaction(pdfs).objectStore(pdfs).get('doc-a'));
  await request(db.transaction(pdfs, 'readwrite').objectStore(pdfs).put({ ...sealedA, id: 'doc-b' }));
  db.close();
  assert.deepEqual(await state.getDocument('doc-b'), { ok: false, reason: 'unreadable' });
  assert.ok((await state.getDocument('doc-a')).ok);
});

Deno.test('a lock drops the key and the list from memory', async () => {
  const { state, documents } = await readySession();
  documents.replaceAll([{ documentid: 'doc-a', title: TITLE }]);
  state.lock();
  assert.equal(state.isUnlocked(), false);
  assert.deepEqual(documents.list(), []);
  const declaredForLock = Object.entries(STATE_ITEMS).filter(([, item]) => item.clearOn === 'lock');
  assert.deepEqual(declaredForLock.map(([name]) => name).sort(), ['dataKey', 'documentList']);
});

Deno.test('a wrong PIN is counted, a right one resets the count; a reload cannot unlock offline', async () => {
  const { state, open } = await readySession();
  state.lock();
  assert.deepEqual(await state.unlockWithPin('000000'), { ok: false, reason: 'wrong-pin', attemptsLeft: 4 });
  assert.deepEqual(await state.unlockWithPin('111111'), { ok: false, reason: 'wrong-pin', attemptsLeft: 3 });
  // The wrapped key lives in the window that made it, never on disk: another window (a reload) needs the network.
  assert.deepEqual(await open().state.unlockWithPin(PIN), { ok: false, reason: 'no-key' });
  assert.deepEqual(await state.unlockWithPin(PIN), { ok: true });
  state.lock();
  assert.deepEqual(await state.unlockWithPin('000000'), { ok: false, reason: 'wrong-pin', attemptsLeft: 4 });
});

Deno.test("five wrong PINs end offline unlocking but wipe nothing: the owner's cache and readings wait", async () => {
  const { state, idb, local, documents } = await readySession();
  await state.putDocument('doc-a', pdf());
  await state.queueEvent({ id: 'e1', documentId: 'doc-a', kind: 'view', occurredAt: '2026-11-23T10:00:00Z' });
  state.lock();
  documents.replaceAll([{ documentid: 'doc-a' }]);
  for (let i = 1; i < MAX_PIN_ATTEMPTS; i++) {
    const result = await state.unlockWithPin(`00000${i}`);
    assert.equal(result.ok ? 'ok' : result.reason, 'wrong-pin');
  }
  assert.deepEqual(await state.unlockWithPin('999999'), { ok: false, reason: 'too-many-pins' });
  // Even the right PIN no longer opens it offline: nothing on the tablet can test a guess any more.
  assert.deepEqual(await state.unlockWithPin(PIN), { ok: false, reason: 'no-key' });
  const info = await state.session();
  assert.equal(info.ok && info.value?.canUnlockOffline, false);
  assert.deepEqual(await databaseNames(idb), [OFFLINE_DATABASE]);
  assert.ok(local.items.size > 0, 'the session stays');
  const queued = await state.queuedEvents();
  assert.deepEqual(queued.ok && queued.value.map((e) => e.id), ['e1']);
  // The PIN given online brings the key back.
  assert.ok((await state.rememberKey(offlineKey(), PIN)).ok);
  assert.ok(state.isUnlocked());
});

Deno.test('the online lock screen counts a 403 like an offline miss, and never wipes', async () => {
  const { state, idb } = await readySession();
  for (let i = 1; i < MAX_PIN_ATTEMPTS; i++) {
    assert.deepEqual(await state.wrongPinOnline(), {
      ok: false,
      reason: 'wrong-pin',
      attemptsLeft: MAX_PIN_ATTEMPTS - i,
    });
  }
  assert.deepEqual(await state.wrongPinOnline(), { ok: false, reason: 'too-many-pins' });
  assert.deepEqual(await databaseNames(idb), [OFFLINE_DATABASE]);
});

Deno.test('nothing stored tests a guess of the PIN: no wrapped key, IV, salt or count in IndexedDB', async () => {
  const { state, idb } = await readySession();
  await state.saveList([{ documentid: 'doc-a', title: TITLE }]);
  state.lock();
  const db = await rawDatabase(idb);
  const meta = STATE_KEYS.indexedDB.meta;
  const stored = await request(db.transaction(meta).objectStore(meta).getAll());
  db.close();
  assert.equal(stored.length, 1);
  for (const field of ['wrappedKey', 'wrapIv', 'salt', 'iterations']) {
    assert.equal(field in stored[0], false, `${field} is not stored`);
  }
});

Deno.test('clearSession deletes the database and clears memory and every localStorage key, and tells the other windows', async () => {
  const { state, idb, local, documents, open, announced } = await readySession();
  await state.saveList([{ documentid: 'doc-a', title: TITLE }]);
  await state.putDocument('doc-a', pdf());
  await state.queueEvent({
    id: 'e1',
    documentId: 'doc-a',
    kind: 'print',
    occurredAt: '2026-11-23T10:00:00Z',
  });
  documents.replaceAll([{ documentid: 'doc-a' }]);
  // Another window (the viewer pop-up) holds its own connection: its versionchange handler lets go.
  const popup = open().state;
  assert.ok((await popup.cachedDocuments()).ok);
  assert.deepEqual(await databaseNames(idb), [OFFLINE_DATABASE]);

  const pending = state.clearSession();
  // Before the first await settles: memory and localStorage already empty.
  assert.equal(state.isUnlocked(), false);
  assert.deepEqual(documents.list(), []);
  assert.equal(local.items.size, 0);
  assert.deepEqual(await pending, { ok: true });
  assert.deepEqual(await databaseNames(idb), []);
  assert.equal(announced(), 1);
  // Every localStorage item declared in keys.ts is one the clear removes.
  const declared = Object.values(STATE_ITEMS).flatMap((item) =>
    item.where === 'localStorage' ? [item.key] : []
  );
  assert.deepEqual(declared.sort(), Object.values(STORAGE_KEYS).sort());
  // Reading afterwards does not bring the database back.
  assert.deepEqual(await state.cachedDocuments(), { ok: true, value: [] });
  assert.deepEqual(await state.queuedEvents(), { ok: true, value: [] });
  assert.deepEqual(await state.session(), { ok: true, value: null });
  assert.deepEqual(await databaseNames(idb), []);
});

Deno.test('clearSession says so when another window will not let go of the database, and still clears the rest', async () => {
  const { state, idb, local } = await readySession();
  await state.putDocument('doc-a', pdf());
  const stubborn = await rawDatabase(idb);
  stubborn.onversionchange = null;
  local.failRemoval = true;
  const result = await state.clearSession();
  assert.equal(result.ok, false);
  assert.ok(!result.ok);
  assert.deepEqual(result.failed, [
    'localStorage:guid',
    'localStorage:user',
    'localStorage:docId',
    `indexedDB:${OFFLINE_DATABASE} (blocked)`,
  ]);
  assert.equal(state.isUnlocked(), false);
  // The deletion stays queued and completes when the other window closes.
  stubborn.close();
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(await databaseNames(idb), []);
});

Deno.test("a different person's sign-in wipes the previous one's data first; the same person's keeps it", async () => {
  const device = await readySession('user-1');
  await device.state.putDocument('doc-a', pdf());
  const same = await device.state.beginSession('user-1');
  assert.deepEqual(same, { ok: true, wiped: false });
  assert.deepEqual(await databaseNames(device.idb), [OFFLINE_DATABASE]);

  const other = await device.state.beginSession('user-2');
  assert.deepEqual(other, { ok: true, wiped: true });
  assert.deepEqual(await databaseNames(device.idb), []);
  assert.equal(device.local.items.size, 0);
});

Deno.test('an offline key for another user wipes the cache before it is stored', async () => {
  const device = await readySession('user-1');
  await device.state.putDocument('doc-a', pdf());
  assert.ok((await device.state.rememberKey(offlineKey('user-2'), '555555')).ok);
  assert.deepEqual(await device.state.cachedDocuments(), { ok: true, value: [] });
  const session = await device.state.session();
  assert.ok(session.ok && session.value);
  assert.equal(session.value.userId, 'user-2');
});

Deno.test('LRU: the least recently read document goes first to stay within the budget', async () => {
  const { state, clock } = await readySession('user-1', { storageBudgetMb: 1 });
  const size = 400 * 1024;
  clock.now += 1000;
  await state.putDocument('a', pdf(size), true);
  clock.now += 1000;
  await state.putDocument('b', pdf(size));
  clock.now += 1000;
  assert.ok((await state.getDocument('a')).ok);
  clock.now += 1000;
  assert.deepEqual(await state.putDocument('c', pdf(size)), { ok: true, value: { evicted: ['b'] } });
  const cached = await state.cachedDocuments();
  assert.ok(cached.ok);
  assert.deepEqual(cached.value.map((entry) => entry.id).sort(), ['a', 'c']);
  assert.ok(cached.value.reduce((sum, entry) => sum + entry.size, 0) <= 1024 * 1024);
  assert.equal(
    cached.value.find((entry) => entry.id === 'c')?.lastReadAt,
    null,
    'a prefetch is not a reading',
  );
  assert.deepEqual(await state.putDocument('huge', pdf(2 * 1024 * 1024)), { ok: false, reason: 'too-large' });
  assert.ok((await state.evictDocument('a')).ok);
  assert.deepEqual(await state.getDocument('a'), { ok: false, reason: 'missing' });
});

Deno.test('the offline read queue keeps events in order until they are removed', async () => {
  const { state, clock } = await readySession();
  await state.queueEvent({ id: 'e1', documentId: 'a', kind: 'view', occurredAt: '2026-11-23T10:00:00Z' });
  clock.now += 1;
  await state.queueEvent({ id: 'e2', documentId: 'a', kind: 'print', occurredAt: '2026-11-23T10:01:00Z' });
  await state.queueEvent({ id: 'e1', documentId: 'a', kind: 'view', occurredAt: '2026-11-23T10:00:00Z' });
  const queued = await state.queuedEvents();
  assert.ok(queued.ok);
  assert.deepEqual(queued.value.map((event) => event.id).sort(), ['e1', 'e2']);
  assert.ok((await state.removeEvents(['e1'])).ok);
  assert.deepEqual((await state.queuedEvents()).ok && (await state.queuedEvents()), {
    ok: true,
    value: [{ id: 'e2', documentId: 'a', kind: 'print', occurredAt: '2026-11-23T10:01:00Z' }],
  });
});

Deno.test("the client's clock locks after the lock time and wipes after the idle limit, offline", async () => {
  const { state, clock, idb, open } = await readySession('user-1', { lockMinutes: 5, idleMinutes: 30 });
  await state.putDocument('a', pdf());
  clock.now += 4 * 60_000;
  assert.deepEqual(await state.enforceClock(), { ok: true, value: 'active' });
  assert.ok(state.isUnlocked());
  clock.now += 2 * 60_000;
  assert.deepEqual(await state.enforceClock(), { ok: true, value: 'lock' });
  assert.equal(state.isUnlocked(), false);
  // A reload past the idle limit: the PIN no longer opens anything, everything is gone.
  clock.now += 30 * 60_000;
  const result = await open().state.unlockWithPin(PIN);
  assert.equal(result.ok ? 'ok' : result.reason, 'wiped');
  assert.deepEqual(await databaseNames(idb), []);
});

Deno.test('activity restarts the idle clock (written at most every 15 s)', async () => {
  const { state, clock } = await readySession('user-1', { lockMinutes: 5 });
  clock.now += 4 * 60_000;
  assert.ok((await state.recordActivity()).ok);
  clock.now += 4 * 60_000;
  assert.deepEqual(await state.checkClock(), { ok: true, value: 'active' });
});

Deno.test('failures come back as values: no IndexedDB, no key, no stored session', async () => {
  const device = tablet();
  const documents = createDocumentStore();
  const state = createBrowserState({
    storage: createSessionStorage(() => device.local),
    documents,
    indexedDB: () => null,
    pinIterations: 1000,
  });
  assert.deepEqual(await state.saveList([]), { ok: false, reason: 'locked' });
  assert.deepEqual(await state.rememberKey(offlineKey(), PIN), { ok: false, reason: 'unavailable' });
  assert.deepEqual(await state.queueEvent({ id: 'e', documentId: 'a', kind: 'view', occurredAt: 'x' }), {
    ok: false,
    reason: 'unavailable',
  });
  assert.deepEqual(await state.rememberKey({ ...offlineKey(), key: 'short' }, PIN), {
    ok: false,
    reason: 'invalid-key',
  });
  assert.deepEqual(await state.clearSession(), { ok: true });
  const fresh = device.open().state;
  assert.deepEqual(await fresh.unlockWithPin(PIN), { ok: false, reason: 'no-key' });
});

Deno.test('reading never creates the database (nothing is written until a screen stores something)', async () => {
  const device = tablet();
  device.signIn();
  const { state } = device.open();
  await state.session();
  await state.cachedDocuments();
  await state.queuedEvents();
  await state.checkClock();
  assert.deepEqual(await state.beginSession('user-1'), { ok: true, wiped: false });
  assert.deepEqual(await databaseNames(device.idb), []);
});

Deno.test('a write that began before a wipe does not bring the database back', async () => {
  const { state, idb } = await readySession();
  await state.putDocument('a', pdf());
  const writing = state.putDocument('b', pdf(300 * 1024));
  const listing = state.saveList([{ documentid: 'b', title: TITLE }]);
  assert.deepEqual(await state.clearSession(), { ok: true });
  assert.equal((await writing).ok, false);
  assert.equal((await listing).ok, false);
  assert.deepEqual(await databaseNames(idb), []);
});
