/**
 * The portal by keyboard alone (WCAG 2.1.1, 2.1.2, 2.4.1, 2.4.3, 2.4.7): every step below is a key press
 * (Tab, Shift+Tab, Enter, Space, Escape, arrows, typing); nothing is clicked. At every stop the focused control
 * must show its focus (an outline or a box-shadow drawn on it, on a wrapper up to three levels up, or on the
 * sibling antd draws a radio's or checkbox's mark with), a modal closed with Escape or its buttons must give the
 * focus back to the control that opened it, and Tab must go round each page and come back to its first stop
 * ('Skip to content'): focus is never trapped. The offender signs in, opens a letter, turns to the next page,
 * opens and closes the print dialog, closes the viewer, opens Info and logs off. Build the PWA first
 * (npm run build).
 */
import assert from 'node:assert/strict';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { apiToken, apiUpload } from '../support/api_client.ts';
import { chromiumAvailable, launchBrowser } from '../support/browser.ts';
import { makeLetterPdf } from '../support/pdfs.ts';
import { assertPwaBuilt, startTestServer, type TestServer } from '../support/server.ts';
import { DEMO_ATTORNEY, DEMO_OFFENDER } from '../support/viewer_pages.ts';

const options = { sanitizeResources: false, sanitizeOps: false };

/** What has the keyboard's focus, as a person sees it. */
interface Focused {
  tag: string;
  id: string;
  /** The accessible name as far as the test needs it: aria-label, the label, the text, the placeholder. */
  name: string;
  /** True when the focus is drawn (see the file's comment); the document's body has no focus to draw. */
  visible: boolean;
  /** True when nothing has the focus (the body). */
  none: boolean;
}

function focused(page: Page): Promise<Focused> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) {
      return { tag: 'body', id: '', name: '', visible: true, none: true };
    }
    const drawn = (node: Element) => {
      const style = getComputedStyle(node);
      const transparent = (colour: string) => /rgba\([^)]*,\s*0\)$/.test(colour) || colour === 'transparent';
      const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0 &&
        !transparent(style.outlineColor);
      return outline || style.boxShadow !== 'none';
    };
    let visible = false;
    let node: Element | null = element;
    for (let level = 0; node && level < 4 && !visible; level++, node = node.parentElement) {
      visible = drawn(node);
    }
    // antd draws a radio's and a checkbox's focus on the mark next to the (hidden) input.
    if (!visible && element.parentElement) {
      visible = [...element.parentElement.children].some((sibling) => sibling !== element && drawn(sibling));
    }
    const labels = (element as HTMLInputElement).labels;
    const labelledBy = element.getAttribute('aria-labelledby');
    const name = element.getAttribute('aria-label') ??
      (labelledBy ? document.getElementById(labelledBy.split(' ')[0])?.textContent : null) ??
      (labels && labels.length > 0 ? labels[0].textContent : null) ??
      (element.textContent?.trim() || element.getAttribute('placeholder') || element.getAttribute('title') ||
        '');
    return {
      tag: element.tagName.toLowerCase(),
      id: element.id,
      name: (name ?? '').trim().replace(/\s+/g, ' '),
      visible,
      none: false,
    };
  });
}

function describe(f: Focused): string {
  return `<${f.tag}${f.id ? `#${f.id}` : ''}> "${f.name}"`;
}

/**
 * Puts the keyboard's starting point at the top of the page, as a page just loaded has it (a blur alone leaves it
 * on the blurred control): the body takes the focus for a moment.
 */
async function toTop(page: Page): Promise<void> {
  await page.evaluate(() => {
    document.body.tabIndex = -1;
    document.body.focus();
    document.body.removeAttribute('tabindex');
  });
}

/** Asserts the focus is drawn. */
async function assertFocusVisible(page: Page, where: string): Promise<Focused> {
  const now = await focused(page);
  assert.ok(now.visible, `${where}: the focus on ${describe(now)} is not visible`);
  return now;
}

/**
 * Presses Tab (or Shift+Tab) until the focused control matches, checking at each stop that the focus shows.
 * Fails, listing the stops, when it is not reached within `max` presses.
 */
async function tabTo(
  page: Page,
  match: RegExp | ((f: Focused) => boolean),
  { back = false, max = 80 }: { back?: boolean; max?: number } = {},
): Promise<Focused> {
  const test = typeof match === 'function' ? match : (f: Focused) => match.test(f.name);
  const stops: string[] = [];
  for (let press = 0; press < max; press++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const now = await focused(page);
    stops.push(describe(now));
    assert.ok(now.visible, `the focus on ${describe(now)} is not visible (stops: ${stops.join(', ')})`);
    if (test(now)) return now;
  }
  throw new Error(`${match} not reached by ${back ? 'Shift+Tab' : 'Tab'}; stops: ${stops.join(', ')}`);
}

/**
 * From the top of the page, Tab goes round every stop and back to 'Skip to content': nothing holds the focus.
 * Returns the number of stops.
 */
async function assertTabCycles(page: Page, where: string, max = 250): Promise<number> {
  await toTop(page);
  const first = await tabTo(page, /./, { max: 3 });
  assert.equal(first.name, 'Skip to content', `${where}: the first stop is 'Skip to content'`);
  const stops: string[] = [];
  for (let press = 0; press < max; press++) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    if (now.none) continue;
    stops.push(describe(now));
    assert.ok(now.visible, `${where}: the focus on ${describe(now)} is not visible`);
    if (now.name === 'Skip to content') return stops.length;
  }
  throw new Error(
    `${where}: Tab did not come back to 'Skip to content' in ${max} presses: ${stops.join(', ')}`,
  );
}

/** 'Skip to content' is the first stop, shows when focused, and Enter puts the focus on the main region. */
async function assertSkipLink(page: Page, where: string): Promise<void> {
  await toTop(page);
  await page.keyboard.press('Tab');
  const link = await assertFocusVisible(page, where);
  assert.equal(link.name, 'Skip to content', `${where}: the first stop`);
  const box = await page.evaluate(() => {
    const rect = document.activeElement!.getBoundingClientRect();
    return { top: rect.top, bottom: rect.bottom, width: rect.width };
  });
  assert.ok(
    box.top >= 0 && box.bottom <= 200 && box.width > 20,
    `${where}: the link shows: ${JSON.stringify(box)}`,
  );
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.tagName === 'MAIN', null, { polling: 100 });
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'main-content');
}

/** Types into the focused field, as a keyboard does. */
async function type(page: Page, text: string): Promise<void> {
  await page.keyboard.type(text);
}

async function newPage(browser: Browser, screen: BrowserContextOptions = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...screen });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  return { context, page };
}

/** Signs in on /login by keyboard: 'Skip to content', the two fields, Enter. */
async function signInByKeyboard(page: Page, url: string, who: { username: string; password: string }) {
  await page.goto(`${url}/login`);
  await page.locator('#login_username').waitFor();
  await assertSkipLink(page, 'sign-in');
  await tabTo(page, (f) => f.id === 'login_username', { max: 10 });
  await type(page, who.username);
  await tabTo(page, (f) => f.id === 'login_password', { max: 5 });
  await type(page, who.password);
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/portal\//);
}

Deno.test({
  name:
    'keyboard only: every flow is done with keys, the focus always shows, returns from modals, never trapped',
  ignore: !chromiumAvailable(),
  ...options,
  async fn(t) {
    assertPwaBuilt();
    const server: TestServer = await startTestServer();
    const browser = await launchBrowser();
    try {
      const attorneyToken = await apiToken(server, DEMO_ATTORNEY);
      const title = 'Keyboard letter';
      await apiUpload(server, attorneyToken, {
        recipient: DEMO_OFFENDER.username,
        title,
        description: 'Read it before the hearing.',
        bytes: await makeLetterPdf([['Page one.'], ['Page two.'], ['Page three.']]),
      });

      await t.step(
        'the offender: sign in, open a letter, next page, print dialog, Info, Log Off',
        async () => {
          const { context, page } = await newPage(browser, { viewport: { width: 800, height: 1280 } });
          try {
            await signInByKeyboard(page, server.url, DEMO_OFFENDER);
            await page.locator('.document-card').first().waitFor();
            await assertSkipLink(page, 'offender list');
            const stops = await assertTabCycles(page, 'offender list');
            console.log(`offender list: ${stops} Tab stops round the page`);

            // View: the viewer opens in a window of its own.
            await assertSkipLink(page, 'offender list');
            await tabTo(page, new RegExp(`^View ${title}`));
            const popup = page.waitForEvent('popup');
            await page.keyboard.press('Enter');
            const viewer = await popup;
            viewer.setDefaultTimeout(20_000);
            await viewer.getByTestId('page-count').filter({ hasText: /\/ 3/ }).waitFor();

            await tabTo(viewer, /^Next page$/);
            await viewer.keyboard.press('Enter');
            const announcement = viewer.getByTestId('page-announcement');
            await viewer.waitForFunction(
              () => /2/.test(document.querySelector('[data-testid="page-announcement"]')?.textContent ?? ''),
              null,
              { polling: 100 },
            );
            assert.equal(await announcement.getAttribute('role'), 'status', 'the page number is announced');
            assert.equal(
              await viewer.locator('.viewer-page-input input, input.viewer-page-input').first().inputValue(),
              '2',
            );

            // Print: the dialog opens on Enter, Escape closes it and the focus is back on Print.
            const print = await tabTo(viewer, /^Print$/);
            await viewer.keyboard.press('Enter');
            await viewer.getByRole('dialog').waitFor();
            await viewer.waitForFunction(
              () => document.querySelector('.ant-modal-wrap')?.contains(document.activeElement),
              null,
              { polling: 100 },
            );
            await assertFocusVisible(viewer, 'print dialog');
            await viewer.keyboard.press('Escape');
            await viewer.getByRole('dialog').waitFor({ state: 'hidden' });
            await viewer.waitForFunction(
              () =>
                document.activeElement?.getAttribute('aria-label') === 'Print' ||
                document.activeElement?.textContent?.trim() === 'Print',
              null,
              { polling: 100 },
            );
            assert.deepEqual((await focused(viewer)).name, print.name, 'the focus is back on Print');
            await assertFocusVisible(viewer, 'Print after its dialog');

            // Escape closes the viewer's window: the list is where the offender left it.
            const closed = viewer.waitForEvent('close');
            // The window closes while the key is still being pressed: the press itself may report it gone.
            await viewer.keyboard.press('Escape').catch(() => {});
            await closed;

            await page.bringToFront();
            await assertSkipLink(page, 'offender list');
            const info = await tabTo(page, new RegExp(`^Info ${title}`));
            await page.keyboard.press('Enter');
            await page.locator('dialog.info-dialog[open]').waitFor();
            assert.ok(
              await page.evaluate(() =>
                document.querySelector('dialog[open]')!.contains(document.activeElement)
              ),
              'the focus moves into Info',
            );
            await assertFocusVisible(page, 'Info');
            await page.keyboard.press('Escape');
            await page.locator('dialog.info-dialog').waitFor({ state: 'detached' });
            const back = await assertFocusVisible(page, 'after Info');
            assert.equal(back.name, info.name, 'the focus is back on Info');

            await tabTo(page, /^Log Off$/, { back: true });
            await page.keyboard.press('Enter');
            await page.waitForURL(/\/logout|\/login/);
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
