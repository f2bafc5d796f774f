/**
 * What a person meets on a first visit, each where it was met: the sign-in screen tells staff which
 * credentials are theirs; a signed-in user who opens an unknown address lands in their own portal; on the
 * offender's tablet a dropped network is said at once, over the list on screen, and Info says plainly that the
 * receipt needs the network; a new page of the list starts at the top of the screen.
 * Build the PWA first: node_modules/.bin/vite build --config pwa/vite.config.ts.
 */
import assert from 'node:assert/strict';
import { chromiumAvailable, launchBrowser } from '../support/browser.ts';
import { makePdf } from '../support/pdfs.ts';
import { apiToken, apiUpload } from '../support/api_client.ts';
import { signInThroughForm } from '../support/offline_pages.ts';
import { assertPwaBuilt, startTestServer } from '../support/server.ts';

const ATTORNEY = { username: 'attorney@demo.test', password: 'Demo-Attorney-2026!' };
const OFFENDER = { username: '100001', password: '246810' };

Deno.test({
  name:
    'first visit: the staff hint, unknown addresses, the offline banner at once, Info offline, paging to the top',
  ignore: !chromiumAvailable(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    assertPwaBuilt();
    const server = await startTestServer();
    const browser = await launchBrowser();
    try {
      await t.step('the sign-in screen says what staff sign in with, under the spec’s fields', async () => {
        const page = await browser.newPage();
        await page.goto(`${server.url}/login`);
        await page.getByText('Attorneys and staff: use your e-mail and password.', { exact: true }).waitFor();
        await page.getByLabel('facility ID number').waitFor();
        await page.close();
      });

      await t.step('a signed-in attorney who opens an unknown address lands in their portal', async () => {
        const context = await browser.newContext();
        const page = await context.newPage();
        page.setDefaultTimeout(15_000);
        await signInThroughForm(page, server.url, ATTORNEY);
        await page.waitForURL(/\/portal\/attorney/);
        await page.goto(`${server.url}/no/such/page`);
        await page.waitForURL(/\/portal\/attorney/);
        await context.close();
        // Signed out, the same address asks for a sign-in.
        const stranger = await browser.newPage();
        await stranger.goto(`${server.url}/no/such/page`);
        await stranger.waitForURL(/\/login$/);
        await stranger.close();
      });

      await t.step(
        'an attorney on a phone: a card per document, its actions and the empty list on screen',
        async () => {
          const phone = await browser.newContext({
            viewport: { width: 390, height: 844 },
            hasTouch: true,
            isMobile: true,
          });
          const page = await phone.newPage();
          page.setDefaultTimeout(15_000);
          await signInThroughForm(page, server.url, ATTORNEY);
          await page.waitForURL(/\/portal\/attorney/);
          const card = page.getByRole('article', { name: 'Case status update', exact: true });
          for (const action of ['View', 'Print', 'Info', 'Withdraw']) {
            const button = card.getByRole('button', { name: `${action} Case status update`, exact: true });
            await button.scrollIntoViewIfNeeded();
            const box = await button.boundingBox();
            assert.ok(
              box && box.x >= 0 && box.x + box.width <= 390,
              `${action} is on screen: ${JSON.stringify(box)}`,
            );
          }
          assert.ok(
            await page.evaluate(() =>
              document.documentElement.scrollWidth <= document.documentElement.clientWidth
            ),
            'nothing scrolls sideways',
          );
          await page.getByLabel('Search:').fill('no such letter');
          const empty = page.getByText('No documents found', { exact: true });
          await empty.waitFor();
          assert.ok(await empty.isVisible());
          await phone.close();
        },
      );

      await t.step(
        'the offender’s tablet: offline said at once, Info offline, a new page from the top',
        async () => {
          const attorney = await apiToken(server, ATTORNEY);
          // Enough letters for a second page of ten.
          for (let n = 1; n <= 9; n++) {
            await apiUpload(server, attorney, {
              recipient: OFFENDER.username,
              title: `Letter ${n}`,
              description: 'About the hearing.',
              bytes: await makePdf({}),
            });
          }
          const context = await browser.newContext({
            viewport: { width: 1280, height: 600 },
            hasTouch: true,
            timezoneId: 'UTC',
            locale: 'en-US',
          });
          const page = await context.newPage();
          page.setDefaultTimeout(15_000);
          await signInThroughForm(page, server.url, OFFENDER);
          await page.getByRole('heading', { level: 2, name: 'My documents' }).waitFor();
          await page.getByText(/Showing 1 to 10 of \d+ entries/).waitFor();

          await page.getByRole('button', { name: 'Page 2', exact: true }).scrollIntoViewIfNeeded();
          assert.ok(await page.evaluate(() => scrollY) > 0, 'the pager is below the first screen');
          await page.getByRole('button', { name: 'Page 2', exact: true }).click();
          await page.getByText(/Showing 11 to \d+ of \d+ entries/).waitFor();
          assert.equal(await page.evaluate(() => scrollY), 0, 'page 2 starts at the top of the screen');

          await context.setOffline(true);
          const banner = page.locator('.offline-banner');
          await banner.waitFor();
          assert.match(
            (await banner.textContent()) ?? '',
            /^You are offline — showing the list saved [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M/,
          );
          await page.getByRole('button', { name: /^Info / }).first().click();
          await page.getByText('The receipt is not available offline.', { exact: true }).waitFor();
          assert.equal(await page.getByText('Failed to load the delivery receipt').count(), 0);
          await context.close();
        },
      );
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
