/**
 * What changes on the screen without the reader moving is said by a screen reader (WCAG 4.1.3): each of these
 * sits in a live region (aria-live, or role status, alert or log), checked in the page as it shows: the
 * offender's toasts, the lock screen, the offline banner, the viewer's page number as it changes, the staff
 * screens' antd toasts and the Upload modal's progress. Build the PWA first (npm run build).
 */
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import type { Locator, Page } from 'playwright-core';
import { apiToken, apiUpload } from '../support/api_client.ts';
import { chromiumAvailable, launchBrowser } from '../support/browser.ts';
import { makeLetterPdf } from '../support/pdfs.ts';
import { setNumberSettingByApi, signInThroughForm, tabletPage } from '../support/offline_pages.ts';
import { assertPwaBuilt, startTestServer } from '../support/server.ts';
import { DEMO_ATTORNEY, DEMO_OFFENDER } from '../support/viewer_pages.ts';

const options = { sanitizeResources: false, sanitizeOps: false };
const DEMO_ADMIN = { username: 'admin@demo.test', password: 'Demo-Admin-2026!' };

const LIVE_REGION = '[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"], [role="log"]';

/** The live region `element` sits in (itself or an ancestor): its role or aria-live, or null when none. */
function liveRegionOf(element: Locator): Promise<string | null> {
  return element.evaluate(
    (node, selector) => {
      const region = node.closest(selector);
      if (!region) return null;
      return region.getAttribute('role') ?? `aria-live=${region.getAttribute('aria-live')}`;
    },
    LIVE_REGION,
    { timeout: 2_000 },
  );
}

/**
 * Waits for `element` inside a live region, found and placed in one step: a toast lasts 2 s, and one found, then
 * looked around once it had gone, read as in no region (on a loaded machine).
 */
async function assertLive(element: Locator, what: string): Promise<void> {
  const inRegion = element.and(element.page().locator(`:is(${LIVE_REGION}), :is(${LIVE_REGION}) *`)).first();
  const seen = await inRegion.waitFor().then(() => true, () => false);
  if (!seen) {
    const shown = await element.count() > 0;
    assert.fail(`${what} ${shown ? 'is not in a live region' : 'never showed'}`);
  }
  console.log(`${what}: ${await liveRegionOf(inRegion).catch(() => 'a live region (gone since)')}`);
}

/** The region the offender's toasts go in is there before any toast: a region added with its text is not read. */
async function assertToastRegionWaits(page: Page): Promise<void> {
  // The app has rendered (the boot screen of index.html stays until the language and any session are loaded).
  await page.locator('#root form, #root main').first().waitFor();
  const region = page.locator('.toasts');
  assert.equal(await region.count(), 1);
  assert.equal(await region.getAttribute('aria-live'), 'polite');
}

Deno.test({
  name:
    'live regions: toasts, the lock screen, the offline banner, the page number and upload progress are announced',
  ignore: !chromiumAvailable(),
  ...options,
  async fn(t) {
    assertPwaBuilt();
    const server = await startTestServer();
    const browser = await launchBrowser();
    try {
      const admin = await apiToken(server, DEMO_ADMIN);
      await setNumberSettingByApi(server, admin, 'session_idle_minutes', 5);
      await setNumberSettingByApi(server, admin, 'tablet_lock_minutes', 1);
      const token = await apiToken(server, DEMO_ATTORNEY);
      const id = await apiUpload(server, token, {
        recipient: DEMO_OFFENDER.username,
        title: 'Two-page letter',
        bytes: await makeLetterPdf([['Page one.'], ['Page two.']]),
      });

      await t.step('the offender: toast, page number, lock screen, offline banner', async () => {
        const { context, page } = await tabletPage(browser, true);
        try {
          await page.goto(`${server.url}/login`);
          await assertToastRegionWaits(page);
          await signInThroughForm(page, server.url, DEMO_OFFENDER);
          await assertLive(page.locator('.toast', { hasText: 'Logged in!' }), "the offender's toast");
          await page.locator('li.document-card').first().waitFor();

          const viewer = await context.newPage();
          viewer.setDefaultTimeout(20_000);
          await viewer.goto(`${server.url}/pdfViewer/${id}`);
          await viewer.getByTestId('page-count').filter({ hasText: /\/ 2/ }).waitFor();
          await viewer.getByRole('button', { name: 'Next page' }).click();
          const announced = viewer.getByTestId('page-announcement').filter({ hasText: /2/ });
          await assertLive(announced, "the viewer's page number");
          console.log(`the page number says: ${await announced.textContent()}`);
          await viewer.close();

          await context.setOffline(true);
          await page.clock.fastForward('01:05');
          await page.getByRole('heading', { name: 'This tablet is locked' }).waitFor();
          await assertLive(page.getByRole('heading', { name: 'This tablet is locked' }), 'the lock screen');
          await assertLive(page.getByText('Enter your PIN to continue.'), "the lock screen's prompt");
          await page.getByLabel('PIN').fill(DEMO_OFFENDER.password);
          await page.getByRole('button', { name: 'Unlock' }).click();
          await assertLive(page.locator('.offline-banner-title'), 'the offline banner');
        } finally {
          await context.close();
        }
      });

      await t.step("the attorney's upload progress and toast", async () => {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        try {
          const page = await context.newPage();
          page.setDefaultTimeout(20_000);
          // The upload is held back a moment, long enough to read the progress while it shows.
          let release = () => {};
          const held = new Promise<void>((resolve) => release = resolve);
          await page.route('**/api/documents/upload', async (route) => {
            await held;
            await route.continue();
          });
          await signInThroughForm(page, server.url, DEMO_ATTORNEY);
          await page.locator('tr.document-row').first().waitFor();
          await page.getByRole('button', { name: 'Upload New Document' }).click();
          const modal = page.getByRole('dialog');
          await modal.getByLabel('Recipient DOC Number').fill(DEMO_OFFENDER.username);
          await modal.getByText(/DOC 100001/).first().waitFor();
          await modal.getByLabel('Document Title').fill('Progress letter');
          await modal.locator('input[type="file"]').setInputFiles({
            name: 'progress.pdf',
            mimeType: 'application/pdf',
            buffer: Buffer.from(await makeLetterPdf([['Progress.']])),
          });
          await page.locator('.ant-modal-footer .ant-btn-primary').click();
          await assertLive(page.locator('#upload-progress-label'), 'the upload progress');
          release();
          await assertLive(page.locator('.toast').last(), "the attorney's toast");
        } finally {
          await context.close();
        }
      });

      await t.step("the admin's antd toast", async () => {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        try {
          const page = await context.newPage();
          page.setDefaultTimeout(20_000);
          await signInThroughForm(page, server.url, DEMO_ADMIN);
          await page.waitForURL(/\/portal\/admin/);
          await page.goto(`${server.url}/portal/admin/settings`);
          await page.getByRole('button', { name: 'Edit Session idle minutes', exact: true }).click();
          await page.getByLabel('Value of Session idle minutes').fill('20');
          await page.getByRole('button', { name: 'Save Session idle minutes' }).click();
          await assertLive(page.locator('.ant-message-notice'), "the admin's toast (antd message)");
          console.log(
            `the admin's toast says: ${await page.locator('.ant-message-notice').first().textContent()}`,
          );
        } finally {
          await context.close();
        }
      });
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
