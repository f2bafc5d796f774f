/**
 * Ways round the offender tablet's lock screen, each reproduced in a real Chromium (the
 * page's clock moved on with Playwright's clock; the lock time set to a minute):
 * - after the lock, an address typed into the browser (/files, /pdfViewer/<id>) showed the mail the lock hides;
 * - a portal whose key request had failed (a 503 while the API restarts) never locked;
 * - a locked tablet reloaded without the network showed the portal, which opened once the network was back.
 * Build the PWA first: node_modules/.bin/vite build --config pwa/vite.config.ts (PWA_DIST for another folder).
 */
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { chromiumAvailable, launchBrowser } from '../support/browser.ts';
import { apiToken, apiUpload } from '../support/api_client.ts';
import {
  databases,
  setNumberSettingByApi,
  signInThroughForm,
  storedSession,
  tabletPage,
} from '../support/offline_pages.ts';
import { makePdf } from '../support/pdfs.ts';
import { assertPwaBuilt, startTestServer } from '../support/server.ts';

const ADMIN = { username: 'admin@demo.test', password: 'Demo-Admin-2026!' };
const ATTORNEY = { username: 'attorney@demo.test', password: 'Demo-Attorney-2026!' };
const OFFENDER = { username: '100001', password: '246810' };
const LOCKED = 'This tablet is locked';

async function listShown(page: Page): Promise<void> {
  await page.getByRole('heading', { name: 'My documents' }).waitFor();
  await page.locator('li.document-card').first().waitFor();
}

/** The lock screen, and none of the mail: no list, no document. */
async function assertLocked(page: Page, why: string): Promise<void> {
  await page.getByRole('heading', { name: LOCKED }).waitFor();
  assert.match(new URL(page.url()).pathname, /^\/portal\/offender/, `${why}: the portal`);
  assert.equal(await page.locator('li.document-card').count(), 0, `${why}: no list`);
  assert.equal(await page.locator('.pdfViewer .page').count(), 0, `${why}: no document`);
}

/** The offender's key request answers 503, as while the API restarts, until `stop` is called. */
async function failKeyRequests(context: BrowserContext): Promise<() => Promise<void>> {
  const pattern = '**/api/auth/offline-key';
  await context.route(pattern, (route) => route.fulfill({ status: 503, body: '{}' }));
  return () => context.unroute(pattern);
}

const options = { sanitizeResources: false, sanitizeOps: false };

Deno.test({
  name: "tablet lock: typed addresses, a failed key request and an offline reload don't get round it",
  ignore: !chromiumAvailable(),
  ...options,
  async fn(t) {
    assertPwaBuilt();
    const server = await startTestServer();
    const browser: Browser = await launchBrowser();
    try {
      const admin = await apiToken(server, ADMIN);
      await setNumberSettingByApi(server, admin, 'tablet_lock_minutes', 1);
      const documentId = await apiUpload(server, await apiToken(server, ATTORNEY), {
        recipient: OFFENDER.username,
        title: 'Lock bypass brief',
        bytes: await makePdf({ pages: 2, title: 'Lock bypass brief' }),
      });

      await t.step('after the lock, /files and a typed /pdfViewer/<id> show the lock screen', async () => {
        const { context, page } = await tabletPage(browser, true);
        await signInThroughForm(page, server.url, OFFENDER);
        await listShown(page);
        await page.clock.fastForward('01:05');
        await assertLocked(page, 'the lock');
        for (const path of ['/files', `/pdfViewer/${documentId}`, `/pdfViewer/${documentId}?print=1`]) {
          await page.goto(`${server.url}${path}`);
          await page.waitForURL(/\/portal\/offender/);
          await assertLocked(page, path);
        }
        // Unlocked, /files is still the portal: an offender's mail is shown only where the lock is.
        await page.getByLabel('PIN').fill(OFFENDER.password);
        await page.getByRole('button', { name: 'Unlock' }).click();
        await listShown(page);
        await page.goto(`${server.url}/files`);
        await page.waitForURL(/\/portal\/offender/);
        await listShown(page);
        await context.close();
      });

      await t.step(
        'a portal whose key request failed after a reload still locks, and stays locked',
        async () => {
          const { context, page } = await tabletPage(browser, true);
          await signInThroughForm(page, server.url, OFFENDER);
          await listShown(page);
          const stop = await failKeyRequests(context);
          await page.reload();
          await listShown(page);
          await page.clock.fastForward('01:05');
          await assertLocked(page, 'network only');
          await page.reload();
          await assertLocked(page, 'reloaded');
          await stop();
          await context.close();
        },
      );

      await t.step('a portal that never got its key ends the session when its lock time passes', async () => {
        const { context, page } = await tabletPage(browser, true);
        await failKeyRequests(context);
        await signInThroughForm(page, server.url, OFFENDER);
        await listShown(page);
        // Nowhere to keep a lock that a reload would respect: the session ends, at the setting's default (5).
        await page.clock.fastForward('05:05');
        await page.waitForURL(/\/login$/);
        await page.getByText('Your session ended after a time without use').first().waitFor();
        assert.equal((await storedSession(page)).guid, null);
        await page.waitForFunction(async () => (await indexedDB.databases()).length === 0, undefined, {
          polling: 100,
        });
        assert.deepEqual(await databases(page), []);
        await context.close();
      });

      await t.step('locked, reloaded offline, back online: still the lock screen', async () => {
        const { context, page } = await tabletPage(browser, true);
        // The sign-in's key request fails, the portal's succeeds: a key with no PIN wrap (no offline unlock).
        const stop = await failKeyRequests(context);
        await signInThroughForm(page, server.url, OFFENDER);
        await page.waitForURL(/\/portal\/offender/);
        await stop();
        await page.reload();
        await listShown(page);
        await page.evaluate(() => navigator.serviceWorker.ready);
        await page.clock.fastForward('01:05');
        await assertLocked(page, 'the lock');
        await context.setOffline(true);
        await page.reload();
        await assertLocked(page, 'reloaded offline');
        await context.setOffline(false);
        await page.evaluate(() => globalThis.dispatchEvent(new Event('online')));
        await page.waitForTimeout(1_000);
        await assertLocked(page, 'back online');
        await context.close();
      });
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
