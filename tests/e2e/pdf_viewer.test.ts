/**
 * The PDF viewer (/pdfViewer/{id}) in headless Chromium against the real
 * server: documents are uploaded through the API as the demo attorney, and the
 * demo offender they are addressed to reads and prints them in the browser.
 * Build the PWA first: node_modules/.bin/vite build --config pwa/vite.config.ts
 * (PWA_DIST may point the server at another build folder).
 */
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { chooseOption } from '../support/antd_select.ts';
import { chromiumAvailable, launchBrowser, newRecordedContext } from '../support/browser.ts';
import { encryptPdf, makePdf } from '../support/pdfs.ts';
import { apiToken, apiUpload } from '../support/api_client.ts';
import { assertPwaBuilt, startTestServer } from '../support/server.ts';

const ATTORNEY = { username: 'attorney@demo.test', password: 'Demo-Attorney-2026!' };
const OFFENDER = { username: '100001', password: '246810' };

async function signIn(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/login`);
  await page.getByLabel('facility ID number').fill(OFFENDER.username);
  await page.getByLabel('Pin Number').fill(OFFENDER.password);
  await page.getByRole('button', { name: 'View Mail' }).click();
  await page.waitForURL(/\/portal/);
}

/** Replaces window.print so a test can count the calls and see what would be printed. */
const PRINT_SPY = `
  window.__prints = [];
  window.print = () => {
    const images = [...document.querySelectorAll('.viewer-print-container img')];
    window.__prints.push(images.map((image) => image.alt));
  };
`;

function prints(page: Page): Promise<string[][]> {
  return page.evaluate(() => (window as unknown as { __prints: string[][] }).__prints);
}

async function openViewer(page: Page, url: string, id: string, query = ''): Promise<void> {
  await page.goto(`${url}/pdfViewer/${id}${query}`);
  await page.getByTestId('page-count').filter({ hasText: /\/ [1-9]/ }).waitFor();
}

function screen(page: Page, attribute: string): Promise<string | null> {
  return page.locator('main.viewer-screen').getAttribute(attribute);
}

/** Retries `read` until it returns `expected` (the viewer updates after scrolling and rendering). */
async function eventually<T>(read: () => Promise<T>, expected: T, timeout = 5_000): Promise<void> {
  const deadline = Date.now() + timeout;
  let last = await read();
  while (last !== expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    last = await read();
  }
  assert.equal(last, expected);
}

async function chooseZoom(page: Page, label: string): Promise<void> {
  await chooseOption(page, page.getByRole('combobox', { name: 'Zoom' }), label);
}

/** Chooses a toolbar radio button by its accessible name (antd hides the input under its label). */
async function pick(page: Page, name: string): Promise<void> {
  await page.locator('label', { has: page.getByRole('radio', { name, exact: true }) }).click();
  assert.ok(await page.getByRole('radio', { name, exact: true }).isChecked(), name);
}

const options = { sanitizeResources: false, sanitizeOps: false };

Deno.test({
  name: 'the PDF viewer shows, navigates, zooms, lays out and prints a document',
  ignore: !chromiumAvailable(),
  ...options,
  async fn(t) {
    assertPwaBuilt();
    const server = await startTestServer();
    const browser: Browser = await launchBrowser();
    try {
      const token = await apiToken(server, ATTORNEY);
      const letter = await makePdf({ pages: 3, title: 'Appeal brief' });
      const letterId = await apiUpload(server, token, {
        recipient: OFFENDER.username,
        title: 'Appeal brief',
        bytes: letter,
      });
      const lockedId = await apiUpload(server, token, {
        recipient: OFFENDER.username,
        title: 'Locked letter',
        bytes: await encryptPdf(await makePdf({ pages: 2, title: 'Locked' }), { userPassword: '' }),
      });

      const { context, page, foreignRequests } = await newRecordedContext(browser, server.url);
      page.setDefaultTimeout(15_000);
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      page.on('console', (message) => {
        if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
      });
      const documentRequests: { url: string; range: string | null }[] = [];
      page.on('request', (request) => {
        if (/\/api\/documents\/(view|print)\//.test(request.url())) {
          documentRequests.push({ url: request.url(), range: request.headers()['range'] ?? null });
        }
      });
      await context.addInitScript(PRINT_SPY);
      // The offender's portal stays open in a tab of its own, as on the tablet: an offender's viewer shows mail
      // only while their portal is open and not locked (pwa/src/viewer/useTabletGate.ts).
      const portal = await context.newPage();
      await signIn(portal, server.url);

      await t.step('a document opens with its page count, and its worker comes from our origin', async () => {
        await openViewer(page, server.url, letterId);
        assert.equal((await page.getByTestId('page-count').textContent())?.trim(), '/ 3');
        await page.locator('.pdfViewer .page canvas').first().waitFor();
        const workers = page.workers().map((worker) => worker.url());
        assert.ok(
          workers.some((url) => /pdf\.worker[^/]*\.mjs$/.test(url)),
          `workers: ${workers.join(', ')}`,
        );
        for (const url of workers) assert.equal(new URL(url).origin, server.url, url);
        assert.ok(documentRequests.length > 0);
        assert.ok(documentRequests.every((r) => r.url.endsWith(`/api/documents/view/${letterId}`)));
      });

      await t.step('page navigation by buttons and by typing a page number', async () => {
        const pageInput = page.getByRole('spinbutton', { name: 'Page number' });
        await page.getByRole('button', { name: 'Next page' }).click();
        await eventually(() => pageInput.inputValue(), '2');
        await pageInput.fill('3');
        await pageInput.press('Enter');
        await eventually(() => pageInput.inputValue(), '3');
        assert.ok(await page.getByRole('button', { name: 'Next page' }).isDisabled());
        await page.getByRole('button', { name: 'Previous page' }).click();
        await eventually(() => pageInput.inputValue(), '2');
      });

      await t.step('zoom by the select, the buttons and Ctrl+wheel', async () => {
        await chooseZoom(page, '200%');
        await eventually(() => screen(page, 'data-scale'), '2');
        await page.getByRole('button', { name: 'Zoom in' }).click();
        await eventually(() => screen(page, 'data-scale'), '3');
        await page.getByRole('button', { name: 'Zoom out' }).click();
        await page.getByRole('button', { name: 'Zoom out' }).click();
        await eventually(() => screen(page, 'data-scale'), '1.5');
        await page.locator('.viewer-container').hover();
        await page.keyboard.down('Control');
        await page.mouse.wheel(0, -120);
        await page.keyboard.up('Control');
        await eventually(() => screen(page, 'data-scale'), '2');
        await chooseZoom(page, 'Actual size');
        await eventually(() => screen(page, 'data-scale'), '1');
        await chooseZoom(page, 'Page width');
        await eventually(async () => Number(await screen(page, 'data-scale')) > 1, true);
      });

      await t.step('rotation turns the pages', async () => {
        const firstPage = page.locator('.pdfViewer .page').first();
        const landscape = async () => {
          const box = await firstPage.boundingBox();
          return box !== null && box.width > box.height;
        };
        await chooseZoom(page, '100%');
        assert.equal(await landscape(), false);
        await page.getByRole('button', { name: 'Rotate clockwise' }).click();
        await eventually(() => screen(page, 'data-rotation'), '90');
        await eventually(landscape, true);
        await page.getByRole('button', { name: 'Rotate counterclockwise' }).click();
        await eventually(() => screen(page, 'data-rotation'), '0');
      });

      await t.step(
        'horizontal or wrapped scrolling forces single pages; dual switches back to vertical',
        async () => {
          await pick(page, 'Dual page view');
          await eventually(() => screen(page, 'data-view-mode'), 'dual');
          await page.locator('.pdfViewer .spread').first().waitFor();
          await pick(page, 'Horizontal scrolling');
          await eventually(() => screen(page, 'data-scroll-mode'), 'horizontal');
          await eventually(() => screen(page, 'data-view-mode'), 'single');
          assert.ok(await page.getByRole('radio', { name: 'Single page view' }).isChecked());
          assert.ok(await page.locator('.pdfViewer.scrollHorizontal').count() === 1);
          await pick(page, 'Dual page view');
          await eventually(() => screen(page, 'data-scroll-mode'), 'vertical');
          assert.ok(await page.getByRole('radio', { name: 'Vertical scrolling' }).isChecked());
          await pick(page, 'Wrapped scrolling');
          await eventually(() => screen(page, 'data-view-mode'), 'single');
          assert.ok(await page.locator('.pdfViewer.scrollWrapped').count() === 1);
          await pick(page, 'Vertical scrolling');
        },
      );

      await t.step('the hand tool pans instead of selecting text', async () => {
        await chooseZoom(page, '200%');
        await pick(page, 'Hand tool (drag to move)');
        const container = page.locator('.viewer-container');
        assert.equal(await container.evaluate((el) => el.classList.contains('viewer-hand')), true);
        const box = (await container.boundingBox())!;
        const scrollTop = () => container.evaluate((el) => el.scrollTop);
        const before = await scrollTop();
        await page.mouse.move(box.x + box.width / 2, box.y + box.height - 50);
        await page.mouse.down();
        await page.mouse.move(box.x + box.width / 2, box.y + 50, { steps: 5 });
        await page.mouse.up();
        assert.ok((await scrollTop()) > before + 100, 'dragging up scrolls the document down');
        await pick(page, 'Text selection tool');
        assert.equal(await page.locator('.viewer-container.viewer-hand').count(), 0);
      });

      await t.step(
        'properties list the file and the metadata set with pdf-lib (tests/support/pdfs.ts)',
        async () => {
          await page.getByRole('button', { name: 'Document properties' }).click();
          const dialog = page.getByRole('dialog', { name: 'Document Properties' });
          await dialog.getByText('Appeal brief', { exact: true }).waitFor();
          const text = await dialog.textContent();
          for (const expected of ['Test Suite', 'appeal-brief.pdf', 'Page count3', 'PDF version1.7']) {
            assert.ok(text?.includes(expected), `${expected} missing from: ${text}`);
          }
          await dialog.getByRole('button', { name: 'Close' }).last().click();
          await dialog.waitFor({ state: 'hidden' });
        },
      );

      await t.step('download, open, search, full screen and theme controls are absent', async () => {
        for (
          const name of [
            /download/i,
            /save/i,
            /open/i,
            /find|search/i,
            /full ?screen|presentation/i,
            /theme/i,
          ]
        ) {
          assert.equal(
            await page.getByRole('toolbar').getByRole('button', { name }).count(),
            0,
            String(name),
          );
        }
      });

      await t.step(
        'printing a page range renders only those pages, then opens the print dialog',
        async () => {
          await page.getByRole('button', { name: 'Print' }).click();
          const dialog = page.getByRole('dialog', { name: 'Print' });
          await dialog.getByLabel('Page range').fill('3, 1-1, 9');
          await dialog.getByRole('button', { name: 'Print' }).click();
          await page.waitForFunction(() =>
            (window as unknown as { __prints: unknown[] }).__prints.length === 1
          );
          assert.deepEqual(await prints(page), [['Page 1', 'Page 3']]);
          // The pages printed were read from the print URL, so the API records a print.
          assert.ok(documentRequests.some((r) => r.url.endsWith(`/api/documents/print/${letterId}`)));
        },
      );

      await t.step('Ctrl+P runs the viewer print (all pages)', async () => {
        await page.locator('.viewer-container').click();
        await page.keyboard.press('Control+p');
        const dialog = page.getByRole('dialog', { name: 'Print' });
        await dialog.getByRole('radio', { name: 'All pages' }).waitFor();
        await dialog.getByRole('button', { name: 'Print' }).click();
        await page.waitForFunction(() =>
          (window as unknown as { __prints: unknown[] }).__prints.length === 2
        );
        assert.deepEqual((await prints(page))[1], ['Page 1', 'Page 2', 'Page 3']);
      });

      await t.step('?print=1 reads the print URL and prints every page by itself', async () => {
        documentRequests.length = 0;
        await openViewer(page, server.url, letterId, '?print=1');
        await page.waitForFunction(() =>
          (window as unknown as { __prints: unknown[] }).__prints.length === 1
        );
        assert.deepEqual(await prints(page), [['Page 1', 'Page 2', 'Page 3']]);
        assert.ok(documentRequests.length > 0);
        assert.ok(documentRequests.every((r) => r.url.includes(`/api/documents/print/${letterId}`)));
      });

      await t.step('a PDF that forbids printing says so, and nothing is printed', async () => {
        await openViewer(page, server.url, lockedId);
        assert.equal((await page.getByTestId('page-count').textContent())?.trim(), '/ 2');
        await page.getByRole('button', { name: 'Print' }).click();
        const refusal = page.getByText('The document does not allow to print');
        await refusal.waitFor();
        await page.getByRole('dialog').getByRole('button', { name: 'Close' }).last().click();
        await refusal.waitFor({ state: 'hidden' });
        await openViewer(page, server.url, lockedId, '?print=1');
        await refusal.waitFor();
        assert.deepEqual(await prints(page), []);
      });

      await t.step(
        'a large document is read in ranges, so page 1 shows before the rest arrives',
        async () => {
          const bigId = await apiUpload(server, token, {
            recipient: OFFENDER.username,
            title: 'Large exhibit',
            bytes: await makePdf({ pages: 2, padTo: 6_000_000 }),
          });
          const partial: number[] = [];
          const onResponse = (response: { url(): string; status(): number }) => {
            if (response.url().endsWith(`/api/documents/view/${bigId}`) && response.status() === 206) {
              partial.push(response.status());
            }
          };
          page.on('response', onResponse);
          await openViewer(page, server.url, bigId);
          await page.locator('.pdfViewer .page canvas').first().waitFor();
          page.off('response', onResponse);
          assert.ok(partial.length > 0, 'pdf.js asked for byte ranges (206)');
        },
      );

      await t.step('an unknown document shows the load error', async () => {
        await page.goto(`${server.url}/pdfViewer/999999999`);
        await page.getByText('Error: Failed to load document').waitFor();
        // Opened to print, the spec's printing text.
        await page.goto(`${server.url}/pdfViewer/999999999?print=1`);
        await page.getByText('Error: Failed to load document for printing', { exact: true }).waitFor();
      });

      await t.step('no document id shows the spec message', async () => {
        await page.goto(`${server.url}/pdfViewer`);
        await page.getByText('No document ID provided').waitFor();
      });

      await context.close();
      assert.deepEqual(foreignRequests, [], 'no request may leave the app origin');
      assert.deepEqual(problems, [], 'no page error or CSP violation');
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
