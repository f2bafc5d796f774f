/**
 * What the offender's tablet (upright, 800×1280) says around its lock, in Chromium against the real server (lock
 * time 1 minute, the setting's floor; the page's clock moved on by Playwright):
 * - five wrong PINs on the lock screen, online: the refusal names the lock time ('locked for 10 minutes'), and a
 *   sign-in with the right PIN meanwhile is told the account is locked for so long, not that the PIN is wrong;
 * - a locked tablet reloaded without the network says why the PIN cannot be checked (offline; sign in again
 *   when it is back online), not only 'This tablet is locked'.
 * Build the PWA first (npm run build).
 */
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiToken } from '../support/api_client.ts';
import { chromiumAvailable, launchBrowser } from '../support/browser.ts';
import { setNumberSettingByApi, signInThroughForm } from '../support/offline_pages.ts';
import { assertPwaBuilt, startTestServer } from '../support/server.ts';
import en from '../../pwa/src/i18n/en.json' with { type: 'json' };

const options = { sanitizeResources: false, sanitizeOps: false };
const ADMIN = { username: 'admin@demo.test', password: 'Demo-Admin-2026!' };
const OFFENDER = { username: '100001', password: '246810' };
const NEIGHBOUR = { username: '100002', password: '135790' };
const DATABASE = 'legal-mail-offline';

async function tabletPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 800, height: 1280 }, hasTouch: true });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await page.clock.install();
  return { context, page };
}

/** Signed in, the list saved (sealed) on the tablet. */
async function signedIn(page: Page, url: string, who: typeof OFFENDER): Promise<void> {
  await signInThroughForm(page, url, who);
  await page.getByRole('heading', { name: 'My documents' }).waitFor();
  await page.waitForFunction(
    async (name) => (await indexedDB.databases()).some((db) => db.name === name),
    DATABASE,
    { polling: 100 },
  );
}

async function lockByClock(page: Page): Promise<void> {
  await page.clock.fastForward('01:05');
  await page.getByRole('heading', { name: en.lock.title }).waitFor();
}

async function typePin(page: Page, pin: string): Promise<void> {
  await page.getByLabel(en.lock.pin).fill(pin);
  await page.getByRole('button', { name: en.lock.unlock }).click();
}

Deno.test({
  name: "upright tablet: the lock's refusals name the lock time, and a reload offline says why the PIN waits",
  ignore: !chromiumAvailable(),
  ...options,
  async fn(t) {
    assertPwaBuilt();
    const server = await startTestServer();
    const browser: Browser = await launchBrowser();
    try {
      const admin = await apiToken(server, ADMIN);
      await setNumberSettingByApi(server, admin, 'tablet_lock_minutes', 1);

      await t.step(
        'five wrong PINs online: locked for 10 minutes, said on the lock screen and at the next sign-in',
        async () => {
          const { context, page } = await tabletPage(browser);
          await signedIn(page, server.url, NEIGHBOUR);
          await lockByClock(page);
          for (let attempt = 1; attempt <= 4; attempt++) {
            await typePin(page, '000000');
            const left = 5 - attempt;
            await page.getByText(`${left} more wrong PIN${left === 1 ? '' : 's'}`).waitFor();
          }
          await typePin(page, '000000');
          const locked = en.codes.unlock_locked.replace('{{detail}}', '10');
          await page.getByText(locked).waitFor();
          // Never which PIN was right: the right one now gets the same answer.
          await typePin(page, NEIGHBOUR.password);
          await page.getByText(locked).waitFor();
          assert.equal(await page.getByText('The PIN is not correct').count(), 0);

          // Log Off, and the right PIN at the sign-in form: the lock and its time, not 'check your credentials'.
          await page.locator('section.lock-screen').getByRole('button', { name: en.common.logOff }).click();
          await page.waitForURL(/\/login$/);
          await signInThroughForm(page, server.url, NEIGHBOUR);
          await page.getByText(/Too many failed sign-ins: this account is locked for (9|10) minutes\./)
            .first()
            .waitFor();
          assert.equal(await page.getByText(en.codes.bad_credentials).count(), 0);
          await context.close();
        },
      );

      await t.step(
        'a locked tablet reloaded offline says it is offline and to sign in again once online',
        async () => {
          const { context, page } = await tabletPage(browser);
          await signedIn(page, server.url, OFFENDER);
          await page.evaluate(() => navigator.serviceWorker.ready);
          await context.setOffline(true);
          await lockByClock(page);
          // Before the reload the PIN still opens the saved mail offline: no such notice.
          assert.equal(await page.getByText(en.lock.offlineReason).count(), 0);
          await page.reload();
          await page.getByRole('heading', { name: en.lock.title }).waitFor();
          await page.getByText(en.lock.offlineReason).waitFor();
          // Back online, the PIN reopens the same session.
          await context.setOffline(false);
          await page.getByText(en.lock.offlineReason).waitFor({ state: 'hidden' });
          await typePin(page, OFFENDER.password);
          await page.locator('li.document-card').first().waitFor();
          await context.close();
        },
      );
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
