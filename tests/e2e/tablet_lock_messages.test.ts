/**
 * What the offender's tablet (upright, 800×1280) says around its lock, in Chromium against the real server (lock
 * time 1 minute, the setting's floor; the page's clock moved on by Playwright):
 * - wrong PINs on the lock screen, online: after the free tries the refusal says how many seconds to wait (the
 *   account's growing delay, never a 10-minute lock), the right PIN meanwhile gets the same answer, not that it
 *   is wrong, and so does a sign-in with it; once the wait has passed (real seconds) the right PIN gets in;
 * - a locked tablet reloaded without the network says why the PIN cannot be checked (the letters are kept but
 *   locked until the network returns, then the PIN), not only 'This tablet is locked'.
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

/**
 * Sends wrong PINs for `username` to the API, each once the account's last wait has run out, until the wait is at
 * least `seconds` (the delays double: 5, 10, 20 s).
 */
async function growWait(url: string, username: string, seconds: number): Promise<void> {
  for (;;) {
    const response = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password: '000000' }),
    });
    const { code } = await response.json();
    const wait = Number(response.headers.get('retry-after') ?? 0);
    if (code === 'sign_in_wait' && wait >= seconds) return;
    assert.ok(code === 'sign_in_wait' || code === 'bad_credentials', `unexpected answer ${code}`);
    await new Promise((resolve) => setTimeout(resolve, wait * 1000 + 300));
  }
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
  name:
    "upright tablet: the lock's refusals say how long to wait, and a reload offline says why the PIN waits",
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
        "wrong PINs online: the wait in seconds, said on the lock screen and at the sign-in; then the owner's PIN gets in",
        async () => {
          const { context, page } = await tabletPage(browser);
          await signedIn(page, server.url, NEIGHBOUR);
          await lockByClock(page);
          // Two mistyped PINs cost nothing and the third starts the wait; each says how many the tablet allows.
          for (let attempt = 1; attempt <= 3; attempt++) {
            await typePin(page, '000000');
            const left = 5 - attempt;
            await page.getByText(`${left} more wrong PIN${left === 1 ? '' : 's'}`).waitFor();
          }
          const waitText = /Too many wrong PINs\. Please wait [1-5] seconds? and enter your PIN again\./;
          await typePin(page, '000000');
          await page.getByText(waitText).waitFor();
          // Never which PIN was right: the right one now gets the same answer.
          await typePin(page, NEIGHBOUR.password);
          await page.getByText(waitText).waitFor();
          assert.equal(await page.getByText('The PIN is not correct').count(), 0);
          assert.equal(await page.getByText(/locked for/).count(), 0, 'no lock, only a wait');

          // Log Off, and the right PIN at the sign-in form: the wait, not 'check your credentials'. A loaded machine
          // can take longer than the 5 s wait to get there, so the wait is first grown to 20 s (wrong PINs sent
          // as each wait runs out, as a guesser would).
          await growWait(server.url, NEIGHBOUR.username, 20);
          await page.locator('section.lock-screen').getByRole('button', { name: en.common.logOff }).click();
          await page.waitForURL(/\/login$/);
          await signInThroughForm(page, server.url, NEIGHBOUR);
          const formWait = page.getByText(
            /Too many failed sign-ins for this account\. Please wait \d+ seconds? and try again\./,
          ).first();
          await formWait.waitFor();
          assert.equal(await page.getByText(en.codes.bad_credentials).count(), 0);
          // Waited in real time (the server's clock), the PIN gets in.
          const left = Number(/wait (\d+) second/.exec(await formWait.innerText())![1]);
          await new Promise((resolve) => setTimeout(resolve, left * 1000 + 500));
          await signedIn(page, server.url, NEIGHBOUR);
          await context.close();
        },
      );

      await t.step(
        'a locked tablet reloaded offline says the letters are kept but locked until the network returns',
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
