/**
 * What the offender's tablet (upright, 800×1280) says when it comes back without the network, in Chromium against
 * the real server, the network cut with Playwright's `context.setOffline(true)`:
 * - the offender opens a document, and the tablet is reloaded offline: the letters are kept on the tablet but the
 *   reload forgot their key, which only the server gives back. The screen says so, in the language shown (English,
 *   then Spanish): locked, open again when the network returns. No 'No documents found', no error toast. With
 *   the network back and the PIN typed, the list returns and nothing says 'offline' any more;
 * - the PIN opened the saved copy offline while the server already held the session locked: when the network
 *   returns, the server's 423 brings the lock screen instead of an 'offline' banner that stays, and the PIN
 *   typed online brings the live list back.
 * Build the PWA first (npm run build).
 */
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { apiToken } from '../support/api_client.ts';
import { chromiumAvailable, launchBrowser } from '../support/browser.ts';
import { setNumberSettingByApi, signInThroughForm, tabletPage } from '../support/offline_pages.ts';
import { assertPwaBuilt, startTestServer } from '../support/server.ts';
import en from '../../pwa/src/i18n/en.json' with { type: 'json' };
import es from '../../pwa/src/i18n/es.json' with { type: 'json' };

const options = { sanitizeResources: false, sanitizeOps: false };
const ADMIN = { username: 'admin@demo.test', password: 'Demo-Admin-2026!' };
/** The demo's first offender: has mail. */
const OFFENDER = { username: '100001', password: '246810' };
const DATABASE = 'legal-mail-offline';

type Catalogue = typeof en;

/** Signed in through the form in `texts`' language; the list on screen from the network and saved on the tablet. */
async function signedIn(page: Page, url: string, texts: Catalogue): Promise<void> {
  if (texts === en) {
    await signInThroughForm(page, url, OFFENDER);
  } else {
    await page.goto(`${url}/login`);
    await page.getByRole('button', { name: 'Español' }).click();
    await page.getByLabel(texts.login.username).fill(OFFENDER.username);
    await page.getByLabel(texts.login.password).fill(OFFENDER.password);
    await page.getByRole('button', { name: texts.login.submit }).click();
  }
  await page.getByRole('heading', { name: texts.offender.heading }).waitFor();
  await page.locator('li.document-card').first().waitFor();
  await page.waitForFunction(
    async (name) => (await indexedDB.databases()).some((db) => db.name === name),
    DATABASE,
    { polling: 100 },
  );
  // The shell must come from the service worker when the page is reloaded offline.
  await page.evaluate(() => navigator.serviceWorker.ready);
}

/** View on the first card: the viewer pop-up shows the document, then is closed. */
async function openFirstDocument(page: Page, texts: Catalogue): Promise<void> {
  const [popup] = await Promise.all([
    page.context().waitForEvent('page'),
    page.locator('li.document-card').first().getByRole('button', { name: texts.list.view }).click(),
  ]);
  await popup.getByTestId('page-count').waitFor();
  await popup.close();
}

async function typePin(page: Page, texts: Catalogue): Promise<void> {
  await page.getByLabel(texts.lock.pin).fill(OFFENDER.password);
  await page.getByRole('button', { name: texts.lock.unlock }).click();
}

/** The live list is back and nothing on screen says the tablet is offline. */
async function liveAgain(page: Page, texts: Catalogue): Promise<void> {
  await page.locator('li.document-card').first().waitFor();
  await page.locator('.offline-banner').waitFor({ state: 'detached' });
  const shown = (await page.locator('body').innerText()).toLowerCase();
  for (const word of ['offline', texts.offline.staffOffline.toLowerCase()]) {
    assert.ok(!shown.includes(word), `'${word}' still on screen: ${shown}`);
  }
  assert.equal(await page.getByText(texts.lock.offlineReason).count(), 0);
}

async function reloadOfflineThenUnlock(browser: Browser, url: string, texts: Catalogue): Promise<void> {
  const { context, page } = await tabletPage(browser);
  try {
    await signedIn(page, url, texts);
    await openFirstDocument(page, texts);
    await context.setOffline(true);
    await page.reload();
    // The truth: the letters are kept, locked, until the network returns.
    await page.getByRole('heading', { name: texts.lock.title }).waitFor();
    await page.getByText(texts.lock.offlineReason).waitFor();
    assert.equal(await page.getByText(texts.list.empty).count(), 0, 'no "No documents found"');
    assert.equal(await page.getByText(texts.offline.listNotSaved).count(), 0, 'no "no list is saved"');
    assert.equal(await page.locator('.toast-error').count(), 0, 'no error toast');
    assert.equal(await page.locator('li.document-card').count(), 0, 'the locked letters are not shown');

    // The network returns: the PIN, checked by the server, opens the letters again.
    await context.setOffline(false);
    await page.getByText(texts.lock.offlineReason).waitFor({ state: 'hidden' });
    await typePin(page, texts);
    await liveAgain(page, texts);
    assert.equal(await page.locator('.toast-error').count(), 0, 'no error toast');
  } finally {
    await context.close();
  }
}

Deno.test({
  name:
    'upright tablet reloaded offline: the letters are kept but locked until the network returns, then the PIN',
  ignore: !chromiumAvailable(),
  ...options,
  async fn(t) {
    assertPwaBuilt();
    const server = await startTestServer();
    const browser: Browser = await launchBrowser();
    try {
      await t.step('in English', () => reloadOfflineThenUnlock(browser, server.url, en));
      await t.step('in Spanish', () => reloadOfflineThenUnlock(browser, server.url, es as Catalogue));

      await t.step(
        'unlocked offline while the server holds the lock: the network back brings the lock screen, the PIN the list',
        async () => {
          const admin = await apiToken(server, ADMIN);
          await setNumberSettingByApi(server, admin, 'tablet_lock_minutes', 1);
          const { context, page } = await tabletPage(browser, true);
          try {
            await signedIn(page, server.url, en);
            // Locked online: the server hears of it.
            const lockHeard = page.waitForResponse((response) =>
              response.url().endsWith('/api/auth/lock') && response.ok()
            );
            await page.clock.fastForward('01:05');
            await page.getByRole('heading', { name: en.lock.title }).waitFor();
            await lockHeard;
            // Offline, the PIN opens the saved copy (the key wrapped in this window's memory).
            await context.setOffline(true);
            await typePin(page, en);
            await page.locator('li.document-card').first().waitFor();
            await page.locator('.offline-banner').waitFor();
            // The network returns: the server still holds the lock, so the lock screen, not a banner that stays.
            await context.setOffline(false);
            await page.getByRole('heading', { name: en.lock.title }).waitFor();
            await typePin(page, en);
            await liveAgain(page, en);
          } finally {
            await context.close();
          }
        },
      );
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
