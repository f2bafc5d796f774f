/**
 * The viewer's pages on every screen: each page keeps its shape in every view mode and at every zoom, and a
 * rotation or a zoom leaves the reader on the page they were reading. Build the PWA first (npm run build).
 */
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { chromiumAvailable, launchBrowser } from '../support/browser.ts';
import { apiToken, apiUpload } from '../support/api_client.ts';
import { makePdf } from '../support/pdfs.ts';
import { assertPwaBuilt, startTestServer, type TestServer } from '../support/server.ts';
import {
  chooseZoom,
  DEMO_ATTORNEY,
  DEMO_OFFENDER,
  openViewer,
  PAGE_CANVAS,
  pageDrawn,
  pickRadio,
  readerContext,
  type ScreenName,
  showMoreTools,
} from '../support/viewer_pages.ts';

const options = { sanitizeResources: false, sanitizeOps: false };

const MODES = [
  { name: 'single pages, vertical', scroll: 'Vertical scrolling', view: 'Single page view' },
  { name: 'dual pages', scroll: 'Vertical scrolling', view: 'Dual page view' },
  { name: 'wrapped', scroll: 'Wrapped scrolling', view: 'Single page view' },
  { name: 'horizontal', scroll: 'Horizontal scrolling', view: 'Single page view' },
] as const;

const ZOOMS = ['Page width', 'Page fit', '50%', '100%', '200%'] as const;

interface Shape {
  page: number;
  /** The canvas's box on screen, CSS pixels. */
  shown: [number, number];
  /** The canvas's own pixels, as pdf.js drew them. */
  drawn: [number, number];
}

/** Every page canvas pdf.js has drawn that is at least partly on screen. */
function shapes(page: Page): Promise<Shape[]> {
  return page.evaluate((selector) => {
    const container = document.querySelector('.viewer-container')!.getBoundingClientRect();
    return [...document.querySelectorAll<HTMLCanvasElement>(`.pdfViewer .page ${selector}`)]
      .filter((canvas) => {
        const box = canvas.getBoundingClientRect();
        return canvas.width > 0 && box.width > 0 && box.bottom > container.top &&
          box.top < container.bottom &&
          box.right > container.left && box.left < container.right;
      })
      .map((canvas) => {
        const box = canvas.getBoundingClientRect();
        return {
          page: Number(canvas.closest<HTMLElement>('.page')!.dataset.pageNumber),
          shown: [box.width, box.height] as [number, number],
          drawn: [canvas.width, canvas.height] as [number, number],
        };
      });
  }, PAGE_CANVAS);
}

/** A canvas shown at the shape it was drawn at (within 2 %: pdf.js rounds each side to whole pixels). */
function undistorted(shape: Shape): boolean {
  const shown = shape.shown[0] / shape.shown[1];
  const drawn = shape.drawn[0] / shape.drawn[1];
  return Math.abs(shown / drawn - 1) < 0.02;
}

/** Waits until every page on screen is shown undistorted; fails with the shapes seen last. */
async function assertUndistorted(page: Page, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  let seen: Shape[] = [];
  while (Date.now() < deadline) {
    seen = await shapes(page);
    if (seen.length > 0 && seen.every(undistorted)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`${what}: pages shown at another shape than drawn: ${JSON.stringify(seen)}`);
}

/** The page number the toolbar shows, once the viewer has settled (two frames: pdf.js tracks scrolling per frame). */
async function shownPage(page: Page): Promise<number> {
  await page.evaluate(() =>
    new Promise((resolve) =>
      requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 50)))
    )
  );
  return Number(await page.getByRole('spinbutton', { name: 'Page number' }).inputValue());
}

/** Page `n` is the one at the top of the reading area. */
function atTop(page: Page, n: number): Promise<boolean> {
  return page.evaluate((n) => {
    const container = document.querySelector('.viewer-container')!.getBoundingClientRect();
    const box = document.querySelector(`.pdfViewer .page[data-page-number="${n}"]`)!.getBoundingClientRect();
    const probe = container.top + Math.min(40, container.height / 4);
    return box.top <= probe && box.bottom >= probe;
  }, n);
}

async function goTo(page: Page, n: number): Promise<void> {
  const input = page.getByRole('spinbutton', { name: 'Page number' });
  await input.fill(String(n));
  await input.press('Enter');
  await pageDrawn(page, n);
  assert.equal(await shownPage(page), n);
}

/** Waits until every page on screen is drawn (after a zoom or a rotation pdf.js draws them again). */
async function settled(page: Page, what: string): Promise<void> {
  const state = () =>
    page.evaluate((selector) => {
      const container = document.querySelector('.viewer-container')!.getBoundingClientRect();
      // On screen by more than its border and margin (pdf.js draws what it counts as visible).
      return [...document.querySelectorAll<HTMLElement>('.pdfViewer .page')]
        .filter((element) => {
          const box = element.getBoundingClientRect();
          return Math.min(box.bottom, container.bottom) - Math.max(box.top, container.top) > 20;
        })
        .map((element) => ({
          page: element.dataset.pageNumber,
          loaded: element.dataset.loaded === 'true',
          canvas: element.querySelector(selector) !== null,
          hidden: [...element.querySelectorAll('canvas')].some((canvas) => canvas.hidden),
          drawing: element.classList.contains('loadingIcon'),
        }));
    }, PAGE_CANVAS);
  const deadline = Date.now() + 15_000;
  let seen = await state();
  while (!(seen.length > 0 && seen.every((p) => p.loaded && p.canvas && !p.hidden && !p.drawing))) {
    assert.ok(Date.now() < deadline, `${what}: the pages on screen were not drawn: ${JSON.stringify(seen)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    seen = await state();
  }
}

/** After `act`, the reader is still on page `n`: the toolbar says so and the page is the one on screen. */
async function staysOn(page: Page, n: number, what: string, act: () => Promise<void>): Promise<void> {
  await act();
  await settled(page, `${what} on page ${n}`);
  const shown = await shownPage(page);
  assert.equal(shown, n, `${what} on page ${n} moved to page ${shown}`);
  assert.ok(await atTop(page, n), `${what} on page ${n}: the page is not on screen`);
}

async function withViewer(
  browser: Browser,
  server: TestServer,
  id: string,
  screen: ScreenName,
  test: (page: Page) => Promise<void>,
): Promise<void> {
  const { context, page, problems } = await readerContext(browser, server.url, { screen });
  try {
    await openViewer(page, server.url, id);
    await pageDrawn(page, 1);
    await test(page);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
}

Deno.test({
  name: 'pages keep their shape in every view mode and zoom, and rotating or zooming keeps the page read',
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
        title: 'Twelve pages',
        bytes: await makePdf({ pages: 12, title: 'Twelve pages' }),
      });

      for (const screen of ['tablet', 'desktop', 'phone'] as const) {
        await t.step(
          `${screen}: every view mode and zoom shows pages at the shape they were drawn`,
          async () => {
            await withViewer(browser, server, id, screen, async (page) => {
              for (const mode of MODES) {
                await pickRadio(page, mode.scroll);
                await pickRadio(page, mode.view);
                for (const zoom of ZOOMS) {
                  await chooseZoom(page, zoom);
                  await assertUndistorted(page, `${screen}, ${mode.name}, ${zoom}`);
                }
              }
            });
          },
        );
      }

      for (const screen of ['tablet', 'desktop'] as const) {
        await t.step(`${screen}: rotating and zooming leave the reader on the same page`, async () => {
          await withViewer(browser, server, id, screen, async (page) => {
            for (const n of [2, 7, 11]) {
              await goTo(page, n);
              const click = (name: string) => async () => {
                // Rotation waits behind More on a touch screen; the zoom buttons stand in the first row.
                if (name.startsWith('Rotate')) await showMoreTools(page);
                await page.getByRole('button', { name }).click();
              };
              await staysOn(page, n, 'rotating clockwise', click('Rotate clockwise'));
              await staysOn(page, n, 'rotating clockwise again', click('Rotate clockwise'));
              await staysOn(page, n, 'rotating back', click('Rotate counterclockwise'));
              await staysOn(page, n, 'rotating back again', click('Rotate counterclockwise'));
              await staysOn(page, n, 'zooming in', click('Zoom in'));
              await staysOn(page, n, 'zooming out', click('Zoom out'));
              await staysOn(page, n, 'choosing page fit', () => chooseZoom(page, 'Page fit'));
              await staysOn(page, n, 'choosing 200%', () => chooseZoom(page, '200%'));
              await staysOn(page, n, 'choosing page width', () => chooseZoom(page, 'Page width'));
            }
          });
        });
      }
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
