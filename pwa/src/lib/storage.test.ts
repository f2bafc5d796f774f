import assert from 'node:assert/strict';
import { createSessionStorage, STORAGE_KEYS, type StorageBackend } from './storage.ts';
import type { User } from '../auth/user.ts';

class MemoryStorage implements StorageBackend {
  readonly items = new Map<string, string>();
  failWritesOf = new Set<string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    if (this.failWritesOf.has(key)) throw new DOMException('quota', 'QuotaExceededError');
    this.items.set(key, value);
  }
  removeItem(key: string) {
    if (this.failWritesOf.has(key)) throw new DOMException('denied', 'SecurityError');
    this.items.delete(key);
  }
}

const user: User = {
  id: 'u1',
  role: 'offender',
  firstName: 'John',
  lastName: 'Doe',
  email: null,
  docNumber: '100001',
  entity: 'default',
  mustChangePassword: false,
  language: 'es',
  largerText: false,
};

Deno.test('the storage keys are guid, user and docId', () => {
  assert.deepEqual(Object.values(STORAGE_KEYS).sort(), ['docId', 'guid', 'user']);
});

Deno.test('a saved session can be read back', () => {
  const backend = new MemoryStorage();
  const store = createSessionStorage(() => backend);
  assert.deepEqual(store.saveSession({ token: 'tok', user, docId: '100001' }), { ok: true });
  assert.equal(store.getGuid(), 'tok');
  assert.equal(store.getDocId(), '100001');
  assert.deepEqual(store.readUser(), { ok: true, user });
  assert.equal(backend.getItem('user'), JSON.stringify(user));
});

Deno.test('a partial write failure is reported with the failed keys, not thrown', () => {
  const backend = new MemoryStorage();
  backend.failWritesOf.add('user');
  const store = createSessionStorage(() => backend);
  assert.deepEqual(store.saveSession({ token: 'tok', user, docId: '100001' }), {
    ok: false,
    failed: ['user'],
  });
  assert.equal(store.getGuid(), 'tok');
});

Deno.test('clearAll removes every key and reports keys it could not remove', () => {
  const backend = new MemoryStorage();
  const store = createSessionStorage(() => backend);
  store.saveSession({ token: 'tok', user, docId: '100001' });
  backend.items.set('unrelated', 'kept');
  assert.deepEqual(store.clearAll(), { ok: true });
  assert.deepEqual([...backend.items.keys()], ['unrelated']);
  store.saveSession({ token: 'tok', user, docId: '100001' });
  backend.failWritesOf.add('guid');
  assert.deepEqual(store.clearAll(), { ok: false, failed: ['guid'] });
});

Deno.test('a missing, unreadable or role-less stored user is told apart', () => {
  const backend = new MemoryStorage();
  const store = createSessionStorage(() => backend);
  assert.deepEqual(store.readUser(), { ok: false, reason: 'missing' });
  backend.items.set('user', '{not json');
  assert.deepEqual(store.readUser(), { ok: false, reason: 'unreadable' });
  backend.items.set('user', JSON.stringify({ firstName: 'No role' }));
  assert.deepEqual(store.readUser(), { ok: false, reason: 'unreadable' });
});

Deno.test('storage that throws on access (disabled by the browser) reads as empty and writes as failed', () => {
  const store = createSessionStorage(() => {
    throw new DOMException('denied', 'SecurityError');
  });
  assert.equal(store.getGuid(), null);
  assert.deepEqual(store.readUser(), { ok: false, reason: 'unavailable' });
  assert.deepEqual(store.saveUser(user), { ok: false, failed: ['user'] });
  assert.deepEqual(store.clearAll(), { ok: false, failed: ['guid', 'user', 'docId'] });
});

Deno.test('no storage at all behaves like disabled storage', () => {
  const store = createSessionStorage(() => null);
  assert.equal(store.getDocId(), null);
  assert.deepEqual(store.readUser(), { ok: false, reason: 'unavailable' });
});
