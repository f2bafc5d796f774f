/**
 * The back office's forms in Spanish, in Chromium against the real server: the registration form (its labels,
 * its errors and the password-strength label), Set a new password, and the admin's Entities, IP Whitelist and
 * Settings screens with their modals, Español chosen on the sign-in screen. Texts are read from es.json, so a
 * reworded translation does not break the test, but an English text left on these screens does.
 * Build the PWA first (npm run build).
 */
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { chromiumAvailable, launchBrowser } from '../support/browser.ts';
import { assertPwaBuilt, startTestServer, type TestServer } from '../support/server.ts';
import { SCREENS } from '../support/viewer_pages.ts';
import es from '../../pwa/src/i18n/es.json' with { type: 'json' };

const options = { sanitizeResources: false, sanitizeOps: false };
const ADMIN = { username: 'admin@demo.test', password: 'Demo-Admin-2026!' };
/** A Spanish date as the portal writes it: day, short month in letters, year ('5 ene 2025'). */
const SPANISH_DATE = /\b\d{1,2} [a-z]{3} \d{4}\b/;

/** `{{name}}` and the like filled in, as i18next does. */
function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '');
}

async function chooseSpanish(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Español' }).click();
  await page.waitForFunction(() => document.documentElement.lang === 'es', null, { polling: 100 });
}

/** Signs in through the form with Español chosen first. */
async function signInInSpanish(page: Page, url: string, who: { username: string; password: string }) {
  await page.goto(`${url}/login`);
  await chooseSpanish(page);
  await page.getByLabel(es.login.username).fill(who.username);
  await page.getByLabel(es.login.password).fill(who.password);
  await page.getByRole('button', { name: es.login.submit }).click();
  await page.waitForURL(/\/portal/);
}

Deno.test({
  name:
    'in Spanish, registration, Set a new password, Entities, IP Whitelist and Settings show Spanish texts',
  ignore: !chromiumAvailable(),
  ...options,
  async fn(t) {
    assertPwaBuilt();
    const server: TestServer = await startTestServer();
    const browser: Browser = await launchBrowser();
    try {
      await t.step('the registration form: its labels, its errors and the strength label', async () => {
        const context = await browser.newContext(SCREENS.desktop);
        try {
          const page = await context.newPage();
          page.setDefaultTimeout(20_000);
          await page.goto(`${server.url}/login`);
          await chooseSpanish(page);
          // The choice holds on the way to the form (a link, not a new page load).
          await page.getByRole('link', { name: es.login.register }).click();
          await page.getByRole('heading', { name: es.register.title }).waitFor();
          await page.getByLabel(es.register.fields.barNumber, { exact: true }).waitFor();
          await page.getByLabel(es.register.fields.zipCode).waitFor();
          // The states are offered by their Spanish names: "Misuri" chooses Missouri, stored as MO.
          const barState = page.getByLabel(es.register.fields.barState, { exact: true });
          await barState.click();
          await barState.pressSequentially('misuri');
          await page.locator('.ant-select-item-option', { hasText: `${es.usStates.MO} (MO)` }).waitFor();
          await page.keyboard.press('Enter');
          const chosen = page.locator('.ant-form-item', { has: page.locator('#barState') }).locator(
            '.ant-select',
          );
          assert.equal((await chosen.innerText()).trim(), 'Misuri (MO)');
          const state = page.getByLabel(es.register.fields.state, { exact: true });
          await state.click();
          await state.pressSequentially('nueva');
          await page.locator('.ant-select-item-option', { hasText: `${es.usStates.NY} (NY)` }).waitFor();
          await page.keyboard.press('Escape');
          await page.getByRole('checkbox', { name: es.register.representative }).check();
          // A representative's own bar number is not asked; the form says what to enter instead.
          await page.getByText(es.register.representativeHint).waitFor();
          await page.getByLabel(es.register.fields.barNumber, { exact: true }).waitFor({ state: 'detached' });
          await page.getByRole('heading', { name: es.register.supervising }).waitFor();
          await page.getByLabel(es.register.fields.supervisingAttorneyEmail).waitFor();

          await page.getByRole('button', { name: es.register.submit }).click();
          assert.equal(
            (await page.locator('#firstName-error').innerText()).trim(),
            es.register.messages.required,
          );
          assert.equal(
            (await page.locator('#supervisingAttorneyName-error').innerText()).trim(),
            es.register.messages.supervisingRequired,
          );
          await page.getByLabel(es.register.fields.phone).fill('12345');
          await page.getByLabel(es.register.fields.phone).blur();
          assert.equal(
            (await page.locator('#phone-error').innerText()).trim(),
            fill(es.register.messages.phoneExample, { example: '555-123-4567' }),
          );
          await page.getByLabel(es.register.fields.password, { exact: true }).fill('abc');
          await page.locator('.strength-row', { hasText: es.passwordStrength.label }).waitFor();
          assert.equal(
            (await page.locator('.strength-label').innerText()).trim(),
            es.passwordStrength.weak,
          );
          await page.getByRole('link', { name: es.register.back }).waitFor();
        } finally {
          await context.close();
        }
      });

      const context = await browser.newContext(SCREENS.desktop);
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      try {
        await signInInSpanish(page, server.url, ADMIN);

        await t.step('Set a new password: its labels and its refusal in Spanish', async () => {
          await page.goto(`${server.url}/set-password`);
          await page.getByRole('heading', { name: es.setPassword.title }).waitFor();
          await page.getByText(es.setPassword.intro).waitFor();
          await page.getByLabel(es.setPassword.currentPassword).waitFor();
          await page.getByLabel(es.setPassword.confirmPassword).waitFor();
          await page.getByRole('button', { name: es.setPassword.submit }).click();
          assert.equal(
            (await page.locator('#currentPassword-error').innerText()).trim(),
            es.setPassword.currentRequired,
          );
          await page.getByRole('button', { name: es.common.logOff }).waitFor();
        });

        await t.step(
          'Entities: the menu, the table with a Spanish date, the form and the details',
          async () => {
            await page.goto(`${server.url}/portal/admin/entities`);
            const nav = page.getByRole('navigation', { name: es.adminSections.nav });
            await nav.getByText(es.adminSections.entities, { exact: true }).waitFor();
            await nav.getByText(es.adminSections.ipWhitelist, { exact: true }).waitFor();
            await page.getByRole('heading', { name: es.entities.title }).waitFor();
            await page.getByRole('columnheader', { name: es.entities.columns.created }).waitFor();
            const row = page.locator('.ant-table-row').first();
            assert.match(await row.innerText(), SPANISH_DATE);
            await row.getByText(es.entities.statuses.active, { exact: true }).waitFor();

            await page.getByRole('button', { name: es.entities.create }).click();
            const create = page.getByRole('dialog', { name: es.entities.form.createTitle });
            await create.getByText(es.entities.form.slugHint).waitFor();
            await create.getByRole('button', { name: es.entities.form.createOk }).click();
            await create.getByText(es.entities.nameRequired).waitFor();
            await page.keyboard.press('Escape');
            await create.waitFor({ state: 'hidden' });

            const name = (await row.locator('td').first().innerText()).trim();
            await page.getByRole('button', { name: fill(es.entities.detailsOf, { name }) }).click();
            const details = page.getByRole('dialog', { name: es.entities.details.title });
            await details.getByText(es.entities.details.lastUpdated).waitFor();
            assert.match(await details.innerText(), SPANISH_DATE);
          },
        );

        await t.step('IP Whitelist: the rule, the form with its check, a range added, its row', async () => {
          await page.goto(`${server.url}/portal/admin/ip-whitelist`);
          await page.getByRole('heading', { name: es.ipWhitelist.title }).waitFor();
          await page.getByText(es.ipWhitelist.rule).waitFor();
          await page.getByRole('button', { name: es.ipWhitelist.add }).click();
          const form = page.getByRole('dialog', { name: es.ipWhitelist.form.addTitle });
          await form.getByText(es.ipWhitelist.formats).waitFor();
          await form.getByLabel(es.ipWhitelist.form.ipRange).fill('10.1');
          await form.getByRole('button', { name: es.ipWhitelist.form.addOk }).click();
          await form.getByText(es.ipWhitelist.invalid).waitFor();
          await form.getByLabel(es.ipWhitelist.form.ipRange).fill('10.77.0.0/16');
          await form.getByLabel(es.ipWhitelist.form.description).fill('Tabletas de la unidad B');
          await form.getByRole('button', { name: es.ipWhitelist.form.addOk }).click();
          await page.getByText(es.ipWhitelist.added).first().waitFor();
          const row = page.locator('.ant-table-row', { hasText: '10.77.0.0/16' });
          await row.getByText(es.ipWhitelist.active, { exact: true }).waitFor();
          assert.match(await row.innerText(), SPANISH_DATE);
          await row.getByRole('button', { name: fill(es.ipWhitelist.editNamed, { range: '10.77.0.0/16' }) })
            .waitFor();
          await page.getByTestId('ip-whitelist-policy').getByText(es.ipWhitelist.policyRanges).waitFor();
        });

        await t.step(
          'Settings: categories, labels, descriptions and values, and an edit refused',
          async () => {
            await page.goto(`${server.url}/portal/admin/settings`);
            await page.getByRole('heading', { name: es.settings.title }).waitFor();
            await page.getByRole('tab', { name: es.settings.outboxTab }).waitFor();
            await page.locator('[data-category="security"]', { hasText: es.settings.categories.security })
              .waitFor();
            const idle = page.locator('[data-setting="session_idle_minutes"]');
            await idle.getByText(es.settingItems.session_idle_minutes.label, { exact: true }).waitFor();
            await idle.getByText(es.settingItems.session_idle_minutes.description).waitFor();
            await idle.getByText(fill(es.settings.units.minutes_other, { value: '30' }), { exact: true })
              .waitFor();
            const smtp = page.locator('[data-setting="smtp_enabled"]');
            await smtp.getByText(es.settings.disabled, { exact: true }).waitFor();

            const label = es.settingItems.session_idle_minutes.label;
            await idle.getByRole('button', { name: fill(es.settings.editNamed, { label }) }).click();
            await idle.getByLabel(fill(es.settings.valueOf, { label })).fill('45');
            await idle.getByRole('button', { name: fill(es.settings.saveNamed, { label }) }).click();
            const refusal = (await idle.getByRole('alert').innerText()).trim();
            assert.ok(
              refusal.startsWith(
                fill(es.settings.outOfRangePolicy, { name: label, min: '5', max: '30', policy: '' })
                  .replace(/ \(\)\.$/, ''),
              ),
              refusal,
            );
            await idle.getByRole('button', { name: fill(es.settings.cancelNamed, { label }) }).click();

            await page.getByRole('searchbox', { name: es.settings.search }).fill('SMTP');
            await page.locator('[data-setting="session_idle_minutes"]').waitFor({ state: 'detached' });
            await page.locator('[data-setting="smtp_host"]').waitFor();
          },
        );
      } finally {
        await context.close();
      }
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
