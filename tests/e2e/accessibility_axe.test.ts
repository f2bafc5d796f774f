/**
 * axe-core's WCAG 2.0/2.1 A and AA rules on the screens and modals of every role, in English and in Spanish
 * (chosen on the sign-in screen, as a person does): the counts of violations by impact are printed for each
 * screen, and none may be serious or critical. axe finds about half of real problems; the keyboard and screen
 * reader behaviour has tests of its own (docs/accessibility.md says which).
 * Build the PWA first: node_modules/.bin/vite build --config pwa/vite.config.ts.
 */
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { chromiumAvailable, launchBrowser } from '../support/browser.ts';
import { assertPwaBuilt, startTestServer, type TestServer } from '../support/server.ts';
import en from '../../pwa/src/i18n/en.json' with { type: 'json' };
import es from '../../pwa/src/i18n/es.json' with { type: 'json' };

/** Evaluated through the DevTools protocol, which the portal's Content-Security-Policy rightly does not admit. */
const AXE = await Deno.readTextFile(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url));
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const LANGUAGES = ['en', 'es'] as const;
type Language = (typeof LANGUAGES)[number];
/** Each language's texts, to find a control by the name it has in that language. */
const TEXTS = { en, es } as const;

const ACCOUNTS = {
  offender: { username: '100001', password: '246810', home: /\/portal\/offender/ },
  attorney: { username: 'attorney@demo.test', password: 'Demo-Attorney-2026!', home: /\/portal\/attorney/ },
  admin: { username: 'admin@demo.test', password: 'Demo-Admin-2026!', home: /\/portal\/admin/ },
  approver: { username: 'approver@demo.test', password: 'Demo-Approver-2026!', home: /\/portal\/approver/ },
} as const;

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe on what the page shows now: the violations, with a line of counts by impact printed. */
async function audit(page: Page, screen: string): Promise<Violation[]> {
  await page.evaluate(AXE);
  const violations: Violation[] = await page.evaluate(async (tags) => {
    // deno-lint-ignore no-explicit-any
    const result = await (globalThis as any).axe.run(document, { runOnly: { type: 'tag', values: tags } });
    return result.violations.map((v: Violation) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
  }, TAGS);
  const counts: Record<string, number> = { critical: 0, serious: 0, moderate: 0, minor: 0 };
  for (const v of violations) counts[v.impact ?? 'minor'] += v.nodes.length;
  console.log(
    `axe ${screen}: critical ${counts.critical}, serious ${counts.serious}, moderate ${counts.moderate}, ` +
      `minor ${counts.minor}`,
  );
  return violations;
}

/** Serious and critical violations, described for the failure message. */
function blocking(violations: Violation[]): string[] {
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) =>
    `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`
  );
}

/**
 * The sign-in screen in Spanish. The first screen is drawn in its language: off the facility's network a browser
 * asking for Spanish already has it; otherwise Español is chosen on the switch.
 */
async function chooseSpanish(page: Page): Promise<void> {
  await page.locator('#login_username').waitFor();
  if (await page.evaluate(() => document.documentElement.lang !== 'es')) {
    await page.getByRole('button', { name: 'Español' }).click();
  }
  await page.waitForFunction(() => document.documentElement.lang === 'es', null, { polling: 100 });
}

/** Signs in through the form after choosing the language on the sign-in screen. */
async function signIn(
  browser: Browser,
  server: TestServer,
  who: keyof typeof ACCOUNTS,
  language: Language,
  options: Parameters<Browser['newContext']>[0] = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ locale: language === 'es' ? 'es-US' : 'en-US', ...options });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(`${server.url}/login`);
  if (language === 'es') await chooseSpanish(page);
  const account = ACCOUNTS[who];
  await page.locator('#login_username').fill(account.username);
  await page.locator('#login_password').fill(account.password);
  await page.locator('form[name="login"] button[type="submit"]').click();
  await page.waitForURL(account.home);
  return { context, page };
}

/** Waits for a screen to settle: no spinner, nothing loading, no animation under way. */
async function settle(page: Page): Promise<void> {
  await page.waitForFunction(
    () => !document.querySelector('.ant-spin-spinning, .spinner, [aria-busy="true"]'),
    null,
    { polling: 100 },
  );
  // A modal fading in is half transparent: its colours are measured once every animation has ended.
  await page.waitForFunction(
    () => document.getAnimations().every((animation) => animation.playState !== 'running'),
    null,
    { polling: 100 },
  );
}

const options = { sanitizeResources: false, sanitizeOps: false };

Deno.test({
  name: 'axe-core: no serious or critical WCAG 2.1 A/AA violation on any screen, in English and in Spanish',
  ignore: !chromiumAvailable(),
  ...options,
  async fn(t) {
    assertPwaBuilt();
    const server = await startTestServer();
    const browser = await launchBrowser();
    const found: string[] = [];
    const check = async (page: Page, screen: string) => {
      await settle(page);
      for (const problem of blocking(await audit(page, screen))) found.push(`${screen}: ${problem}`);
    };
    try {
      for (const language of LANGUAGES) {
        await t.step(`${language}: signed out`, async () => {
          const context = await browser.newContext({ locale: language === 'es' ? 'es-US' : 'en-US' });
          const page = await context.newPage();
          await page.goto(`${server.url}/login`);
          if (language === 'es') await chooseSpanish(page);
          await check(page, `${language} sign-in`);
          await page.goto(`${server.url}/register`);
          await page.locator('#register button[type="submit"]').click();
          await page.locator('#firstName-error').waitFor();
          await check(page, `${language} registration with its errors`);
          await context.close();
        });

        await t.step(`${language}: the offender's tablet`, async () => {
          const { context, page } = await signIn(browser, server, 'offender', language, {
            viewport: { width: 800, height: 1280 },
            hasTouch: true,
            isMobile: true,
          });
          await page.locator('.document-card').first().waitFor();
          await check(page, `${language} offender list`);
          await page.locator('.document-card-actions button').nth(2).click();
          await page.locator('dialog.info-dialog[open]').waitFor();
          await page.locator('dialog.info-dialog[open] .info-receipt-heading').first().waitFor();
          await check(page, `${language} offender Info`);
          await page.keyboard.press('Escape');
          const popup = page.waitForEvent('popup');
          await page.locator('.document-card-actions button').first().click();
          const viewer = await popup;
          await viewer.locator('canvas').first().waitFor();
          await check(viewer, `${language} viewer`);
          await viewer.close();
          // The offender's own sign-ins, reached from the header.
          await page.locator('.portal-header a[href$="/portal/offender/sign-ins"]').click();
          await page.locator('table.sign-ins-table').waitFor();
          await check(page, `${language} offender sign-ins`);
          await context.close();
        });

        await t.step(`${language}: the attorney`, async () => {
          const { context, page } = await signIn(browser, server, 'attorney', language);
          await page.locator('tr.document-row').first().waitFor();
          await check(page, `${language} attorney list`);
          await page.locator('.portal-header .btn-primary, header .btn-primary').first().click();
          await page.getByRole('dialog').waitFor();
          await check(page, `${language} upload modal`);
          await page.keyboard.press('Escape');
          await page.goto(`${server.url}/portal/attorney/representatives`);
          await page.locator('.ant-table, .ant-list').first().waitFor();
          await check(page, `${language} representatives`);
          await page.goto(`${server.url}/security`);
          await page.locator('.security-section').first().waitFor();
          await check(page, `${language} security`);
          await context.close();
        });

        await t.step(`${language}: the admin`, async () => {
          const { context, page } = await signIn(browser, server, 'admin', language);
          await check(page, `${language} admin dashboard`);
          for (const section of ['users', 'entities', 'audit-logs', 'settings', 'ip-whitelist']) {
            await page.goto(`${server.url}/portal/admin/${section}`);
            await page.locator('main h2, main h1').first().waitFor();
            await check(page, `${language} admin ${section}`);
          }
          await page.goto(`${server.url}/portal/admin/users`);
          await page.locator('.ant-table-row').first().waitFor();
          // View Details of the first user, by its label in the language shown.
          const viewDetails = TEXTS[language].users.viewDetailsNamed.replace('{{name}}', '');
          await page.locator(`.ant-table-row button[aria-label^="${viewDetails}"]`).first().click();
          await page.getByRole('dialog').waitFor();
          await check(page, `${language} user details`);
          await page.keyboard.press('Escape');
          await page.getByRole('dialog').waitFor({ state: 'hidden' });
          await context.close();
        });

        await t.step(`${language}: the admin's forms and modals`, async () => {
          const texts = TEXTS[language];
          const { context, page } = await signIn(browser, server, 'admin', language);
          await page.goto(`${server.url}/portal/admin/entities`);
          await page.locator('.ant-table-row').first().waitFor();
          await page.getByRole('button', { name: texts.entities.create }).click();
          const entityForm = page.getByRole('dialog', { name: texts.entities.form.createTitle });
          await entityForm.getByRole('button', { name: texts.entities.form.createOk }).click();
          await entityForm.getByText(texts.entities.nameRequired).waitFor();
          await check(page, `${language} entity form with its error`);
          await page.keyboard.press('Escape');
          await entityForm.waitFor({ state: 'hidden' });
          await page.locator('.ant-table-row .ant-btn-link').first().click();
          await page.getByRole('dialog', { name: texts.entities.details.title }).waitFor();
          await check(page, `${language} entity details`);
          await page.keyboard.press('Escape');

          await page.goto(`${server.url}/portal/admin/ip-whitelist`);
          await page.getByRole('heading', { name: texts.ipWhitelist.title }).waitFor();
          await page.getByRole('button', { name: texts.ipWhitelist.add }).click();
          const rangeForm = page.getByRole('dialog', { name: texts.ipWhitelist.form.addTitle });
          await rangeForm.getByRole('button', { name: texts.ipWhitelist.form.addOk }).click();
          await rangeForm.getByText(texts.ipWhitelist.required).waitFor();
          await check(page, `${language} IP range form with its error`);
          await page.keyboard.press('Escape');
          await rangeForm.waitFor({ state: 'hidden' });

          await page.goto(`${server.url}/portal/admin/settings`);
          const idle = page.locator('[data-setting="session_idle_minutes"]');
          await idle.locator('button[data-action="edit"]').click();
          await idle.locator('input').fill('45');
          await idle.locator('.ant-btn-primary').click();
          await idle.getByRole('alert').waitFor();
          await check(page, `${language} settings edit with its refusal`);
          await page.keyboard.press('Escape');

          await page.goto(`${server.url}/set-password`);
          await page.getByRole('heading', { name: texts.setPassword.title }).waitFor();
          await page.getByRole('button', { name: texts.setPassword.submit }).click();
          await page.locator('#currentPassword-error').waitFor();
          await check(page, `${language} set a new password with its error`);
          await context.close();
        });

        await t.step(`${language}: the approver`, async () => {
          const { context, page } = await signIn(browser, server, 'approver', language);
          await page.locator('main h2, main h1').first().waitFor();
          await check(page, `${language} approver`);
          await context.close();
        });
      }
      assert.deepEqual(found, [], `serious or critical violations:\n${found.join('\n')}`);
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
