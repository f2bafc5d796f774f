/**
 * Who chooses the language on a shared tablet, in Chromium against the real server: the sign-in screen's switch
 * changes that screen, a server refusal (a wrong PIN), the offender's list, and the viewer's toolbar and dates,
 * for that sign-in only; the header's switch saves the offender's choice, which applies at their next sign-in;
 * after Log Off, or a session the server ended, the tablet is back in the entity's language (English, then
 * Spanish once the admin makes it the entity's default, then English again without a page load); `<html lang>`
 * follows throughout. Texts are read from the catalogues.
 * Build the PWA first (npm run build).
 */
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { apiToken, apiUpload, type Credentials } from '../support/api_client.ts';
import { chromiumAvailable, launchBrowser } from '../support/browser.ts';
import { makePdf } from '../support/pdfs.ts';
import { assertPwaBuilt, startTestServer, type TestServer } from '../support/server.ts';
import { storedSession } from '../support/offline_pages.ts';
import { DEMO_ATTORNEY, DEMO_OFFENDER, openViewer, SCREENS } from '../support/viewer_pages.ts';
import en from '../../pwa/src/i18n/en.json' with { type: 'json' };
import es from '../../pwa/src/i18n/es.json' with { type: 'json' };

const options = { sanitizeResources: false, sanitizeOps: false };
const ADMIN: Credentials = { username: 'admin@demo.test', password: 'Demo-Admin-2026!' };
/** A Spanish date as the portal writes it: day, short month in letters, year ('5 ene 2025'). */
const SPANISH_DATE = /\b\d{1,2} [a-z]{3}\.? \d{4}\b/;
/** The spec's US English date ('Jan 5, 2025'). */
const ENGLISH_DATE = /\b[A-Z][a-z]{2} \d{1,2}, \d{4}\b/;

const htmlLang = (page: Page) => page.locator('html').getAttribute('lang');

/** The sign-in screen in `catalogue`'s language, its heading and `<html lang>` agreeing. */
async function signInScreenIn(page: Page, catalogue: typeof en, lang: 'en' | 'es') {
  await page.getByRole('button', { name: catalogue.login.submit }).waitFor();
  await page.getByLabel(catalogue.login.username).waitFor();
  await page.waitForFunction((l) => document.documentElement.lang === l, lang, { polling: 100 });
}

/** Fills the sign-in form in the language shown and submits it. */
async function submitSignIn(page: Page, catalogue: typeof en, who: Credentials) {
  await page.getByLabel(catalogue.login.username).fill(who.username);
  await page.getByLabel(catalogue.login.password).fill(who.password);
  await page.getByRole('button', { name: catalogue.login.submit }).click();
}

/** The saved language the server hands back with the user at a sign-in. */
async function savedLanguage(server: TestServer, who: Credentials): Promise<string | null> {
  const response = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...who, entity: 'default' }),
  });
  const body = await response.json();
  assert.equal(response.status, 200, JSON.stringify(body));
  // The session this opened is not needed: end it.
  await fetch(`${server.url}/api/auth/logout`, {
    method: 'POST',
    headers: { authorization: `Bearer ${body.token}` },
  });
  return body.user.language;
}

/** Log Off from a portal, through to the sign-in screen (no page load in between: the tablet's own way out). */
async function logOff(page: Page, catalogue: typeof en) {
  await page.getByRole('button', { name: catalogue.common.logOff, exact: true }).click();
  await page.waitForURL(/\/login$/, { timeout: 20_000 });
}

/** Sets the sign-in entity's default language as the admin would. */
async function setEntityLanguage(server: TestServer, language: 'en' | 'es') {
  const token = await apiToken(server, ADMIN);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const list = await (await fetch(`${server.url}/api/admin/entities`, { headers })).json();
  const entity = list.entities.find((e: { slug: string }) => e.slug === 'default');
  const response = await fetch(`${server.url}/api/admin/entities/${entity.id}`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({
      name: entity.name,
      slug: entity.slug,
      status: entity.status,
      default_language: language,
    }),
  });
  assert.equal(response.status, 200, await response.text());
}

/**
 * Makes this machine a facility's: the sign-in entity gets ranges holding the loopback addresses, so the browser
 * here is a shared tablet on the facility's network (GET /api/config `facilityNetwork`).
 */
async function onFacilityNetwork(server: TestServer) {
  const token = await apiToken(server, ADMIN);
  for (const ipRange of ['127.0.0.1/32', '::1/128']) {
    const response = await fetch(`${server.url}/api/admin/ip-whitelist`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ipRange, description: 'Shared tablets' }),
    });
    assert.equal(response.status, 201, await response.text());
  }
}

Deno.test({
  name:
    'the language switch: the sign-in choice holds for one sign-in, the saved one applies, Log Off returns',
  ignore: !chromiumAvailable(),
  ...options,
  async fn(t) {
    assertPwaBuilt();
    const server = await startTestServer();
    const browser: Browser = await launchBrowser();
    try {
      const token = await apiToken(server, DEMO_ATTORNEY);
      const letterId = await apiUpload(server, token, {
        recipient: DEMO_OFFENDER.username,
        title: 'Carta de prueba',
        bytes: await makePdf({ pages: 2, title: 'Carta' }),
      });
      const context = await browser.newContext(SCREENS.tablet);
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);

      await t.step(
        'the sign-in screen: Español changes it, announced, and a wrong PIN is refused in Spanish',
        async () => {
          await page.goto(`${server.url}/login`);
          await signInScreenIn(page, en, 'en');
          const spanish = page.getByRole('button', { name: 'Español' });
          assert.equal(await spanish.getAttribute('lang'), 'es');
          await spanish.click();
          await signInScreenIn(page, es, 'es');
          await page.getByRole('status').filter({ hasText: es.language.changed }).waitFor();
          // The switch now offers English, named in English.
          assert.equal(await page.getByRole('button', { name: 'English' }).getAttribute('lang'), 'en');

          await submitSignIn(page, es, { username: DEMO_OFFENDER.username, password: '999999' });
          await page.getByText(es.codes.bad_credentials).waitFor();
          assert.equal(await htmlLang(page), 'es');
        },
      );

      await t.step(
        "the sign-in's choice holds for that sign-in: the list and the viewer in Spanish",
        async () => {
          await submitSignIn(page, es, DEMO_OFFENDER);
          await page.waitForURL(/\/portal/);
          await page.getByRole('heading', { name: es.offender.heading }).waitFor();
          assert.equal(await htmlLang(page), 'es');
          const row = page.getByRole('article', { name: 'Carta de prueba' });
          assert.match(await row.innerText(), SPANISH_DATE);

          const viewer = await context.newPage();
          viewer.setDefaultTimeout(20_000);
          await openViewer(viewer, server.url, letterId);
          assert.equal(await htmlLang(viewer), 'es');
          const toolbar = viewer.getByRole('toolbar', { name: es.viewerTools.tools });
          await toolbar.getByRole('button', { name: es.viewerTools.next }).waitFor();
          // On the tablet the properties wait behind "Más" (pwa/src/viewer/Toolbar.tsx).
          await toolbar.getByRole('button', { name: es.viewerTools.more, exact: true }).click();
          await toolbar.getByRole('button', { name: es.viewerTools.properties }).click();
          const properties = viewer.getByRole('dialog', { name: es.properties.title });
          const creation = properties.locator('tr', { hasText: es.properties.creationDate });
          assert.match(await creation.innerText(), SPANISH_DATE);
          await viewer.close();
          // Chosen on the sign-in screen, not saved: the offender still has no language of their own.
          assert.equal(await savedLanguage(server, DEMO_OFFENDER), null);
        },
      );

      await t.step('after Log Off the tablet is back in the entity language, English', async () => {
        await logOff(page, es);
        await signInScreenIn(page, en, 'en');
      });

      await t.step(
        "the header's switch saves the offender's choice, applied at the next sign-in",
        async () => {
          await submitSignIn(page, en, DEMO_OFFENDER);
          await page.waitForURL(/\/portal/);
          await page.getByRole('heading', { name: en.offender.heading }).waitFor();
          const row = page.getByRole('article', { name: 'Carta de prueba' });
          assert.match(await row.innerText(), ENGLISH_DATE);
          const header = page.locator('header');
          const spanish = header.getByRole('button', { name: 'Español' });
          assert.equal(await spanish.getAttribute('lang'), 'es');
          await spanish.click();
          await page.getByRole('heading', { name: es.offender.heading }).waitFor();
          await header.getByRole('status').filter({ hasText: es.language.changed }).waitFor();
          assert.equal(await htmlLang(page), 'es');
          assert.match(await row.innerText(), SPANISH_DATE);
          assert.equal(await savedLanguage(server, DEMO_OFFENDER), 'es');

          await logOff(page, es);
          await signInScreenIn(page, en, 'en');
          // Nobody chose on the sign-in screen: the saved Spanish applies.
          await submitSignIn(page, en, DEMO_OFFENDER);
          await page.waitForURL(/\/portal/);
          await page.getByRole('heading', { name: es.offender.heading }).waitFor();
          assert.equal(await htmlLang(page), 'es');
          await logOff(page, es);
          await signInScreenIn(page, en, 'en');
        },
      );

      await t.step(
        "the entity's default language: the sign-in screen shows it and Log Off returns to it",
        async () => {
          // A shared tablet is on the facility's network: it keeps the entity's language, not its browser's.
          await onFacilityNetwork(server);
          await setEntityLanguage(server, 'es');
          try {
            // A fresh page load reads the entity's default (GET /api/config).
            await page.goto(`${server.url}/login`);
            await signInScreenIn(page, es, 'es');
            // The demo attorney (no saved language) signs in: Spanish, the entity's; chooses English in the header.
            await submitSignIn(page, es, DEMO_ATTORNEY);
            await page.waitForURL(/\/portal/);
            assert.equal(await htmlLang(page), 'es');
            await page.locator('header').getByRole('button', { name: 'English' }).click();
            await page.waitForFunction(() => document.documentElement.lang === 'en', undefined, {
              polling: 100,
            });
            await logOff(page, en);
            // Whoever used the tablet last, it is back in the entity's language.
            await page.waitForFunction(() => document.documentElement.lang === 'es', undefined, {
              polling: 100,
            });
            assert.equal(await savedLanguage(server, DEMO_ATTORNEY), 'en');
          } finally {
            await setEntityLanguage(server, 'en');
          }
        },
      );
      await t.step(
        'a default changed while signed in is followed at Log Off, and a session the server ended returns the tablet',
        async () => {
          // The page loaded while the default was Spanish; the admin has set English since. The offender's saved
          // Spanish applies, and Log Off brings the tablet to the entity's English without a page load.
          await signInScreenIn(page, es, 'es');
          await submitSignIn(page, es, DEMO_OFFENDER);
          await page.waitForURL(/\/portal/);
          await page.getByRole('heading', { name: es.offender.heading }).waitFor();
          await logOff(page, es);
          await signInScreenIn(page, en, 'en');

          // The attorney saves Spanish from the header; the server then ends the session (401 at the next call).
          await submitSignIn(page, en, DEMO_ATTORNEY);
          await page.waitForURL(/\/portal/);
          await page.locator('header').getByRole('button', { name: 'Español' }).click();
          await page.waitForFunction(() => document.documentElement.lang === 'es', undefined, {
            polling: 100,
          });
          const { guid } = await storedSession(page);
          const ended = await fetch(`${server.url}/api/auth/logout`, {
            method: 'POST',
            headers: { authorization: `Bearer ${guid}` },
          });
          assert.equal(ended.status, 200);
          await page.reload();
          await page.waitForURL(/\/login/, { timeout: 20_000 });
          await signInScreenIn(page, en, 'en');
        },
      );
      await context.close();
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});

Deno.test({
  name:
    "off the facility's network: the browser's Spanish is followed, the registration page's choice survives a reload, and a sign-in choice wins and is offered as the account's language",
  ignore: !chromiumAvailable(),
  ...options,
  async fn(t) {
    assertPwaBuilt();
    const server = await startTestServer();
    const browser: Browser = await launchBrowser();
    try {
      await t.step('a browser asking for Spanish gets the public pages in Spanish', async () => {
        const context = await browser.newContext({ ...SCREENS.desktop, locale: 'es-US' });
        const page = await context.newPage();
        page.setDefaultTimeout(20_000);
        await page.goto(`${server.url}/login`);
        await signInScreenIn(page, es, 'es');
        await page.goto(`${server.url}/register`);
        await page.getByRole('heading', { name: es.register.title }).waitFor();
        assert.equal(await htmlLang(page), 'es');
        await context.close();
      });

      const context = await browser.newContext({ ...SCREENS.desktop, locale: 'en-US' });
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);

      await t.step('the registration page has the switch, and a reload keeps the choice', async () => {
        await page.goto(`${server.url}/register`);
        await page.getByRole('heading', { name: en.register.title }).waitFor();
        await page.getByRole('button', { name: 'Español' }).click();
        await page.getByRole('heading', { name: es.register.title }).waitFor();
        assert.match(page.url(), /[?&]lang=es\b/);
        await page.reload();
        await page.getByRole('heading', { name: es.register.title }).waitFor();
        assert.equal(await htmlLang(page), 'es');
        // Back to the sign-in page: still Spanish, still in the address.
        await page.getByRole('link', { name: es.register.back }).click();
        await signInScreenIn(page, es, 'es');
        await page.reload();
        await signInScreenIn(page, es, 'es');
      });

      await t.step(
        "Español chosen on the sign-in page opens an attorney's portal in Spanish over their saved English, and asks",
        async () => {
          const token = await apiToken(server, DEMO_ATTORNEY);
          const saved = await fetch(`${server.url}/api/auth/preferences`, {
            method: 'PATCH',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ language: 'en' }),
          });
          assert.equal(saved.status, 200, await saved.text());
          await page.goto(`${server.url}/login`);
          await signInScreenIn(page, en, 'en');
          await page.getByRole('button', { name: 'Español' }).click();
          await signInScreenIn(page, es, 'es');
          await submitSignIn(page, es, DEMO_ATTORNEY);
          await page.waitForURL(/\/portal/);
          assert.equal(await htmlLang(page), 'es');
          const offer = page.getByRole('region', { name: es.language.offer });
          await offer.getByRole('button', { name: es.language.offerKeep }).click();
          await offer.waitFor({ state: 'detached' });
          assert.equal(await savedLanguage(server, DEMO_ATTORNEY), 'es');
          await logOff(page, es);
          await signInScreenIn(page, en, 'en');
        },
      );

      await t.step('declined, the choice holds for that sign-in only', async () => {
        // Saved Spanish; English chosen on the sign-in page (nobody chose: the page is in the browser's English).
        await page.getByRole('button', { name: 'Español' }).click();
        await page.getByRole('button', { name: 'English' }).click();
        await signInScreenIn(page, en, 'en');
        await submitSignIn(page, en, DEMO_ATTORNEY);
        await page.waitForURL(/\/portal/);
        assert.equal(await htmlLang(page), 'en');
        const offer = page.getByRole('region', { name: en.language.offer });
        await offer.getByRole('button', { name: en.language.offerDecline }).click();
        await offer.waitFor({ state: 'detached' });
        assert.equal(await savedLanguage(server, DEMO_ATTORNEY), 'es');
        await logOff(page, en);
        await signInScreenIn(page, en, 'en');
        await submitSignIn(page, en, DEMO_ATTORNEY);
        await page.waitForURL(/\/portal/);
        await page.waitForFunction(() => document.documentElement.lang === 'es', undefined, { polling: 100 });
        assert.equal(await page.getByRole('region', { name: es.language.offer }).count(), 0);
      });
      await context.close();
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
