/**
 * Every screen in Spanish, in Chromium against the real server: the public pages, the offender's tablet (list,
 * Info, the viewer and its print dialog, the lock screen, the new-PIN screen), the attorney's and the
 * representative's documents, upload, Info, representatives and security screens, the approver's list and its
 * dialog, and the admin's users (with a roster import's report), settings, IP ranges and audit log. On each,
 * every visible text, and every aria-label, title, placeholder and alt, is compared with the catalogues: a text
 * that is in en.json and not in es.json is English left on a Spanish screen, and fails the test with the screen
 * it was found on. A browser's own file or date input (which speaks the browser's language) fails it too.
 * Build the PWA first (npm run build).
 */
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiCall, apiToken, apiUpload, type Credentials } from '../support/api_client.ts';
import { chromiumAvailable, launchBrowser } from '../support/browser.ts';
import { makePdf } from '../support/pdfs.ts';
import { setNumberSettingByApi } from '../support/offline_pages.ts';
import { assertPwaBuilt, startTestServer } from '../support/server.ts';
import { registerApplicant } from '../support/factories.ts';
import { DEMO_ATTORNEY, DEMO_OFFENDER } from '../support/viewer_pages.ts';
import en from '../../pwa/src/i18n/en.json' with { type: 'json' };
import es from '../../pwa/src/i18n/es.json' with { type: 'json' };

const options = { sanitizeResources: false, sanitizeOps: false };
const ADMIN: Credentials = { username: 'admin@demo.test', password: 'Demo-Admin-2026!' };
const APPROVER: Credentials = { username: 'approver@demo.test', password: 'Demo-Approver-2026!' };
const REPRESENTATIVE: Credentials = { username: 'representative@demo.test', password: 'Demo-Rep-2026!' };
const OFFENDER_2: Credentials = { username: '100002', password: '135790' };

/** Every text of a catalogue, by its key path. */
function leaves(catalogue: unknown, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  for (const [key, value] of Object.entries(catalogue as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') found.set(path, value);
    else for (const [p, v] of leaves(value, path)) found.set(p, v);
  }
  return found;
}

const EN = leaves(en);
const ES = leaves(es);
const SPANISH_TEXTS = new Set([...ES.values()].map((text) => text.trim()));
const PLACEHOLDER = /\{\{\s*[\w.]+\s*\}\}/g;
const hasPlaceholder = (text: string) => /\{\{\s*[\w.]+\s*\}\}/.test(text);
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A catalogue text with placeholders as a pattern that matches it filled in. */
const pattern = (text: string) =>
  new RegExp(`^${text.trim().split(PLACEHOLDER).map(escape).join('.+?')}$`, 's');
const letters = (text: string) => (text.match(/\p{L}/gu) ?? []).length;

/** English catalogue texts that no Spanish one is: plain texts, and filled-in templates with enough words of their own. */
const ENGLISH_ONLY = new Set(
  [...EN.values()].map((text) => text.trim()).filter((text) =>
    !hasPlaceholder(text) && !SPANISH_TEXTS.has(text) && letters(text) >= 2
  ),
);
const SPANISH_TEMPLATES = [...ES.values()].filter(hasPlaceholder).map(pattern);
const ENGLISH_TEMPLATES = [...EN.values()]
  .filter((text) => hasPlaceholder(text) && letters(text.replace(PLACEHOLDER, '')) >= 6)
  .map((text) => ({ text, pattern: pattern(text) }));

/** The English catalogue text `text` is, if it is one the Spanish catalogue does not share; else null. */
function englishOnly(text: string): string | null {
  const trimmed = text.replace(/\s+/g, ' ').trim();
  if (letters(trimmed) < 2) return null;
  if (ENGLISH_ONLY.has(trimmed)) return trimmed;
  if (SPANISH_TEXTS.has(trimmed) || SPANISH_TEMPLATES.some((p) => p.test(trimmed))) return null;
  const template = ENGLISH_TEMPLATES.find((t) => t.pattern.test(trimmed));
  return template ? `${trimmed} (${template.text})` : null;
}

/** A Spanish text by the key path of its English twin (the first key whose English is `english`). */
function spanish(english: string): string {
  for (const [path, text] of EN) if (text === english && ES.has(path)) return ES.get(path)!;
  throw new Error(`no catalogue key has the English '${english}'`);
}

/** What a person reads or hears on the page now: visible text nodes, and the labels and hints of elements. */
function visibleTexts(page: Page): Promise<{ texts: string[]; nativeInputs: string[] }> {
  return page.evaluate(() => {
    const texts: string[] = [];
    const shown = (element: Element | null) =>
      element !== null && element.checkVisibility({ visibilityProperty: true, opacityProperty: false });
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      if (text && shown(node.parentElement) && !node.parentElement?.closest('script, style, noscript')) {
        texts.push(text);
      }
    }
    for (const element of document.body.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
      if (!shown(element) && !(element instanceof HTMLInputElement)) continue;
      // antd's icons name themselves by their file ('user', 'setting'); their buttons carry the words.
      if (element.matches('.anticon')) continue;
      for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
        const value = element.getAttribute(name);
        if (value) texts.push(value);
      }
    }
    const nativeInputs = [...document.querySelectorAll('input[type="file"], input[type="date"]')]
      .filter((input) => input.checkVisibility({ visibilityProperty: true }))
      .map((input) => `<input type="${input.getAttribute('type')}">`);
    return { texts, nativeInputs };
  });
}

/** Each English text found, with the screen it was on. */
const findings: string[] = [];

/** Reads the screen now and keeps what is English on it. */
async function walk(page: Page, screen: string): Promise<void> {
  await page.waitForFunction(() => document.documentElement.lang === 'es', null, { polling: 100 });
  // Let a screen that is still loading settle: a spinner's words are not the screen.
  await page.waitForLoadState('networkidle').catch(() => {});
  const { texts, nativeInputs } = await visibleTexts(page);
  for (const text of new Set(texts)) {
    const english = englishOnly(text);
    if (english) findings.push(`${screen}: "${english}"`);
  }
  for (const input of nativeInputs) findings.push(`${screen}: the browser's own ${input}`);
}

async function spanishContext(
  browser: Browser,
  tablet = false,
): Promise<{ context: BrowserContext; page: Page }> {
  // A browser asking for Spanish, off the facility's network: the public pages are in Spanish, and so is the
  // portal of a user with no saved language (the demo users have none).
  const context = await browser.newContext({
    locale: 'es-US',
    ...(tablet
      ? { viewport: { width: 800, height: 1280 }, hasTouch: true }
      : { viewport: { width: 1280, height: 900 } }),
  });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  return { context, page };
}

async function signIn(page: Page, url: string, who: Credentials): Promise<void> {
  await page.goto(`${url}/login`);
  await page.getByLabel(es.login.username).fill(who.username);
  await page.getByLabel(es.login.password).fill(who.password);
  await page.getByRole('button', { name: es.login.submit }).click();
}

Deno.test({
  name: 'every screen in Spanish shows no text of the English catalogue that the Spanish one lacks',
  ignore: !chromiumAvailable(),
  ...options,
  async fn(t) {
    // The comparison itself: English found, Spanish and shared words (PIN, DOC) not, templates filled in.
    assert.equal(englishOnly(en.common.logOff), en.common.logOff);
    assert.equal(englishOnly('Cancel'), 'Cancel');
    assert.equal(englishOnly(es.common.logOff), null);
    assert.equal(englishOnly('PIN'), null);
    assert.ok(englishOnly('Showing 1 to 10 of 35 entries'));
    assert.equal(englishOnly('Del 1 al 10 de 35 documentos'), null);
    assertPwaBuilt();
    const server = await startTestServer();
    const browser = await launchBrowser();
    try {
      const attorney = await apiToken(server, DEMO_ATTORNEY);
      await apiUpload(server, attorney, {
        recipient: DEMO_OFFENDER.username,
        title: 'Carta de prueba',
        description: 'Para la audiencia del lunes.',
        bytes: await makePdf({ pages: 2, title: 'Carta' }),
        fields: { time_sensitive: 'true', respond_by: '2099-12-03' },
      });
      await registerApplicant(server.url, { firstName: 'Lucía', lastName: 'Ortega' });
      const admin = await apiToken(server, ADMIN);

      await t.step('sign-in, registration and forgotten password', async () => {
        const { context, page } = await spanishContext(browser);
        await page.goto(`${server.url}/login`);
        await page.getByRole('button', { name: es.login.submit }).waitFor();
        await walk(page, 'sign-in');
        await page.getByRole('button', { name: es.login.submit }).click();
        await walk(page, 'sign-in, refused empty');
        await page.goto(`${server.url}/register`);
        await page.getByRole('heading', { name: es.register.title }).waitFor();
        await walk(page, 'registration');
        await page.getByRole('button', { name: es.register.submit }).click();
        await walk(page, 'registration, refused empty');
        await page.goto(`${server.url}/forgot-password`);
        await page.locator('main h1').waitFor();
        await walk(page, 'forgot password');
        await context.close();
      });

      await t.step("the attorney's screens", async () => {
        const { context, page } = await spanishContext(browser);
        await signIn(page, server.url, DEMO_ATTORNEY);
        await page.waitForURL(/\/portal\/attorney/);
        await page.locator('tr.document-row').first().waitFor();
        await walk(page, 'attorney documents');
        await page.getByRole('button', { name: spanish('Upload New Document') }).first().click();
        const upload = page.getByRole('dialog');
        await upload.waitFor();
        await upload.getByRole('checkbox').first().check();
        await walk(page, 'attorney upload');
        await page.keyboard.press('Escape');
        await upload.waitFor({ state: 'hidden' });
        await page.locator('tr.document-row').getByRole('button', {
          name: new RegExp(`^${es.list.info}`),
          disabled: false,
        }).first().click();
        await page.getByRole('dialog').waitFor();
        await walk(page, 'attorney Info');
        await page.keyboard.press('Escape');
        await page.goto(`${server.url}/portal/attorney/representatives`);
        await page.locator('main h1, main h2').first().waitFor();
        await walk(page, 'attorney representatives');
        await page.goto(`${server.url}/security`);
        await page.locator('main h1, main h2').first().waitFor();
        await walk(page, 'security');
        await context.close();
      });

      await t.step("the representative's documents, upload, Info and security", async () => {
        const { context, page } = await spanishContext(browser);
        await signIn(page, server.url, REPRESENTATIVE);
        await page.waitForURL(/\/representative|\/portal/);
        await page.locator('tr.document-row').first().waitFor();
        await walk(page, 'representative documents');
        await page.getByRole('button', { name: spanish('Upload New Document') }).first().click();
        const upload = page.getByRole('dialog');
        await upload.waitFor();
        await walk(page, 'representative upload');
        await page.keyboard.press('Escape');
        await upload.waitFor({ state: 'hidden' });
        await page.locator('tr.document-row').getByRole('button', {
          name: new RegExp(`^${es.list.info}`),
          disabled: false,
        }).first()
          .click();
        await page.getByRole('dialog').waitFor();
        await walk(page, 'representative Info');
        await page.keyboard.press('Escape');
        await page.goto(`${server.url}/security`);
        await page.locator('main h1, main h2').first().waitFor();
        await walk(page, 'representative security');
        await context.close();
      });

      await t.step("the approver's list and approval dialog", async () => {
        const { context, page } = await spanishContext(browser);
        await signIn(page, server.url, APPROVER);
        await page.waitForURL(/\/portal\/approver/);
        await page.getByRole('heading', { name: es.approver.heading }).waitFor();
        await page.getByRole('row', { name: /Ortega/ }).waitFor();
        await walk(page, 'approver list');
        await page.getByRole('row', { name: /Ortega/ }).getByRole('button').first().click();
        await page.getByRole('dialog').waitFor();
        await walk(page, 'approver dialog');
        await context.close();
      });

      await t.step("the admin's users, roster import, settings, IP ranges and audit log", async () => {
        const { context, page } = await spanishContext(browser);
        await signIn(page, server.url, ADMIN);
        await page.waitForURL(/\/portal\/admin/);
        await page.goto(`${server.url}/portal/admin/users`);
        await page.locator('main table, main .ant-list, main article').first().waitFor();
        await walk(page, 'admin users');
        await page.getByRole('button', { name: es.users.importRoster }).click();
        const importing = page.getByRole('dialog', { name: es.users.importRoster });
        await walk(page, 'admin roster import');
        await importing.getByLabel(es.users.import.file).setInputFiles({
          name: 'roster.csv',
          mimeType: 'text/csv',
          buffer: Buffer.from(
            'doc_number,first_name,last_name,pin\n930001,Ana,Ruiz,\n930002,Bo,Lee,12\n930003,Ana,Lee,135791\n930003,Ana,Lee,135791\n',
          ),
        });
        await importing.getByRole('button', { name: es.users.import.import }).click();
        await importing.getByText(es.users.import.rejectedRows).waitFor();
        await walk(page, 'admin roster report');
        await page.keyboard.press('Escape');
        await page.goto(`${server.url}/portal/admin/settings`);
        await page.getByText(es.settingItems.ip_whitelist_when_empty.label).first().waitFor();
        await walk(page, 'admin settings');
        await page.goto(`${server.url}/portal/admin/ip-whitelist`);
        await page.locator('main h1, main h2').first().waitFor();
        await walk(page, 'admin IP ranges');
        await page.goto(`${server.url}/portal/admin/audit-logs`);
        await page.locator('main table tbody tr.ant-table-row').first().waitFor();
        await walk(page, 'admin audit log');
        await page.goto(`${server.url}/portal/admin/entities`);
        await page.locator('main table tbody tr.ant-table-row').first().waitFor();
        await walk(page, 'admin entities');
        await context.close();
      });

      await t.step("the offender's tablet: list, Info, viewer and print, lock screen", async () => {
        await setNumberSettingByApi(server, admin, 'tablet_lock_minutes', 1);
        const { context, page } = await spanishContext(browser, true);
        await page.clock.install();
        await signIn(page, server.url, DEMO_OFFENDER);
        await page.getByRole('heading', { name: es.offender.heading }).waitFor();
        const card = page.getByRole('article', { name: 'Carta de prueba' });
        await card.waitFor();
        await walk(page, 'offender list');
        await card.getByRole('button', { name: new RegExp(`^${es.list.info}`) }).click();
        await page.getByRole('dialog').waitFor();
        await walk(page, 'offender Info');
        await page.keyboard.press('Escape');
        // The viewer opens in a window of its own where the browser allows one, else in the page.
        const popup = context.waitForEvent('page', { timeout: 10_000 }).catch(() => null);
        await card.getByRole('button', { name: new RegExp(`^${es.list.view}`) }).click();
        const viewer = (await popup) ?? page;
        viewer.setDefaultTimeout(20_000);
        await viewer.getByRole('toolbar').first().waitFor();
        await viewer.waitForLoadState('networkidle').catch(() => {});
        await walk(viewer, 'offender viewer');
        await viewer.getByRole('toolbar').first().getByRole('button', { name: es.viewerTools.print }).first()
          .click();
        await viewer.getByRole('dialog').first().waitFor();
        await walk(viewer, 'offender print dialog');
        await viewer.keyboard.press('Escape');
        if (viewer !== page) await viewer.close();
        else await viewer.getByRole('button', { name: es.common.close }).first().click();
        await page.clock.fastForward('01:05');
        await page.getByRole('heading', { name: es.lock.title }).waitFor();
        await walk(page, 'offender lock screen');
        await context.close();
      });

      await t.step("the offender's new-PIN screen after staff reset the PIN", async () => {
        const users = await apiCall(server, '/admin/users', { token: admin });
        const offender = users.body.users.find((u: { doc_number: string | null }) =>
          u.doc_number === OFFENDER_2.username
        );
        assert.ok(offender, JSON.stringify(users.body).slice(0, 500));
        // The one-time PIN works on the facility's network only, and a reset needs one: this browser's address.
        for (const ipRange of ['127.0.0.1', '::1']) {
          const added = await apiCall(server, '/admin/ip-whitelist', {
            method: 'POST',
            token: admin,
            body: { ipRange, description: 'Facility tablets' },
          });
          assert.ok(added.status < 300, JSON.stringify(added.body));
        }
        const reset = await apiCall(server, `/admin/offenders/${offender.id}/pin`, {
          method: 'PUT',
          token: admin,
          body: { pin: '97531864' },
        });
        assert.equal(reset.status, 200, JSON.stringify(reset.body));
        const { context, page } = await spanishContext(browser, true);
        // On the facility's network the tablet shows the entity's language until Español is chosen.
        await page.goto(`${server.url}/login`);
        await page.getByRole('button', { name: 'Español' }).click();
        await page.getByLabel(es.login.username).fill(OFFENDER_2.username);
        await page.getByLabel(es.login.password).fill('97531864');
        await page.getByRole('button', { name: es.login.submit }).click();
        await page.getByText(es.pinReset.title, { exact: true }).first().waitFor();
        await page.waitForLoadState('networkidle').catch(() => {});
        await walk(page, 'offender new PIN');
        await context.close();
      });

      assert.deepEqual(findings, [], `English on Spanish screens:\n${findings.join('\n')}`);
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
