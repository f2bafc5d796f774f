/** What the offline browser tests share: the sign-in form, the tablet's storage as the page sees it, settings. */
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Credentials } from './api_client.ts';
import type { TestServer } from './server.ts';

/** Fills in and sends /login's form (the caller waits for what should follow). */
export async function signInThroughForm(page: Page, url: string, who: Credentials): Promise<void> {
  await page.goto(`${url}/login`);
  await page.getByLabel('facility ID number').fill(who.username);
  await page.getByLabel('Pin Number').fill(who.password);
  await page.getByRole('button', { name: 'View Mail' }).click();
}

/** The IndexedDB databases of the page's origin, by name. */
export function databases(page: Page): Promise<string[]> {
  return page.evaluate(async () => (await indexedDB.databases()).map((entry) => entry.name ?? ''));
}

/** The IndexedDB database of an offender's session (pwa/src/lib/state/tabletSessionStore.ts). */
export const SESSION_DATABASE = 'legal-mail-tablet-session';

/** The session the page keeps (spec section 3's keys); an offender's is in the tablet's own store, not localStorage. */
export interface StoredSession {
  guid: string | null;
  user: string | null;
  docId: string | null;
}

/** The stored session as the app reads it: localStorage (staff) or the tablet's session database (an offender). */
export function storedSession(page: Page): Promise<StoredSession> {
  return page.evaluate(async () => {
    const fromLocal = {
      guid: localStorage.getItem('guid'),
      user: localStorage.getItem('user'),
      docId: localStorage.getItem('docId'),
    };
    if (fromLocal.guid) return fromLocal;
    const name = 'legal-mail-tablet-session'; // SESSION_DATABASE, inside the page
    if (!(await indexedDB.databases()).some((db) => db.name === name)) return fromLocal;
    const entries = await new Promise<[string, string][]>((resolve, reject) => {
      const request = indexedDB.open(name);
      request.onerror = () => reject(request.error);
      request.onsuccess = () => {
        const db = request.result;
        const get = db.transaction('session').objectStore('session').get('current');
        get.onsuccess = () => {
          db.close();
          resolve(get.result?.entries ?? []);
        };
        get.onerror = () => reject(get.error);
      };
    });
    const found = new Map(entries);
    return {
      guid: found.get('guid') ?? null,
      user: found.get('user') ?? null,
      docId: found.get('docId') ?? null,
    };
  });
}

/** Puts `token` in place of the stored session token, wherever the session is kept (a session the server ends). */
export function replaceStoredToken(page: Page, token: string): Promise<void> {
  return page.evaluate(async (token) => {
    if (localStorage.getItem('guid')) return localStorage.setItem('guid', token);
    await new Promise<void>((resolve, reject) => {
      const request = indexedDB.open('legal-mail-tablet-session');
      request.onerror = () => reject(request.error);
      request.onsuccess = () => {
        const db = request.result;
        const tx = db.transaction('session', 'readwrite');
        const store = tx.objectStore('session');
        const get = store.get('current');
        get.onsuccess = () => {
          const record = get.result;
          record.entries = record.entries.map(([key, value]: [string, string]) =>
            key === 'guid' ? [key, token] : [key, value]
          );
          store.put(record);
        };
        tx.oncomplete = () => {
          db.close();
          resolve();
        };
        tx.onerror = () => reject(tx.error);
      };
    });
  }, token);
}

/** Every URL in the origin's Cache Storage (the service worker's precache). */
export function cachedUrls(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
    }
    return urls;
  });
}

/** Sets a number setting through the admin API. */
export async function setNumberSettingByApi(
  server: TestServer,
  adminToken: string,
  key: string,
  value: number,
): Promise<void> {
  const response = await fetch(`${server.url}/api/admin/settings/${key}`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ value: { type: 'number', value } }),
  });
  assert.equal(response.status, 200, await response.text());
}

/** A tablet held upright: its own storage, touch, the page's clock under the test's control when asked. */
export async function tabletPage(
  browser: Browser,
  clock = false,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 800, height: 1280 }, hasTouch: true });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  if (clock) await page.clock.install();
  return { context, page };
}
