/**
 * The offender's list on the facility tablet it runs on, in headless Chromium
 * with touch emulation: at 800x1280 (portrait, a card per document), 1280x800
 * and 1024x768 (landscape, the table) every column's information shows with
 * its label, View / Print / Info show whole for every document, nothing
 * scrolls sideways, and every control is at least 44x44 CSS px (WCAG 2.5.5's
 * target size, what a finger needs). The Info modal and the viewer fit too.
 * Build the PWA first: node_modules/.bin/vite build --config pwa/vite.config.ts
 * (PWA_DIST may point the server at another build folder). SCREENSHOT_DIR, when
 * set, keeps a screenshot of each screen there.
 */
import assert from 'node:assert/strict';
import type { Browser, Locator, Page } from 'playwright-core';
import { chromiumAvailable, launchBrowser } from '../support/browser.ts';
import { encryptPdf, makePdf } from '../support/pdfs.ts';
import { apiToken, apiUpload } from '../support/api_client.ts';
import { assertPwaBuilt, startTestServer, type TestServer } from '../support/server.ts';

const ATTORNEY = { username: 'attorney@demo.test', password: 'Demo-Attorney-2026!' };
const OFFENDER = { username: '100001', password: '246810' };

/** WCAG 2.5.5 (AAA) target size, and Apple's and Android's touch guidelines: 44 CSS px. */
const TARGET = 44;

/** The spec's offender columns (section 2), in order. */
const LABELS = ['Document Name', 'From Attorney', 'Date Received', '# of Pages', 'Delete Date'];

const TABLETS = [
  { name: 'portrait', width: 800, height: 1280, layout: 'cards' },
  { name: 'landscape', width: 1280, height: 800, layout: 'table' },
  // The smallest common landscape tablet: the table just above the cards' breakpoint (992 px).
  { name: 'small-landscape', width: 1024, height: 768, layout: 'table' },
] as const;

/** A long title without spaces to break at: it must wrap, not push the actions off the screen. */
const LONG_TITLE = 'Supplemental-memorandum-in-support-of-the-motion-to-suppress-evidence-2026-04';

interface Expected {
  name: string;
  attorney: string;
  date: string;
  pages: string;
  deleteDate: string;
  hasDescription: boolean;
}

/** Spec section 9: 'Jan 5, 2025'; the browser runs in UTC, so does this. */
function usDate(value: string): string {
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : new Date(value);
  return new Intl.DateTimeFormat('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  })
    .format(date);
}

/** 'Jan 5, 2025, 3:04 PM': the Date Received of a letter that shares its day with another on the list. */
function usDateTime(value: string): string {
  return new Intl.DateTimeFormat('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: 'UTC',
  }).format(new Date(value));
}

/** What the list answer says about each named document, as the screen must show it. */
async function expectedRows(server: TestServer, names: string[]): Promise<Expected[]> {
  const token = await apiToken(server, OFFENDER);
  const response = await fetch(`${server.url}/api/documents/offender/${OFFENDER.username}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const body = await response.json();
  assert.equal(response.status, 200, JSON.stringify(body));
  const days = body.documents.map((document: { date: string }) => usDate(document.date));
  const shared = (day: string) => days.filter((other: string) => other === day).length > 1;
  return names.map((name) => {
    const found = body.documents.find((document: { name: string }) => document.name === name);
    assert.ok(found, `${name} is in the list answer`);
    return {
      name,
      attorney: found.attorney_name || found.attorney,
      date: shared(usDate(found.date)) ? usDateTime(found.date) : usDate(found.date),
      pages: Number(found.pages) > 0 ? String(found.pages) : '',
      deleteDate: found.deletedate ? usDate(found.deletedate) : '',
      hasDescription: (found.description ?? '').trim() !== '',
    };
  });
}

async function signIn(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/login`);
  await page.getByLabel('facility ID number').fill(OFFENDER.username);
  await page.getByLabel('Pin Number').fill(OFFENDER.password);
  await page.getByRole('button', { name: 'View Mail' }).tap();
  await page.waitForURL(/\/portal\/offender/);
}

/** Nothing scrolls sideways: neither the page nor any box inside it (a table's own scroller cuts too). */
async function assertNoSidewaysScroll(page: Page, where: string): Promise<void> {
  const found = await page.evaluate(() => {
    const root = document.documentElement;
    const problems: string[] = [];
    if (root.scrollWidth > root.clientWidth) {
      problems.push(`the page is ${root.scrollWidth}px wide in a ${root.clientWidth}px window`);
    }
    for (const element of document.body.querySelectorAll<HTMLElement>('*')) {
      const overflow = getComputedStyle(element).overflowX;
      if ((overflow === 'auto' || overflow === 'scroll') && element.scrollWidth > element.clientWidth + 1) {
        problems.push(
          `${element.className || element.tagName} scrolls: ${element.scrollWidth} > ${element.clientWidth}`,
        );
      }
    }
    return problems;
  });
  assert.deepEqual(found, [], `${where}: ${found.join('; ')}`);
}

/** The box of an element once it stops moving (a modal zooms in, a page scrolls). */
async function settledBox(element: Locator): Promise<Awaited<ReturnType<Locator['boundingBox']>>> {
  let last = await element.boundingBox();
  for (let tries = 0; tries < 50; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const box = await element.boundingBox();
    if (JSON.stringify(box) === JSON.stringify(last)) return box;
    last = box;
  }
  return last;
}

/**
 * A control a finger can hit: at least 44x44, wholly inside the window, and
 * the topmost thing at its centre (not clipped or covered).
 */
async function assertTouchTarget(page: Page, control: Locator, what: string): Promise<void> {
  await control.scrollIntoViewIfNeeded();
  const box = await settledBox(control);
  assert.ok(box, `${what} is laid out`);
  const width = await page.evaluate(() => document.documentElement.clientWidth);
  assert.ok(box.width >= TARGET && box.height >= TARGET, `${what} is ${box.width}x${box.height}`);
  assert.ok(
    box.x >= 0 && box.x + box.width <= width,
    `${what} spans ${box.x}..${box.x + box.width} of ${width}`,
  );
  const hit = await control.evaluate((element) => {
    const rect = element.getBoundingClientRect();
    const top = document.elementFromPoint(rect.x + rect.width / 2, rect.y + rect.height / 2);
    return top !== null && (element === top || element.contains(top));
  });
  assert.ok(hit, `${what} is the topmost element at its centre`);
}

/** Every visible control of the screen (buttons, fields, selects) is at least 44x44. */
async function assertAllControlsTouchSized(page: Page, where: string): Promise<void> {
  const small = await page.evaluate((target) => {
    const controls = document.querySelectorAll<HTMLElement>(
      'button, a[href], [role="button"], select, input:not([type="hidden"])',
    );
    return [...controls].flatMap((control) => {
      if (!control.checkVisibility({ visibilityProperty: true, opacityProperty: true })) return [];
      if (control.closest('[aria-hidden="true"]')) return [];
      const rect = control.getBoundingClientRect();
      if (rect.width >= target && rect.height >= target) return [];
      const name = control.getAttribute('aria-label') ?? control.textContent?.trim() ?? control.tagName;
      return [`${name || control.className}: ${Math.round(rect.width)}x${Math.round(rect.height)}`];
    });
  }, TARGET);
  assert.deepEqual(small, [], `${where}: controls under ${TARGET}px: ${small.join('; ')}`);
}

/** The box that shows one document: its card, or its table row. */
function documentBox(page: Page, layout: 'cards' | 'table', name: string): Locator {
  return layout === 'cards'
    ? page.getByRole('article', { name, exact: true })
    : page.getByRole('row').filter({ has: page.getByText(name, { exact: true }) });
}

/** Every column's information of one document shows, with its label. */
async function assertShowsEverything(
  page: Page,
  layout: 'cards' | 'table',
  expected: Expected,
): Promise<void> {
  const box = documentBox(page, layout, expected.name);
  await box.waitFor();
  const values = [expected.name, expected.attorney, expected.date, expected.deleteDate];
  if (expected.pages) values.push(expected.pages);
  for (const value of values.filter(Boolean)) {
    assert.ok(await box.getByText(value, { exact: true }).first().isVisible(), `${expected.name}: ${value}`);
  }
  if (!expected.pages) {
    await box.getByRole('img', { name: 'Encrypted, page count unavailable' }).waitFor();
  }
  if (layout === 'cards') {
    // Each value sits under its column's label, inside the card.
    for (const label of LABELS) {
      assert.ok(await box.getByText(label, { exact: true }).isVisible(), `${expected.name}: label ${label}`);
    }
    const pairs = await box.locator('dl > div').evaluateAll((items) =>
      items.map((
        item,
      ) => [item.querySelector('dt')?.textContent ?? '', item.querySelector('dd')?.textContent ?? ''])
    );
    assert.deepEqual(
      Object.fromEntries(pairs),
      {
        'From Attorney': expected.attorney,
        'Date Received': expected.date,
        '# of Pages': expected.pages,
        'Delete Date': expected.deleteDate,
      },
    );
    await box.getByRole('heading', { name: expected.name, exact: true }).waitFor();
  } else {
    for (const label of [...LABELS, 'Actions']) {
      assert.ok(
        await page.getByRole('columnheader', { name: label, exact: true }).isVisible(),
        `column ${label}`,
      );
    }
  }
  for (const action of ['View', 'Print', 'Info']) {
    const button = box.getByRole('button', { name: `${action} ${expected.name}`, exact: true });
    assert.ok(await button.isVisible(), `${action} ${expected.name} shows`);
    assert.equal(await button.textContent(), action);
    await assertTouchTarget(page, button, `${action} ${expected.name}`);
  }
  const info = box.getByRole('button', { name: `Info ${expected.name}`, exact: true });
  // Info opens for every letter: without a description it still says who sent it and when it came.
  assert.equal(await info.isDisabled(), false, `Info ${expected.name} enabled`);
}

async function screenshot(page: Page, name: string): Promise<void> {
  const dir = Deno.env.get('SCREENSHOT_DIR');
  if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}

const options = { sanitizeResources: false, sanitizeOps: false };

Deno.test({
  name:
    'on a tablet in portrait and landscape the offender list fits, shows everything and has 44px controls',
  ignore: !chromiumAvailable(),
  ...options,
  async fn(t) {
    assertPwaBuilt();
    const server = await startTestServer();
    const browser: Browser = await launchBrowser();
    try {
      const token = await apiToken(server, ATTORNEY);
      const briefId = await apiUpload(server, token, {
        recipient: OFFENDER.username,
        title: LONG_TITLE,
        description: 'Read before the hearing on Monday.',
        bytes: await makePdf({ pages: 3, title: 'Memorandum' }),
      });
      await apiUpload(server, token, {
        recipient: OFFENDER.username,
        title: 'Sealed exhibit',
        bytes: await encryptPdf(await makePdf({ pages: 2 }), { userPassword: 'userpw', print: true }),
      });
      await apiUpload(server, token, {
        recipient: OFFENDER.username,
        title: 'Hearing notice',
        bytes: await makePdf({ pages: 1 }),
      });
      const expected = await expectedRows(server, [LONG_TITLE, 'Sealed exhibit', 'Hearing notice']);

      for (const tablet of TABLETS) {
        await t.step(
          `${tablet.name} ${tablet.width}x${tablet.height}: the list, Info and the viewer`,
          async () => {
            const context = await browser.newContext({
              viewport: { width: tablet.width, height: tablet.height },
              hasTouch: true,
              isMobile: true,
              timezoneId: 'UTC',
              locale: 'en-US',
            });
            try {
              const page = await context.newPage();
              page.setDefaultTimeout(15_000);
              await signIn(page, server.url);
              await page.getByRole('heading', { level: 2, name: 'My documents' }).waitFor();
              await page.locator('.document-table-count').filter({
                hasText: /Showing 1 to \d+ of \d+ entries/,
              })
                .waitFor();
              assert.equal(
                await page.evaluate(() => document.documentElement.clientWidth),
                tablet.width,
                'the page is laid out at the tablet width (meta viewport)',
              );
              await screenshot(page, `offender-${tablet.name}`);
              for (const row of expected) await assertShowsEverything(page, tablet.layout, row);

              // Every document on the page, not only ours: three whole actions each.
              const shown = await page.getByRole('button', { name: /^View / }).count();
              assert.ok(shown >= expected.length);
              assert.equal(await page.getByRole('button', { name: /^Print / }).count(), shown);
              assert.equal(await page.getByRole('button', { name: /^Info / }).count(), shown);
              for (const action of ['View', 'Print', 'Info']) {
                const buttons = page.getByRole('button', { name: new RegExp(`^${action} `) });
                for (let index = 0; index < shown; index++) {
                  await assertTouchTarget(page, buttons.nth(index), `${action} #${index + 1}`);
                }
              }
              await page.evaluate(() => globalThis.scrollTo(0, 0));
              await assertNoSidewaysScroll(page, `${tablet.name} list`);
              await assertAllControlsTouchSized(page, `${tablet.name} list`);
              await screenshot(page, `offender-${tablet.name}`);

              // Search narrows the list in either layout.
              await page.getByLabel('Search:').fill('Sealed');
              await page.locator('.document-table-count').filter({ hasText: 'Showing 1 to 1 of 1 entries' })
                .waitFor();
              await documentBox(page, tablet.layout, 'Sealed exhibit').waitFor();
              await assertAllControlsTouchSized(page, `${tablet.name} list with a search`);
              await page.getByLabel('Search:').fill('');

              // Info: the modal fits and its close button is a full-size target.
              await documentBox(page, tablet.layout, LONG_TITLE)
                .getByRole('button', { name: `Info ${LONG_TITLE}`, exact: true }).tap();
              const info = page.getByRole('dialog', { name: LONG_TITLE });
              await info.getByText('Read before the hearing on Monday.').waitFor();
              await info.getByText('Delivery receipt').waitFor();
              await assertNoSidewaysScroll(page, `${tablet.name} Info`);
              await assertTouchTarget(page, info.getByRole('button', { name: 'Close' }), 'Info × button');
              await screenshot(page, `offender-${tablet.name}-info`);
              await info.getByRole('button', { name: 'Close' }).tap();
              await info.waitFor({ state: 'hidden' });

              // The viewer, in the portal and as the pop-up opens it, fits the tablet too, with touch-sized tools.
              for (const path of [`/pdfViewer/${briefId}`, `/portal/offender/view/${briefId}`]) {
                // The pop-up is opened by the portal, as View does: an offender's viewer shows mail only while
                // their portal is open (a typed /pdfViewer address goes back to the portal and its lock).
                const viewer = path.startsWith('/portal') ? page : (await Promise.all([
                  page.waitForEvent('popup'),
                  page.evaluate((popup) => void window.open(popup, 'viewer'), path),
                ]))[0];
                if (viewer === page) await page.goto(`${server.url}${path}`);
                await viewer.getByTestId('page-count').filter({ hasText: '/ 3' }).waitFor();
                await viewer.locator('.pdfViewer .page canvas').first().waitFor();
                await assertNoSidewaysScroll(viewer, `${tablet.name} ${path}`);
                const toolbar = viewer.getByRole('toolbar', { name: 'Document tools' });
                for (const name of ['Previous page', 'Next page', 'Zoom in', 'Zoom out', 'Print']) {
                  const control = toolbar.getByRole('button', { name, exact: true });
                  const box = await control.boundingBox();
                  assert.ok(
                    box && box.x >= 0 && box.x + box.width <= tablet.width,
                    `${path}: ${name} inside`,
                  );
                  assert.ok(
                    box.width >= TARGET && box.height >= TARGET,
                    `${path}: ${name} is ${Math.round(box.width)}x${
                      Math.round(box.height)
                    }, under ${TARGET}px`,
                  );
                }
                await screenshot(
                  viewer,
                  `viewer-${tablet.name}${path.startsWith('/portal') ? '-portal' : '-popup'}`,
                );
                if (viewer !== page) await viewer.close();
              }
            } finally {
              await context.close();
            }
          },
        );
      }
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
