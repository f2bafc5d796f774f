/**
 * What the viewer's browser tests share: the screens a reader uses (an upright tablet with touch, a desktop, a
 * phone), an offender's reading context (the portal open in a tab of its own, as the viewer requires), and
 * reading the pages pdf.js drew.
 */
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import type { Credentials } from './api_client.ts';
import { signInThroughForm } from './offline_pages.ts';

export const DEMO_ATTORNEY: Credentials = { username: 'attorney@demo.test', password: 'Demo-Attorney-2026!' };
export const DEMO_OFFENDER: Credentials = { username: '100001', password: '246810' };

/** The screens the portal is read on. */
export const SCREENS = {
  tablet: { viewport: { width: 800, height: 1280 }, hasTouch: true, isMobile: true },
  desktop: { viewport: { width: 1280, height: 800 } },
  phone: { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true },
} satisfies Record<string, BrowserContextOptions>;

export type ScreenName = keyof typeof SCREENS;

/**
 * What the browser and pdf.js say when something the page needs was refused or not found: a CSP refusal, a
 * decoder that did not load, a resource pdf.js was not told where to find.
 */
const MISSING_RESOURCE =
  /Content Security Policy|Refused to|Unable to (load|decode)|Ensure that the `\w+` API parameter|Failed to resolve module|failed to initialize/i;

/**
 * A browser context on `screen` with the demo offender's portal signed in on its first page (an offender's viewer
 * shows mail only while the portal is open: pwa/src/viewer/useTabletGate.ts); `page` is a second tab for the
 * viewer. Page errors, console errors and missing resources are collected in `problems`.
 */
export async function readerContext(
  browser: Browser,
  url: string,
  options: { screen: ScreenName },
): Promise<{ context: BrowserContext; portal: Page; page: Page; problems: string[] }> {
  const context = await browser.newContext(SCREENS[options.screen]);
  const portal = await context.newPage();
  portal.setDefaultTimeout(20_000);
  await signInThroughForm(portal, url, DEMO_OFFENDER);
  await portal.waitForURL(/\/portal/);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.stack ?? error.message));
  page.on('console', (message) => {
    if (message.type() !== 'error' && !MISSING_RESOURCE.test(message.text())) return;
    problems.push(`${message.text()} (${message.location().url})`);
  });
  return { context, portal, page, problems };
}

/**
 * Opens /pdfViewer/{id} and waits for the page count: pdf.js's worker starting and the document loading, which on
 * a machine running other browser files beside this one has taken over 20 s.
 */
export async function openViewer(page: Page, url: string, id: string): Promise<void> {
  await page.goto(`${url}/pdfViewer/${id}`);
  await page.getByTestId('page-count').filter({ hasText: /\/ [1-9]/ }).waitFor({ timeout: 45_000 });
}

/**
 * A page's own canvas. Zoomed in beyond what the screen's canvas budget allows, pdf.js draws the whole page at a
 * lower resolution and adds a second canvas after it with the part on screen in detail.
 */
export const PAGE_CANVAS = '.canvasWrapper > canvas:first-child';

/**
 * Waits until pdf.js has finished drawing page `pageNumber`: its canvas shown (a canvas being drawn is hidden
 * until it is complete), its text layer there, no spinner.
 */
export async function pageDrawn(page: Page, pageNumber: number): Promise<void> {
  await page.waitForFunction(
    ({ n, selector }) => {
      const element = document.querySelector(`.pdfViewer .page[data-page-number="${n}"][data-loaded="true"]`);
      const canvas = element?.querySelector<HTMLCanvasElement>(selector);
      return !!canvas && canvas.width > 0 &&
        ![...element!.querySelectorAll('canvas')].some((c) => c.hidden) &&
        element!.querySelector('.textLayer') !== null && !element!.classList.contains('loadingIcon');
    },
    { n: pageNumber, selector: PAGE_CANVAS },
  );
}

/** A drawn page's canvas: its pixel size and the RGB bytes of every pixel. */
export interface CanvasPixels {
  width: number;
  height: number;
  rgb: Uint8Array;
}

/** Reads page `pageNumber`'s canvas as pdf.js drew it. */
export async function canvasPixels(page: Page, pageNumber: number): Promise<CanvasPixels> {
  const { width, height, base64 } = await page.evaluate(({ n, selector }) => {
    const canvas = document.querySelector<HTMLCanvasElement>(
      `.pdfViewer .page[data-page-number="${n}"] ${selector}`,
    )!;
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    // RGBA to RGB, sent as base64: a page is millions of bytes.
    let binary = '';
    for (let at = 0; at < data.length; at += 4) {
      binary += String.fromCharCode(data[at], data[at + 1], data[at + 2]);
    }
    return { width: canvas.width, height: canvas.height, base64: btoa(binary) };
  }, { n: pageNumber, selector: PAGE_CANVAS });
  const binary = atob(base64);
  const rgb = new Uint8Array(binary.length);
  for (let at = 0; at < binary.length; at++) rgb[at] = binary.charCodeAt(at);
  return { width, height, rgb };
}

/** A rectangle of a page in PDF points, from the bottom left (as the PDF draws it). */
export interface PointBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The mean RGB of `box` (points on a `pageSize` page) in `pixels` (the page drawn at any size). */
export function meanColour(
  pixels: CanvasPixels,
  box: PointBox,
  pageSize: { width: number; height: number },
): [number, number, number] {
  const sx = pixels.width / pageSize.width;
  const sy = pixels.height / pageSize.height;
  const left = Math.round(box.x * sx);
  const right = Math.round((box.x + box.width) * sx);
  const top = Math.round((pageSize.height - box.y - box.height) * sy);
  const bottom = Math.round((pageSize.height - box.y) * sy);
  const sum = [0, 0, 0];
  let count = 0;
  for (let y = top; y < bottom; y++) {
    for (let x = left; x < right; x++) {
      const at = (y * pixels.width + x) * 3;
      for (let c = 0; c < 3; c++) sum[c] += pixels.rgb[at + c];
      count++;
    }
  }
  return sum.map((s) => Math.round(s / count)) as [number, number, number];
}

/** The share of `box`'s pixels darker than mid-grey: the ink of the text drawn there. */
export function inkShare(
  pixels: CanvasPixels,
  box: PointBox,
  pageSize: { width: number; height: number },
): number {
  const sx = pixels.width / pageSize.width;
  const sy = pixels.height / pageSize.height;
  let ink = 0;
  let count = 0;
  for (
    let y = Math.round((pageSize.height - box.y - box.height) * sy);
    y < (pageSize.height - box.y) * sy;
    y++
  ) {
    for (let x = Math.round(box.x * sx); x < (box.x + box.width) * sx; x++) {
      const at = (y * pixels.width + x) * 3;
      if (pixels.rgb[at] + pixels.rgb[at + 1] + pixels.rgb[at + 2] < 3 * 128) ink++;
      count++;
    }
  }
  return ink / count;
}

/**
 * On a touch screen the toolbar keeps the zoom list, rotation, the modes and the properties behind "More"
 * (pwa/src/viewer/Toolbar.tsx): opens that row when it is closed; with a mouse there is no More and nothing to do.
 */
export async function showMoreTools(page: Page): Promise<void> {
  const more = page.getByRole('toolbar').getByRole('button', { name: 'More', exact: true });
  if ((await more.count()) === 0) return;
  if ((await more.getAttribute('aria-expanded')) !== 'true') await more.click();
  await page.locator('#viewer-more-tools').waitFor();
}

/** Chooses a toolbar radio button by its accessible name (antd hides the input under its label). */
export async function pickRadio(page: Page, name: string): Promise<void> {
  await showMoreTools(page);
  const radio = page.getByRole('radio', { name, exact: true });
  if (await radio.isChecked()) return;
  await page.locator('label', { has: radio }).click();
  await radio.waitFor({ state: 'attached' });
  if (!(await radio.isChecked())) throw new Error(`${name} was not chosen`);
}

/**
 * Chooses a zoom in the toolbar's zoom select by its label ('200%', 'Page fit'). The list is opened again when it
 * closed before the choice (the toolbar re-renders as the pages are laid out anew).
 */
export async function chooseZoom(page: Page, label: string): Promise<void> {
  await showMoreTools(page);
  const select = page.getByRole('combobox', { name: 'Zoom' });
  for (let attempt = 1;; attempt++) {
    // Away from the last control, whose tooltip could lie over the select (a hovered tooltip stays open).
    await page.mouse.move(0, 0);
    // Opened only when closed: a click on an open select closes it (and Escape would close the viewer).
    if ((await select.getAttribute('aria-expanded')) !== 'true') await select.click();
    try {
      await page.locator(`.ant-select-item-option[title="${label}"]`).click({ timeout: 3_000 });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}
