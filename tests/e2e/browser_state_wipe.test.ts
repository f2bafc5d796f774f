/**
 * The offline cache's wipe in a real Chromium: every way out of a session deletes the offline cache's IndexedDB
 * database (pwa/src/lib/state/browserState.ts clearSession), and a sign-in by someone else wipes the previous
 * person's cache before the new portal renders. The screens that fill the cache come later, so the test puts a
 * database there itself, as they will. Build the PWA first:
 * node_modules/.bin/vite build --config pwa/vite.config.ts (PWA_DIST may point the server at another build).
 */
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { chromiumAvailable, launchBrowser, newRecordedContext } from '../support/browser.ts';
import { assertPwaBuilt, startTestServer } from '../support/server.ts';
import { SESSION_DATABASE, storedSession } from '../support/offline_pages.ts';

const OFFENDER = { username: '100001', password: '246810' };
const DATABASE = 'legal-mail-offline';

async function signIn(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/login`);
  await page.getByLabel('facility ID number').fill(OFFENDER.username);
  await page.getByLabel('Pin Number').fill(OFFENDER.password);
  await page.getByRole('button', { name: 'View Mail' }).click();
  await page.waitForURL(/\/portal/);
}

/** A cache as the later screens will leave it: the schema's stores, a session owned by `userId`, a record. */
function plantCache(page: Page, userId: string): Promise<void> {
  return page.evaluate(({ name, userId }) =>
    new Promise<void>((resolve, reject) => {
      const request = indexedDB.open(name, 1);
      request.onupgradeneeded = () => {
        const db = request.result;
        for (const store of ['list', 'documents', 'pdfs', 'queue', 'meta']) {
          db.createObjectStore(store, { keyPath: 'id' });
        }
      };
      request.onerror = () => reject(request.error);
      request.onsuccess = () => {
        const db = request.result;
        const tx = db.transaction(['meta', 'pdfs'], 'readwrite');
        tx.objectStore('meta').put({ id: 'current', userId });
        tx.objectStore('pdfs').put({ id: 'doc-1', iv: new Uint8Array(12), data: new Uint8Array(64) });
        tx.oncomplete = () => {
          db.close();
          resolve();
        };
        tx.onerror = () => reject(tx.error);
      };
    }), { name: DATABASE, userId });
}

/** Whose the cache is now, and whether the planted record is still there; null owner when there is no cache. */
function cacheContent(page: Page): Promise<{ owner: string | null; planted: boolean }> {
  return page.evaluate((name) =>
    new Promise((resolve, reject) => {
      void indexedDB.databases().then((known) => {
        if (!known.some((entry) => entry.name === name)) return resolve({ owner: null, planted: false });
        const request = indexedDB.open(name);
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const db = request.result;
          const tx = db.transaction(['meta', 'pdfs']);
          const meta = tx.objectStore('meta').get('current');
          const pdf = tx.objectStore('pdfs').count('doc-1');
          tx.oncomplete = () => {
            db.close();
            resolve({ owner: meta.result?.userId ?? null, planted: pdf.result === 1 });
          };
          tx.onerror = () => reject(tx.error);
        };
      });
    }), DATABASE);
}

function databases(page: Page): Promise<string[]> {
  return page.evaluate(async () => (await indexedDB.databases()).map((entry) => entry.name ?? ''));
}

function storedUserId(page: Page): Promise<string> {
  return storedSession(page).then((stored) => JSON.parse(stored.user ?? '{}').id as string);
}

const options = { sanitizeResources: false, sanitizeOps: false };

Deno.test({
  name: 'every way out deletes the offline cache; a different person signing in wipes the previous one first',
  ignore: !chromiumAvailable(),
  ...options,
  async fn(t) {
    assertPwaBuilt();
    const server = await startTestServer();
    const browser: Browser = await launchBrowser();
    try {
      await t.step('Log Off (the /logout screen) deletes the database before it leaves', async () => {
        const { context, page } = await newRecordedContext(browser, server.url);
        page.setDefaultTimeout(15_000);
        await signIn(page, server.url);
        await plantCache(page, await storedUserId(page));
        assert.deepEqual((await databases(page)).sort(), [DATABASE, SESSION_DATABASE].sort());
        // The client's wipe is the guarantee, not the logout answer's Clear-Site-Data: take that header away.
        await page.route('**/api/auth/logout', async (route) => {
          const response = await route.fetch();
          const headers = { ...response.headers() };
          delete headers['clear-site-data'];
          await route.fulfill({ response, headers });
        });
        await page.getByRole('button', { name: 'Log Off' }).click();
        await page.waitForURL(/\/login$/);
        assert.deepEqual(await databases(page), []);
        assert.equal((await storedSession(page)).guid, null);
        await context.close();
      });

      await t.step('a 401 deletes it before /login renders', async () => {
        const { context, page } = await newRecordedContext(browser, server.url);
        page.setDefaultTimeout(15_000);
        await signIn(page, server.url);
        await plantCache(page, await storedUserId(page));
        const guid = (await storedSession(page)).guid;
        const out = await fetch(`${server.url}/api/auth/logout`, {
          method: 'POST',
          headers: { authorization: `Bearer ${guid}` },
        });
        assert.equal(out.status, 200);
        await out.body?.cancel();
        await page.reload();
        await page.waitForURL(/\/login$/);
        assert.deepEqual(await databases(page), []);
        await context.close();
      });

      await t.step(
        "a sign-in by someone else wipes the previous person's cache before the portal",
        async () => {
          const { context, page } = await newRecordedContext(browser, server.url);
          page.setDefaultTimeout(15_000);
          await page.goto(`${server.url}/login`);
          await plantCache(page, 'the-previous-person');
          await signIn(page, server.url);
          // The new person's own cache may exist (their sign-in keeps their key): nothing of the previous one does.
          assert.deepEqual(await cacheContent(page), { owner: await storedUserId(page), planted: false });
          await context.close();
        },
      );

      await t.step("the same person's sign-in keeps their cache", async () => {
        const { context, page } = await newRecordedContext(browser, server.url);
        page.setDefaultTimeout(15_000);
        await signIn(page, server.url);
        const userId = await storedUserId(page);
        await plantCache(page, userId);
        await signIn(page, server.url);
        assert.deepEqual((await databases(page)).sort(), [DATABASE, SESSION_DATABASE].sort());
        await context.close();
      });
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
