import assert from 'node:assert/strict';
import { IDBFactory } from 'fake-indexeddb';
import { SEALED_MIN_BYTES } from './crypto.ts';
import { createTabletSessionBackend, TABLET_SESSION_DATABASE } from './tabletSessionStore.ts';

async function names(factory: IDBFactory): Promise<string[]> {
  return (await factory.databases()).map((db) => db.name ?? '');
}

async function storedRecord(factory: IDBFactory): Promise<{ entries: [string, string][]; pad: Uint8Array }> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const req = factory.open(TABLET_SESSION_DATABASE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  const record = await new Promise<{ entries: [string, string][]; pad: Uint8Array }>((resolve, reject) => {
    const req = db.transaction('session').objectStore('session').get('current');
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  db.close();
  return record;
}

Deno.test('a session written is read back by the next window, in one record heavy enough for a file of its own', async () => {
  const factory = new IDBFactory();
  const first = createTabletSessionBackend(() => factory);
  first.setItem('guid', 'token-1');
  first.setItem('docId', '100001');
  await first.settled();
  const record = await storedRecord(factory);
  assert.deepEqual(record.entries, [['guid', 'token-1'], ['docId', '100001']]);
  assert(record.pad.byteLength >= SEALED_MIN_BYTES);

  const reloaded = createTabletSessionBackend(() => factory);
  assert.deepEqual(reloaded.getItem('guid'), null);
  await reloaded.load();
  assert.deepEqual(reloaded.getItem('guid'), 'token-1');
  assert.deepEqual(reloaded.getItem('docId'), '100001');
});

Deno.test('removing the last key deletes the whole database', async () => {
  const factory = new IDBFactory();
  const backend = createTabletSessionBackend(() => factory);
  backend.setItem('guid', 'token-2');
  await backend.settled();
  assert.deepEqual(await names(factory), [TABLET_SESSION_DATABASE]);
  backend.removeItem('guid');
  await backend.settled();
  assert.deepEqual(await names(factory), []);
});

Deno.test('loading on a tablet with no session creates no database', async () => {
  const factory = new IDBFactory();
  const backend = createTabletSessionBackend(() => factory);
  await backend.load();
  assert.deepEqual(backend.getItem('guid'), null);
  assert.deepEqual(await names(factory), []);
});

Deno.test('without IndexedDB the session lives in memory only', async () => {
  const backend = createTabletSessionBackend(() => null);
  backend.setItem('guid', 'token-3');
  await backend.settled();
  await backend.load();
  assert.deepEqual(backend.getItem('guid'), 'token-3');
});
