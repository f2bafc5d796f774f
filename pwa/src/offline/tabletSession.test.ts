/**
 * Work that outlives its session on a shared tablet (reproduced with fetch held open): a
 * prefetch still downloading when the next person signs in, and a key answered after Log Off.
 */
import assert from 'node:assert/strict';
import 'fake-indexeddb/auto';
import type { OfflineKey } from '../../../contract/shapes/offline.ts';
import type { User } from '../auth/user.ts';
import { browserState, clearSession } from '../lib/state/browserState.ts';
import { storage } from '../lib/storage.ts';
import { keepKeyAfterSignIn, prefetchUnread, startTabletSession, tabletState } from './tabletSession.ts';

function keyFor(userId: string): OfflineKey {
  const raw = crypto.getRandomValues(new Uint8Array(32));
  const key = btoa(String.fromCharCode(...raw)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
  return {
    key,
    userId,
    expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    lockMinutes: 5,
    idleMinutes: 30,
    prefetchCount: 10,
    storageBudgetMb: 200,
  };
}

const offender = (id: string): User => ({
  id,
  role: 'offender',
  firstName: id,
  lastName: '',
  email: null,
  docNumber: id,
  entity: 'default',
  mustChangePassword: false,
  language: null,
  largerText: false,
});

async function signIn(id: string, token: string, pin: string): Promise<void> {
  await browserState.beginSession(id);
  storage.saveSession({ token, user: offender(id), docId: id });
  await keepKeyAfterSignIn(pin);
}

/** A gate a fake answer waits on until the test opens it. */
function gate(): { wait: Promise<void>; open(): void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

const realFetch = globalThis.fetch;
const options = { sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: 'a prefetch under way when the next offender signs in reaches neither their cache nor their token',
  ...options,
  fn: async () => {
    localStorage.clear();
    const keys: Record<string, OfflineKey> = { tokA: keyFor('A'), tokB: keyFor('B') };
    const prefetched: { id: string; token: string }[] = [];
    const a1 = gate();
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const token = new Headers(init?.headers).get('Authorization')?.replace('Bearer ', '') ?? '';
      if (url.endsWith('/auth/offline-key')) {
        return new Response(JSON.stringify({ success: true, data: keys[token] }), { status: 200 });
      }
      const prefetch = /\/documents\/prefetch\/(.+)$/.exec(url);
      if (prefetch) {
        prefetched.push({ id: prefetch[1], token });
        if (prefetch[1] === 'docA1') await a1.wait;
        return new Response(new TextEncoder().encode(`%PDF ${prefetch[1]}`), { status: 200 });
      }
      return new Response('{}', { status: 200 });
    }) as typeof fetch;
    try {
      await signIn('A', 'tokA', '482913');
      await startTabletSession();
      assert.equal(tabletState.get().phase, 'unlocked');
      const prefetchA = prefetchUnread(['docA1', 'docA2']);
      await new Promise((resolve) => setTimeout(resolve, 50));

      await clearSession(); // A: Log Off
      await signIn('B', 'tokB', '111111');
      await startTabletSession();
      const prefetchB = prefetchUnread(['docB1']);
      assert.notEqual(prefetchB, prefetchA, "B's unread mail is fetched ahead for B");

      a1.open();
      await Promise.all([prefetchA, prefetchB]);
      const cached = await browserState.cachedDocuments();
      assert.ok(cached.ok);
      assert.deepEqual(cached.value.map((entry) => entry.id), ['docB1'], "nothing of A's in B's cache");
      assert.deepEqual(prefetched, [
        { id: 'docA1', token: 'tokA' },
        { id: 'docB1', token: 'tokB' },
      ], "A's next document is never asked for, with B's token or any");
    } finally {
      globalThis.fetch = realFetch;
      await clearSession();
    }
  },
});

Deno.test({
  name: 'a key answered after Log Off is not kept, in memory or in IndexedDB',
  ...options,
  fn: async () => {
    localStorage.clear();
    const answer = gate();
    globalThis.fetch = (async (input: RequestInfo | URL) => {
      if (String(input).endsWith('/auth/offline-key')) {
        await answer.wait;
        return new Response(JSON.stringify({ success: true, data: keyFor('A') }), { status: 200 });
      }
      return new Response('{}', { status: 200 });
    }) as typeof fetch;
    try {
      storage.saveSession({ token: 'tokA', user: offender('A'), docId: 'A' });
      const starting = startTabletSession(); // the portal, after a reload
      await new Promise((resolve) => setTimeout(resolve, 30));
      await clearSession(); // Log Off while the key request is pending
      answer.open();
      await starting;
      assert.equal(browserState.isUnlocked(), false);
      assert.notEqual(tabletState.get().phase, 'unlocked');
      const info = await browserState.session();
      assert.ok(info.ok);
      assert.equal(info.value, null, 'no session stored');
    } finally {
      globalThis.fetch = realFetch;
      await clearSession();
    }
  },
});
