/**
 * Finding the newest letter on a tablet held upright (800x1280, a card per document): the cards have a Sort by
 * list with the table's orders, letters that arrived on the same day show their time, and a letter the
 * offender has not opened yet is bold and marked New until they open it (on any device: the server's read time).
 * Build the PWA first: node_modules/.bin/vite build --config pwa/vite.config.ts.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { chromiumAvailable, launchBrowser } from '../support/browser.ts';
import { makePdf } from '../support/pdfs.ts';
import { apiToken, apiUpload } from '../support/api_client.ts';
import { assertPwaBuilt, startTestServer } from '../support/server.ts';

const ATTORNEY = { username: 'attorney@demo.test', password: 'Demo-Attorney-2026!' };
const OFFENDER = { username: '100001', password: '246810' };
const LETTERS = ['Appeal brief', 'Zoning letter', 'Motion to reopen'] as const;

async function signIn(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/login`);
  await page.getByLabel('facility ID number').fill(OFFENDER.username);
  await page.getByLabel('Pin Number').fill(OFFENDER.password);
  await page.getByRole('button', { name: 'View Mail' }).tap();
  await page.waitForURL(/\/portal\/offender/);
}

/** The card headings, top to bottom. */
function cardTitles(page: Page): Promise<string[]> {
  return page.locator('.document-card h3').allTextContents();
}

Deno.test({
  name: 'on an upright tablet the newest letter is found: a Sort by list, the time on shared days, New marks',
  ignore: !chromiumAvailable(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    assertPwaBuilt();
    const server = await startTestServer();
    const browser = await launchBrowser();
    try {
      const attorney = await apiToken(server, ATTORNEY);
      const ids: string[] = [];
      // Uploaded in this order, so the last is the newest.
      for (const title of LETTERS) {
        ids.push(
          await apiUpload(server, attorney, {
            recipient: OFFENDER.username,
            title,
            bytes: await makePdf({}),
          }),
        );
      }
      // The offender read the first one elsewhere (another tablet): the server's read time says so.
      const offender = await apiToken(server, OFFENDER);
      const read = await fetch(`${server.url}/api/documents/view/${ids[0]}`, {
        headers: { Authorization: `Bearer ${offender}` },
      });
      assert.equal(read.status, 200);
      await read.arrayBuffer();
      // Read means shown: the viewer there reported that it showed the letter.
      const shown = await fetch(`${server.url}/api/documents/shown/${ids[0]}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${offender}` },
      });
      assert.equal(shown.status, 200);
      await shown.body?.cancel();

      const context = await browser.newContext({
        viewport: { width: 800, height: 1280 },
        hasTouch: true,
        isMobile: true,
        timezoneId: 'UTC',
        locale: 'en-US',
      });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await signIn(page, server.url);
      await page.getByRole('article', { name: LETTERS[2], exact: true }).waitFor();

      // The spec's default order (by name) stays the default, and the picker says so.
      const sort = page.getByLabel('Sort by');
      assert.equal(await sort.inputValue(), 'name:asc');
      const byName = await cardTitles(page);
      assert.deepEqual(byName, [...byName].sort((a, b) => a.localeCompare(b, 'en-US')));

      // Newest first puts the last upload at the top.
      await sort.selectOption({ label: 'Date Received: newest first' });
      await page.waitForFunction(
        (newest) => document.querySelector('.document-card h3')?.textContent === newest,
        LETTERS[2],
      );
      assert.equal(await sort.locator('option').count(), 8, 'name, date, pages and delete date, both ways');

      // All arrived today: each card's Date Received carries its time.
      const newest = page.getByRole('article', { name: LETTERS[2], exact: true });
      const dateShown = await newest.locator('dt', { hasText: 'Date Received' }).locator('+ dd')
        .textContent();
      assert.match(dateShown ?? '', /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M$/);

      // Unread letters are bold and marked New; the one read elsewhere is not.
      const readCard = page.getByRole('article', { name: LETTERS[0], exact: true });
      assert.equal(await readCard.getByText('New', { exact: true }).count(), 0);
      await newest.getByText('New', { exact: true }).waitFor();
      const weight = (card: typeof newest) =>
        card.getByRole('heading').evaluate((heading) => Number(getComputedStyle(heading).fontWeight));
      assert.ok(
        (await weight(newest)) > (await weight(readCard)),
        'an unread title is bolder than a read one',
      );

      // Opening it here takes the mark off at once.
      const popup = page.waitForEvent('popup');
      await newest.getByRole('button', { name: `View ${LETTERS[2]}`, exact: true }).tap();
      await (await popup).close();
      await page.waitForFunction(
        (name) =>
          [...document.querySelectorAll('.document-card')].find((card) =>
            card.querySelector('h3')?.textContent === name
          )?.querySelector('.tag.unread') === null,
        LETTERS[2],
      );
      await context.close();
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
