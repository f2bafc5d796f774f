/**
 * The tablet's lock and wipe, and the staff portals' offline state, in a real Chromium, the network cut with Playwright's `context.setOffline(true)`
 * and the page's clock moved on with Playwright's clock (the lock time and the idle limit set short: 1 and 5
 * minutes, the settings' floors):
 * 5. offline, the tablet locks after the lock time and the PIN reopens it; it wipes after the idle limit; five
 *    wrong PINs on the lock screen (anyone can type them) end unlocking offline but wipe nothing, and online they
 *    make the account wait (seconds, said on the screen) and leave the session, locked on the server, to its owner;
 * a Log Off without the network reaches the server the moment the network returns (the session ends there);
 * 7. the attorney's and the admin's screens show the offline state with the network cut, and nothing of theirs
 *    is written to IndexedDB or Cache Storage.
 * Build the PWA first: node_modules/.bin/vite build --config pwa/vite.config.ts (PWA_DIST for another folder).
 */
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { chromiumAvailable, launchBrowser } from '../support/browser.ts';
import { apiToken } from '../support/api_client.ts';
import {
  cachedUrls,
  databases,
  SESSION_DATABASE,
  setNumberSettingByApi,
  signInThroughForm,
  storedSession,
  tabletPage,
} from '../support/offline_pages.ts';
import { assertPwaBuilt, startTestServer } from '../support/server.ts';

const ADMIN = { username: 'admin@demo.test', password: 'Demo-Admin-2026!' };
const ATTORNEY = { username: 'attorney@demo.test', password: 'Demo-Attorney-2026!' };
const OFFENDER = { username: '100001', password: '246810' };
/** Another offender, for the step that locks an account on the server (the others' sign-ins must not meet it). */
const NEIGHBOUR = { username: '100002', password: '135790' };
const DATABASE = 'legal-mail-offline';

/** Signed in as the offender, the list on screen from the network and saved (sealed) on the tablet. */
async function offenderReady(page: Page, url: string, who = OFFENDER): Promise<void> {
  await signInThroughForm(page, url, who);
  await page.getByRole('heading', { name: 'My documents' }).waitFor();
  // The demo's first offender has mail; the neighbour's list may be empty.
  if (who === OFFENDER) await page.locator('li.document-card').first().waitFor();
  await page.waitForFunction(
    async (name) => (await indexedDB.databases()).some((db) => db.name === name),
    DATABASE,
  );
}

async function lockByClock(context: BrowserContext, page: Page): Promise<void> {
  await context.setOffline(true);
  await page.clock.fastForward('01:05');
  await page.getByRole('heading', { name: 'This tablet is locked' }).waitFor();
  assert.equal(await page.locator('li.document-card').count(), 0, 'the lock hides the list');
}

async function assertWiped(page: Page): Promise<void> {
  await page.waitForURL(/\/login$/);
  await page.waitForFunction(async () => (await indexedDB.databases()).length === 0);
  assert.deepEqual(await databases(page), []);
  assert.equal((await storedSession(page)).guid, null);
}

const options = { sanitizeResources: false, sanitizeOps: false };

Deno.test({
  name:
    'offline tablet: locks after the lock time, wipes after the idle limit; five wrong PINs end offline unlocking only',
  ignore: !chromiumAvailable(),
  ...options,
  async fn(t) {
    assertPwaBuilt();
    const server = await startTestServer();
    const browser: Browser = await launchBrowser();
    try {
      const admin = await apiToken(server, ADMIN);
      await setNumberSettingByApi(server, admin, 'session_idle_minutes', 5);
      await setNumberSettingByApi(server, admin, 'tablet_lock_minutes', 1);

      await t.step(
        '5. offline: the lock after a minute, the PIN reopens it, the wipe after the idle limit',
        async () => {
          const { context, page } = await tabletPage(browser, true);
          await offenderReady(page, server.url);
          await lockByClock(context, page);
          await page.getByLabel('PIN').fill(OFFENDER.password);
          await page.getByRole('button', { name: 'Unlock' }).click();
          await page.locator('li.document-card').first().waitFor();
          // Nothing touched for longer than the idle limit: everything of the session goes, offline too.
          await page.clock.fastForward('05:30');
          await assertWiped(page);
          await context.close();
        },
      );

      await t.step(
        "5. five wrong PINs, anyone's: offline unlocking ends, nothing is wiped, the owner's PIN online reopens",
        async () => {
          const { context, page } = await tabletPage(browser, true);
          await offenderReady(page, server.url);
          await lockByClock(context, page);
          for (let attempt = 1; attempt <= 4; attempt++) {
            await page.getByLabel('PIN').fill('000000');
            await page.getByRole('button', { name: 'Unlock' }).click();
            const left = 5 - attempt;
            await page.getByText(`${left} more wrong PIN${left === 1 ? '' : 's'}`).waitFor();
          }
          await page.getByLabel('PIN').fill('000000');
          await page.getByRole('button', { name: 'Unlock' }).click();
          await page.getByText('Too many wrong PINs. This tablet can now be unlocked only with the network')
            .waitFor();
          // Even the right PIN no longer opens it offline; nothing was deleted.
          await page.getByLabel('PIN').fill(OFFENDER.password);
          await page.getByRole('button', { name: 'Unlock' }).click();
          await page.getByText('This tablet cannot be unlocked without the network').waitFor();
          assert.deepEqual((await databases(page)).sort(), [DATABASE, SESSION_DATABASE].sort());
          assert.ok((await storedSession(page)).guid, 'the session stays');
          // With the network the server checks the owner's PIN and the same session goes on.
          await context.setOffline(false);
          await page.getByLabel('PIN').fill(OFFENDER.password);
          await page.getByRole('button', { name: 'Unlock' }).click();
          await page.locator('li.document-card').first().waitFor();
          await context.close();
        },
      );

      await t.step(
        "wrong PINs online, anyone's: the server makes the account wait but keeps the session, locked",
        async () => {
          const { context, page } = await tabletPage(browser, true);
          await offenderReady(page, server.url, NEIGHBOUR);
          await page.clock.fastForward('01:05');
          await page.getByRole('heading', { name: 'This tablet is locked' }).waitFor();
          const token = (await storedSession(page)).guid;
          // The lock reached the server: the token alone opens neither the list nor the key.
          for (let tries = 0;; tries++) {
            const key = await fetch(`${server.url}/api/auth/offline-key`, {
              headers: { Authorization: `Bearer ${token}` },
            });
            await key.body?.cancel();
            if (key.status === 423) break;
            assert.ok(tries < 50, `the lock reached the server (${key.status})`);
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          for (let attempt = 1; attempt <= 3; attempt++) {
            await page.getByLabel('PIN').fill('000000');
            await page.getByRole('button', { name: 'Unlock' }).click();
            const left = 5 - attempt;
            await page.getByText(`${left} more wrong PIN${left === 1 ? '' : 's'}`).waitFor();
          }
          // The fourth, at once, meets the account's wait: said in seconds, nothing locked for minutes.
          await page.getByLabel('PIN').fill('000000');
          await page.getByRole('button', { name: 'Unlock' }).click();
          await page.getByText(/Too many wrong PINs\. Please wait [1-5] seconds? and enter your PIN again\./)
            .waitFor();
          // Still this session's lock screen, not the sign-in screen; the session lives on the server, locked.
          await page.getByRole('heading', { name: 'This tablet is locked' }).waitFor();
          assert.deepEqual((await databases(page)).sort(), [DATABASE, SESSION_DATABASE].sort());
          const me = await fetch(`${server.url}/api/auth/me`, {
            headers: { Authorization: `Bearer ${token}` },
          });
          await me.body?.cancel();
          assert.equal(me.status, 423);
          await context.close();
        },
      );

      await t.step(
        'a list request that hangs: the saved copy, the banner after a few seconds, Try Again',
        async () => {
          const { context, page } = await tabletPage(browser);
          await offenderReady(page, server.url);
          const title = (await page.locator('li.document-card h3').first().textContent()) ?? '';
          // The list is saved after it renders: wait for the sealed record.
          await page.waitForFunction(async (name) => {
            const db = await new Promise<IDBDatabase>((resolve) => {
              const request = indexedDB.open(name);
              request.onsuccess = () => resolve(request.result);
            });
            const count = await new Promise<number>((resolve) => {
              const request = db.transaction('list').objectStore('list').count();
              request.onsuccess = () => resolve(request.result);
            });
            db.close();
            return count === 1;
          }, DATABASE);
          let hanging = true;
          await page.route('**/api/documents/offender/**', (route) => hanging ? undefined : route.continue());
          await page.reload();
          // The saved copy at once, before the network has answered.
          await page.locator('li.document-card').filter({ hasText: title }).waitFor({ timeout: 5_000 });
          const banner = page.locator('.offline-banner');
          await banner.waitFor({ timeout: 15_000 });
          assert.match((await banner.textContent()) ?? '', /You are offline — showing the list saved/);
          hanging = false;
          await page.getByRole('button', { name: 'Try Again' }).click();
          await banner.waitFor({ state: 'detached' });
          await context.close();
        },
      );

      await t.step(
        'Log Off without the network: the session ends on the server once the network returns',
        async () => {
          const { context, page } = await tabletPage(browser);
          await offenderReady(page, server.url);
          const token = (await storedSession(page)).guid;
          await context.setOffline(true);
          await page.getByRole('button', { name: 'Log Off' }).click();
          await page.waitForURL(/\/login$/);
          await page.waitForFunction(async () => (await indexedDB.databases()).length === 0, undefined, {
            polling: 100,
          });
          const before = await fetch(`${server.url}/api/auth/me`, {
            headers: { Authorization: `Bearer ${token}` },
          });
          await before.body?.cancel();
          assert.equal(before.status, 200, 'the server has not heard yet');
          await context.setOffline(false);
          for (let tries = 0;; tries++) {
            const me = await fetch(`${server.url}/api/auth/me`, {
              headers: { Authorization: `Bearer ${token}` },
            });
            await me.body?.cancel();
            if (me.status === 401) break;
            assert.ok(tries < 100, `the sign-out reached the server (${me.status})`);
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          await context.close();
        },
      );

      await t.step('7. attorney and admin: the offline state, and nothing of theirs stored', async () => {
        for (const who of [ATTORNEY, ADMIN]) {
          const context = await browser.newContext();
          const page = await context.newPage();
          page.setDefaultTimeout(20_000);
          await signInThroughForm(page, server.url, who);
          await page.waitForURL(/\/portal\/(attorney|admin)/);
          await page.getByRole('button', { name: 'Log Off' }).waitFor();
          await page.evaluate(() => navigator.serviceWorker.ready);
          await context.setOffline(true);
          await page.getByText('You are offline', { exact: true }).waitFor();
          // A reload without the network: the shell from the service worker, and the same state.
          await page.reload();
          await page.getByText('You are offline', { exact: true }).waitFor();
          assert.deepEqual(await databases(page), [], `${who.username}: nothing in IndexedDB`);
          const urls = await cachedUrls(page);
          assert.deepEqual(
            urls.filter((url) => /\/api\/|\.pdf$/.test(url)),
            [],
            `${who.username}: no /api in caches`,
          );
          await context.close();
        }
      });
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
