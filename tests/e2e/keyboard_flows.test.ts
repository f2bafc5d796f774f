/**
 * The portal by keyboard alone (WCAG 2.1.1, 2.1.2, 2.4.1, 2.4.3, 2.4.7): every step below is a key press
 * (Tab, Shift+Tab, Enter, Space, Escape, arrows, typing); nothing is clicked. At every stop the focused control
 * must show its focus (an outline or a box-shadow drawn on it, on a wrapper up to three levels up, or on the
 * sibling antd draws a radio's or checkbox's mark with), a modal closed with Escape or its buttons must give the
 * focus back to the control that opened it, and Tab must go round each page and come back to its first stop
 * ('Skip to content'): focus is never trapped. The offender signs in, opens a letter, turns to the next page,
 * opens and closes the print dialog, closes the viewer, opens Info and logs off; an attorney registers; the
 * approver approves that registration; an attorney uploads a PDF (the file picker is opened with the keyboard,
 * the test stands in for the system's file dialog); the admin edits a setting and adds an IP range. Build the
 * PWA first (npm run build).
 */
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { apiToken, apiUpload } from '../support/api_client.ts';
import { chromiumAvailable, launchBrowser } from '../support/browser.ts';
import { makeLetterPdf } from '../support/pdfs.ts';
import { assertPwaBuilt, startTestServer, type TestServer } from '../support/server.ts';
import { DEMO_ATTORNEY, DEMO_OFFENDER } from '../support/viewer_pages.ts';

const options = { sanitizeResources: false, sanitizeOps: false };

const DEMO_ADMIN = { username: 'admin@demo.test', password: 'Demo-Admin-2026!' };
const DEMO_APPROVER = { username: 'approver@demo.test', password: 'Demo-Approver-2026!' };

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

/** Waits until an open antd modal holds the focus, and checks that it shows. */
async function focusInModal(page: Page, where: string): Promise<void> {
  await page.getByRole('dialog').last().waitFor();
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('.ant-modal-wrap')].some((wrap) => wrap.contains(document.activeElement)),
    null,
    { polling: 100 },
  );
  await assertFocusVisible(page, where);
}

/** Waits until the focus is on the control named `name` (a modal gives it back as it closes). */
async function focusReturnsTo(page: Page, name: string, where: string): Promise<void> {
  try {
    await page.waitForFunction(
      (expected) => {
        const element = document.activeElement;
        if (!element || element === document.body) return false;
        const label = element.getAttribute('aria-label') ?? element.textContent?.trim();
        return label === expected;
      },
      name,
      { polling: 100, timeout: 5_000 },
    );
  } catch {
    assert.fail(`${where}: the focus is on ${describe(await focused(page))}, not back on '${name}'`);
  }
  await assertFocusVisible(page, where);
}

/** Presses an arrow key until the focused item matches (antd's menu moves the focus itself onto its items). */
async function arrowTo(page: Page, key: string, name: RegExp, max = 10): Promise<void> {
  const seen: string[] = [];
  for (let press = 0; press < max; press++) {
    const now = await focused(page);
    seen.push(describe(now));
    if (now.tag === 'li' && name.test(now.name)) return;
    await page.keyboard.press(key);
    // The menu moves the focus a moment after the key: the next reading waits for it.
    await page.waitForFunction(
      (before) => (document.activeElement?.textContent ?? '') !== before,
      now.name,
      { polling: 50, timeout: 2_000 },
    ).catch(() => {});
    await assertFocusVisible(page, `${key} towards ${name}`);
  }
  throw new Error(`${name} not reached with ${key}: ${seen.join(', ')}`);
}

/** Waits for the app's own navigation to `path` (no page load follows it). */
async function atPath(page: Page, path: string): Promise<void> {
  await page.waitForFunction((expected) => location.pathname === expected, path, { polling: 100 }).catch(
    async () =>
      assert.fail(
        `not at ${path} but ${new URL(page.url()).pathname}; focus on ${describe(await focused(page))}`,
      ),
  );
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

      await t.step("'Skip to content' in Spanish", async () => {
        const { context, page } = await newPage(browser);
        try {
          await page.goto(`${server.url}/login`);
          await page.locator('#login_username').waitFor();
          // The language switch by keyboard: Tab to Español, Enter.
          await tabTo(page, /^Español$/, { max: 10 });
          await page.keyboard.press('Enter');
          await page.waitForFunction(() => document.documentElement.lang === 'es', null, { polling: 100 });
          await toTop(page);
          await page.keyboard.press('Tab');
          const link = await assertFocusVisible(page, 'Spanish sign-in');
          assert.equal(link.name, 'Saltar al contenido');
          await page.keyboard.press('Enter');
          await page.waitForFunction(() => document.activeElement?.id === 'main-content', null, {
            polling: 100,
          });
        } finally {
          await context.close();
        }
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

      const run = Date.now();
      const registrant = {
        firstName: 'Kay',
        lastName: `Board${run}`,
        email: `keyboard-${run}@e2e.test`,
        password: 'Keyboard-Pass-2026!',
      };

      await t.step('an attorney registers with the keyboard alone', async () => {
        const { context, page } = await newPage(browser);
        try {
          await page.goto(`${server.url}/register`);
          await page.locator('#firstName').waitFor();
          await assertSkipLink(page, 'registration');
          const fields: [string, string][] = [
            ['firstName', registrant.firstName],
            ['lastName', registrant.lastName],
            ['email', registrant.email],
            ['password', registrant.password],
            ['confirmPassword', registrant.password],
            ['barNumber', 'MO4455'],
            ['barState', 'MO'],
            ['addressLine1', '1 Capitol Ave'],
            ['city', 'Jefferson City'],
            ['state', 'MO'],
            ['zipCode', '65101'],
          ];
          for (const [id, value] of fields) {
            await tabTo(page, (f) => f.id === id, { max: 6 });
            await type(page, value);
            if (id === 'barState' || id === 'state') {
              // Enter chooses the list's active state: wait until the typed search has filtered the list down to
              // it, or a loaded machine chooses whatever was active after the first letter; then wait until the
              // list has closed on the choice, so the next Tab leaves the field rather than meeting the list.
              await page.locator('.ant-select-item-option-active:visible', { hasText: `(${value})` })
                .waitFor();
              await page.keyboard.press('Enter');
              await page.locator(`.ant-select:has(#${id})`, { hasText: `(${value})` }).waitFor();
              await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'hidden' });
            }
          }
          await tabTo(page, /^Register Attorney Account$/, { max: 4 });
          await page.keyboard.press('Enter');
          const submitted = page.getByText('Registration submitted successfully!');
          const refused = page.locator('.ant-form-item-explain-error, .ant-message-error');
          await submitted.or(refused).first().waitFor();
          assert.ok(
            await submitted.isVisible(),
            `the registration was refused: ${(await refused.allInnerTexts()).join(' | ')}; ` +
              `states chosen: ${await page.locator('.ant-select').allInnerTexts()}`,
          );
          await page.waitForURL(/\/login$/);
        } finally {
          await context.close();
        }
      });

      await t.step('the approver approves the registration with the keyboard alone', async () => {
        const { context, page } = await newPage(browser);
        try {
          await signInByKeyboard(page, server.url, DEMO_APPROVER);
          const name = `Approve ${registrant.firstName} ${registrant.lastName}`;
          await page.getByRole('button', { name }).waitFor().catch(async (error) => {
            const shown = await page.locator('body').innerText().catch(() => '(no page)');
            throw new Error(`${error.message}\nat ${page.url()} the page shows:\n${shown.slice(0, 2000)}`);
          });
          await assertSkipLink(page, 'approver');
          const stops = await assertTabCycles(page, 'approver');
          console.log(`approver: ${stops} Tab stops round the page`);
          await assertSkipLink(page, 'approver');
          await tabTo(page, (f) => f.name === name);
          await page.keyboard.press('Enter');
          await focusInModal(page, 'the approval modal');
          // Escape closes it and gives the focus back; Enter on Approve again, then the modal's own Approve.
          await page.keyboard.press('Escape');
          await focusReturnsTo(page, name, 'after Escape in the approval modal');
          await page.keyboard.press('Enter');
          await focusInModal(page, 'the approval modal');
          await tabTo(page, (f) => f.name === 'Approve', { max: 6 });
          await page.keyboard.press('Enter');
          await page.getByRole('button', { name }).waitFor({ state: 'detached' });
          await page.locator('.ant-modal-wrap').first().waitFor({ state: 'hidden' });
          // The row is gone with its button: the focus goes to the list's heading, not to nowhere.
          await focusReturnsTo(page, 'Pending Registrations', 'after approving');
        } finally {
          await context.close();
        }
      });

      await t.step('an attorney uploads a PDF with the keyboard alone', async () => {
        const { context, page } = await newPage(browser);
        try {
          // The system's file dialog is the test's to answer: asked for before any key opens it.
          const chooser = page.waitForEvent('filechooser', { timeout: 120_000 });
          await signInByKeyboard(page, server.url, DEMO_ATTORNEY);
          await page.locator('tr.document-row').first().waitFor();
          await assertSkipLink(page, 'attorney list');
          const stops = await assertTabCycles(page, 'attorney list');
          console.log(`attorney list: ${stops} Tab stops round the page`);
          await assertSkipLink(page, 'attorney list');
          const opener = await tabTo(page, /^Upload New Document$/, { back: true });
          await page.keyboard.press('Enter');
          await focusInModal(page, 'the upload modal');
          await page.keyboard.press('Escape');
          await focusReturnsTo(page, opener.name, 'after Escape in the upload modal');
          await page.keyboard.press('Enter');
          await focusInModal(page, 'the upload modal');
          await tabTo(page, (f) => f.id === 'upload-doc-number', { max: 6 });
          await type(page, DEMO_OFFENDER.username);
          await page.getByText(/DOC 100001/).first().waitFor();
          await tabTo(page, (f) => f.id === 'upload-title', { max: 6 });
          await type(page, 'Typed by keyboard');
          // The file field is antd's Upload: its button (in the page's words) opens the system's dialog.
          await tabTo(page, (f) => f.tag === 'button' && /^Choose a PDF/.test(f.name), { max: 8 });
          await page.keyboard.press('Space');
          await (await chooser).setFiles({
            name: 'typed-by-keyboard.pdf',
            mimeType: 'application/pdf',
            buffer: Buffer.from(await makeLetterPdf([['Typed by keyboard.']])),
          });
          // Upload is enabled once the file is taken and the recipient confirmed.
          await page.waitForFunction(
            () => {
              const chosen = document.querySelector('.ant-modal .file-picker-name')?.textContent;
              const upload = document.querySelector<HTMLButtonElement>('.ant-modal-footer .ant-btn-primary');
              return chosen === 'typed-by-keyboard.pdf' && upload !== null && !upload.disabled;
            },
            null,
            { polling: 100, timeout: 10_000 },
          ).catch(async () =>
            assert.fail(
              `Upload stays disabled: ${await page.evaluate(() =>
                JSON.stringify({
                  chosen: document.querySelector('.ant-modal .file-picker-name')?.textContent,
                  text: document.querySelector('.ant-modal')?.textContent,
                })
              )}`,
            )
          );
          await tabTo(page, /^Upload$/, { max: 8 });
          await page.keyboard.press('Enter');
          await page.locator('tr.document-row', { hasText: 'Typed by keyboard' }).waitFor();
          await focusReturnsTo(page, opener.name, 'after the upload');
        } finally {
          await context.close();
        }
      });

      await t.step('the admin edits a setting and adds an IP range with the keyboard alone', async () => {
        const { context, page } = await newPage(browser);
        try {
          await signInByKeyboard(page, server.url, DEMO_ADMIN);
          await page.locator('main h2, main h1').first().waitFor();
          await assertSkipLink(page, 'admin');
          const stops = await assertTabCycles(page, 'admin dashboard');
          console.log(`admin dashboard: ${stops} Tab stops round the page`);
          await assertSkipLink(page, 'admin');
          // The sections' menu is one Tab stop; the arrow keys move within it (the WAI-ARIA menu pattern).
          await tabTo(page, (f) => f.tag === 'ul' && f.name.includes('Settings'));
          await arrowTo(page, 'ArrowDown', /^Settings$/);
          await page.keyboard.press('Enter');
          await atPath(page, '/portal/admin/settings');
          await page.locator('[data-setting="session_idle_minutes"]').waitFor();

          const edit = 'Edit Session idle minutes';
          await tabTo(page, (f) => f.name === edit, { max: 150 });
          await page.keyboard.press('Enter');
          // The value's field takes the focus; Escape-free: the typed value is saved with Enter.
          await page.waitForFunction(
            () => document.activeElement?.id === 'setting-session_idle_minutes',
            null,
            { polling: 100, timeout: 5_000 },
          ).catch(async () => assert.fail(`after Edit the focus is on ${describe(await focused(page))}`));
          await assertFocusVisible(page, 'the setting field');
          await page.keyboard.press('Control+A');
          await type(page, '25');
          await page.keyboard.press('Enter');
          await page.locator('[data-setting="session_idle_minutes"]', { hasText: '25' }).waitFor();
          await focusReturnsTo(page, edit, 'after saving the setting');

          await tabTo(page, (f) => f.tag === 'ul' && f.name.includes('IP Whitelist'), {
            back: true,
            max: 150,
          });
          await arrowTo(page, 'ArrowDown', /^IP Whitelist$/);
          await page.keyboard.press('Enter');
          await atPath(page, '/portal/admin/ip-whitelist');
          // The screen's code arrives on demand: the previous screen stays until it has.
          await page.getByRole('button', { name: 'Add IP Range' }).waitFor();
          const add = await tabTo(page, /^Add IP Range$/, { max: 40 });
          await page.keyboard.press('Enter');
          await focusInModal(page, 'the IP range modal');
          await tabTo(page, (f) => f.id === 'ip-range-value', { max: 4 }).catch(() => {});
          if ((await focused(page)).id !== 'ip-range-value') {
            await tabTo(page, (f) => f.id === 'ip-range-value', { back: true, max: 6 });
          }
          await type(page, '127.0.0.0/8');
          await tabTo(page, (f) => f.id === 'ip-range-description', { max: 4 });
          await type(page, 'Keyboard test');
          // The modal's own 'Add IP Range' (the focus stays in the modal until it closes).
          await tabTo(page, /^Add IP Range$/, { max: 6 });
          await page.keyboard.press('Enter');
          await page.getByRole('cell', { name: '127.0.0.0/8', exact: true }).waitFor();
          await focusReturnsTo(page, add.name, 'after adding the IP range');
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
