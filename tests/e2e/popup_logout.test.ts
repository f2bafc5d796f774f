/**
 * The shared tablet: the viewer pop-up does not outlive its session. An offender opens a
 * document in the viewer pop-up; the session then ends in the main window (Log Off, or a 401 after the session
 * was revoked on the server) and the pop-up closes within 2 s. Build the PWA first:
 * node_modules/.bin/vite build --config pwa/vite.config.ts (PWA_DIST may point the server at another build).
 */
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { chromiumAvailable, launchBrowser, newRecordedContext } from '../support/browser.ts';
import { makePdf } from '../support/pdfs.ts';
import { apiToken, apiUpload } from '../support/api_client.ts';
import { assertPwaBuilt, startTestServer } from '../support/server.ts';
import { storedSession } from '../support/offline_pages.ts';

const ATTORNEY = { username: 'attorney@demo.test', password: 'Demo-Attorney-2026!' };
const OFFENDER = { username: '100001', password: '246810' };

/** The pop-up is gone (or shows the sign-in screen) within 2 s. */
const CLOSE_WITHIN_MS = 2_000;

async function signIn(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/login`);
  await page.getByLabel('facility ID number').fill(OFFENDER.username);
  await page.getByLabel('Pin Number').fill(OFFENDER.password);
  await page.getByRole('button', { name: 'View Mail' }).click();
  await page.waitForURL(/\/portal/);
}

/** Opens `title` in the viewer pop-up from the offender's table and waits for its pages. */
async function openInViewer(page: Page, title: string): Promise<Page> {
  await page.getByLabel('Search:').fill(title);
  const row = page.getByRole('row', { name: new RegExp(title) });
  await row.waitFor();
  const popup = page.waitForEvent('popup');
  await row.getByRole('button', { name: `View ${title}` }).click();
  const viewer = await popup;
  await viewer.waitForURL(/\/pdfViewer\/[^/?]+$/, { timeout: 10_000 });
  await viewer.getByTestId('page-count').filter({ hasText: '/ 2' }).waitFor({ timeout: 20_000 });
  return viewer;
}

/** Resolves with the milliseconds the pop-up took to close or show the sign-in screen; fails past `limit`. */
async function goneWithin(viewer: Page, since: number, limit: number): Promise<number> {
  while (Date.now() - since < limit) {
    if (viewer.isClosed()) return Date.now() - since;
    const path = await viewer.evaluate(() => location.pathname).catch(() => null);
    if (path === '/login') return Date.now() - since;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.fail(
    `the viewer pop-up still shows ${viewer.isClosed() ? 'nothing' : viewer.url()} after ${limit} ms`,
  );
}

const options = { sanitizeResources: false, sanitizeOps: false };

Deno.test({
  name: 'the viewer pop-up closes when the session ends in the main window (Log Off, a 401)',
  ignore: !chromiumAvailable(),
  ...options,
  async fn(t) {
    assertPwaBuilt();
    const server = await startTestServer();
    const browser: Browser = await launchBrowser();
    try {
      const token = await apiToken(server, ATTORNEY);
      await apiUpload(server, token, {
        recipient: OFFENDER.username,
        title: 'Privileged letter',
        bytes: await makePdf({ pages: 2, title: 'Privileged letter' }),
      });

      await t.step('Log Off in the main window closes the viewer pop-up within 2 s', async () => {
        const { context, page } = await newRecordedContext(browser, server.url);
        page.setDefaultTimeout(15_000);
        await signIn(page, server.url);
        const viewer = await openInViewer(page, 'Privileged letter');
        const since = Date.now();
        await page.getByRole('button', { name: 'Log Off' }).click();
        const took = await goneWithin(viewer, since, CLOSE_WITHIN_MS);
        console.log(`viewer pop-up gone ${took} ms after Log Off`);
        await page.waitForURL(/\/logout$|\/login$|\/$/);
        await context.close();
      });

      await t.step('a 401 in the main window (session revoked on the server) closes it too', async () => {
        const { context, page } = await newRecordedContext(browser, server.url);
        page.setDefaultTimeout(15_000);
        await signIn(page, server.url);
        const viewer = await openInViewer(page, 'Privileged letter');
        // The session ends elsewhere (an admin, the idle timeout): the server answers the next call with 401.
        const guid = (await storedSession(page)).guid;
        const out = await fetch(`${server.url}/api/auth/logout`, {
          method: 'POST',
          headers: { authorization: `Bearer ${guid}` },
        });
        assert.equal(out.status, 200);
        await out.body?.cancel();
        const since = Date.now();
        await page.reload();
        const took = await goneWithin(viewer, since, CLOSE_WITHIN_MS + 3_000);
        console.log(`viewer pop-up gone ${took} ms after the reload that met the 401`);
        await page.waitForURL(/\/login$/);
        await context.close();
      });
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
