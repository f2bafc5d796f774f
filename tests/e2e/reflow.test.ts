/**
 * Reflow (WCAG 1.4.10) and text resized to 200 % (1.4.4) on the offender's tablet: the sign-in screen, the
 * document list and the viewer at 320 CSS px wide, and the list as a 1280x800 screen shows it at 200 % zoom, all
 * without sideways scrolling (the page's scroll width is not above its width). Browser zoom is not
 * deviceScaleFactor: that only draws each CSS px with more device pixels and leaves the layout as it is. Zoom
 * at 200 % halves the CSS px a window is wide and high, so a 1280x800 screen at 200 % lays out as a 640x400
 * viewport does: that is how it is emulated here. The list with the header's Larger text on fits as well.
 * Build the PWA first (npm run build).
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { apiToken, apiUpload } from '../support/api_client.ts';
import { chromiumAvailable, launchBrowser } from '../support/browser.ts';
import { makeLetterPdf } from '../support/pdfs.ts';
import { assertPwaBuilt, startTestServer } from '../support/server.ts';
import { DEMO_ATTORNEY, DEMO_OFFENDER } from '../support/viewer_pages.ts';
import { signInThroughForm } from '../support/offline_pages.ts';

const options = { sanitizeResources: false, sanitizeOps: false };

/** The page's scroll and client widths, with what sticks out on the right when it scrolls sideways. */
async function assertNoSidewaysScroll(page: Page, where: string): Promise<void> {
  const measured = await page.evaluate(() => {
    const root = document.scrollingElement!;
    const outside = [...document.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > root.clientWidth + 1)
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}.${element.getAttribute('class') ?? ''}`);
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, outside };
  });
  console.log(`${where}: scroll width ${measured.scrollWidth}, width ${measured.clientWidth}`);
  assert.ok(
    measured.scrollWidth <= measured.clientWidth,
    `${where} scrolls sideways: ${JSON.stringify(measured)}`,
  );
}

/** The screens: 320 CSS px wide (a phone-sized window, or 1280 px at 400 %), and 1280x800 at 200 %. */
const SCREENS = [
  { name: '320 CSS px wide', viewport: { width: 320, height: 640 } },
  { name: '1280x800 at 200 % zoom', viewport: { width: 640, height: 400 } },
] as const;

Deno.test({
  name:
    'reflow: sign-in, the offender list and the viewer fit 320 CSS px and 200 % zoom without sideways scrolling',
  ignore: !chromiumAvailable(),
  ...options,
  async fn(t) {
    assertPwaBuilt();
    const server = await startTestServer();
    const browser = await launchBrowser();
    try {
      const token = await apiToken(server, DEMO_ATTORNEY);
      const id = await apiUpload(server, token, {
        recipient: DEMO_OFFENDER.username,
        title: 'A letter with a rather long title that has to wrap on a narrow screen',
        description: 'Read it before the hearing.',
        bytes: await makeLetterPdf([['Page one of the letter.'], ['Page two.']]),
      });
      for (const screen of SCREENS) {
        await t.step(screen.name, async () => {
          const context = await browser.newContext({ viewport: screen.viewport, hasTouch: true });
          try {
            const page = await context.newPage();
            page.setDefaultTimeout(20_000);
            await page.goto(`${server.url}/login`);
            await page.locator('#login_username').waitFor();
            await assertNoSidewaysScroll(page, `sign-in, ${screen.name}`);

            await signInThroughForm(page, server.url, DEMO_OFFENDER);
            await page.waitForURL(/\/portal\/offender/);
            await page.locator('.document-card, tr.document-row').first().waitFor();
            await assertNoSidewaysScroll(page, `offender list, ${screen.name}`);
            // Larger text in the header: the text grows a quarter and still fits the width.
            const title = page.locator('.document-card-title, tr.document-row td').first();
            const before = (await title.boundingBox())!.height;
            const larger = page.getByRole('button', { name: 'Larger text' });
            const fill = () => larger.evaluate((element) => getComputedStyle(element).backgroundColor);
            const offFill = await fill();
            await larger.click();
            assert.equal(await larger.getAttribute('aria-pressed'), 'true');
            assert.notEqual(
              await fill(),
              offFill,
              'on, the button is filled: not told by a thin border only',
            );
            const after = (await title.boundingBox())!.height;
            console.log(`larger text: a title ${before.toFixed(1)} px high, then ${after.toFixed(1)} px`);
            assert.ok(after >= before * 1.2, `the text grew: ${before} -> ${after}`);
            await assertNoSidewaysScroll(page, `offender list with larger text, ${screen.name}`);
            await larger.click();
            assert.equal(await larger.getAttribute('aria-pressed'), 'false');
            // Info opened on the narrow screen fits too.
            await page.getByRole('button', { name: /^Info A letter/ }).click();
            await page.locator('dialog.info-dialog[open] .info-receipt-heading').first().waitFor();
            await assertNoSidewaysScroll(page, `offender Info, ${screen.name}`);
            await page.keyboard.press('Escape');

            // The viewer in a tab of its own, the portal open beside it (as the tablet has them).
            const viewer = await context.newPage();
            viewer.setDefaultTimeout(20_000);
            await viewer.goto(`${server.url}/pdfViewer/${id}`);
            await viewer.getByTestId('page-count').filter({ hasText: /\/ 2/ }).waitFor();
            await viewer.locator('.pdfViewer .page canvas').first().waitFor();
            await assertNoSidewaysScroll(viewer, `viewer, ${screen.name}`);
          } finally {
            await context.close();
          }
        });
      }
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});

Deno.test({
  name:
    "Larger text is kept with its owner, not with the tablet: a reload keeps it, the next person starts without it, and it is back at the owner's next sign-in",
  ignore: !chromiumAvailable(),
  ...options,
  async fn() {
    assertPwaBuilt();
    const server = await startTestServer();
    const browser = await launchBrowser();
    const next = { username: '100002', password: '135790' };
    try {
      const context = await browser.newContext({ viewport: { width: 800, height: 1280 }, hasTouch: true });
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      const larger = page.getByRole('button', { name: 'Larger text' });
      const signInAs = async (who: { username: string; password: string }) => {
        await signInThroughForm(page, server.url, who);
        await page.waitForURL(/\/portal\/offender/);
        await larger.waitFor();
      };
      const logOff = async () => {
        await page.getByRole('button', { name: 'Log Off' }).click();
        await page.waitForURL(/\/login$/);
      };
      const saved = page.waitForResponse((r) =>
        r.url().endsWith('/api/auth/preferences') && r.status() === 200
      );
      await signInAs(DEMO_OFFENDER);
      assert.equal(await larger.getAttribute('aria-pressed'), 'false');
      await larger.click();
      await saved;
      assert.equal(await page.locator('.tablet-larger-text').count(), 1);
      await page.reload();
      await larger.waitFor();
      assert.equal(await larger.getAttribute('aria-pressed'), 'true', 'a reload keeps it');
      await logOff();

      await signInAs(next);
      assert.equal(
        await larger.getAttribute('aria-pressed'),
        'false',
        'the next person starts at the usual size',
      );
      assert.equal(await page.locator('.tablet-larger-text').count(), 0);
      await logOff();

      await signInAs(DEMO_OFFENDER);
      assert.equal(await larger.getAttribute('aria-pressed'), 'true', "back at the owner's next sign-in");
      await context.close();
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
