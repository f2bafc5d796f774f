/**
 * The admin's Users screen in Spanish on a desktop, in Chromium against the real server: with Español chosen at
 * sign-in, the title, filters, columns, role and status names, row actions, the count, View Details, Add Offender,
 * Reset PIN (with its refusal while the entity has no IP range) and Import Roster (with its report) speak Spanish.
 * Texts are read from es.json, so a reworded translation does not break the test, but an English text left on
 * these screens does.
 * Build the PWA first (npm run build).
 */
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import type { Browser, Page } from 'playwright-core';
import { chooseOption } from '../support/antd_select.ts';
import { chromiumAvailable, launchBrowser } from '../support/browser.ts';
import { assertPwaBuilt, startTestServer } from '../support/server.ts';
import en from '../../pwa/src/i18n/en.json' with { type: 'json' };
import es from '../../pwa/src/i18n/es.json' with { type: 'json' };

const options = { sanitizeResources: false, sanitizeOps: false };
const ADMIN = { username: 'admin@demo.test', password: 'Demo-Admin-2026!' };
const users = es.users;

/** `{{name}}` and the like filled in, as i18next does. */
function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ''));
}

/** The visible text of the page's dialogs and main area, to look for English left behind. */
function shownText(page: Page, selector: string): Promise<string> {
  return page.locator(selector).first().innerText();
}

Deno.test({
  name: 'desktop, in Spanish: User Management, its dialogs and the roster import speak Spanish',
  ignore: !chromiumAvailable(),
  ...options,
  async fn() {
    assertPwaBuilt();
    const server = await startTestServer();
    const browser: Browser = await launchBrowser();
    try {
      const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(`${server.url}/login`);
      await page.getByRole('button', { name: 'Español' }).click();
      await page.getByLabel(es.login.username).fill(ADMIN.username);
      await page.getByLabel(es.login.password).fill(ADMIN.password);
      await page.getByRole('button', { name: es.login.submit }).click();
      await page.waitForURL(/\/portal\/admin/);
      await page.goto(`${server.url}/portal/admin/users`);

      await page.getByRole('heading', { name: users.title, level: 2 }).waitFor();
      await page.getByText(fill(users.showing, { shown: 6, total: 6 })).waitFor();
      for (const column of Object.values(users.columns)) {
        await page.locator('.ant-table-thead th', { hasText: column }).first().waitFor();
      }
      await page.getByLabel(users.search, { exact: true }).waitFor();
      assert.equal(await page.getByPlaceholder(users.searchPlaceholder).count(), 1);
      const table = await shownText(page, '.ant-table-tbody');
      for (
        const word of [users.roles.attorney, users.roles.offender, users.statuses.active, users.viewDetails]
      ) {
        assert.ok(table.includes(word), `${word} in the table`);
      }
      for (
        const english of [
          en.users.roles.attorney,
          en.users.statuses.active,
          en.users.viewDetails,
          'Deactivate',
        ]
      ) {
        assert.ok(!table.includes(english), `no English '${english}' in the table`);
      }
      await page.getByRole('button', {
        name: fill(users.actionNamed, { action: users.deactivate, name: 'Riley Paralegal' }),
      })
        .click();
      await page.locator('.ant-popconfirm').getByText(users.deactivateConsequence).waitFor();
      await page.locator('.ant-popconfirm').getByRole('button', { name: users.cancel }).click();
      await page.locator('.ant-popconfirm').waitFor({ state: 'hidden' });

      // The role filter's choices.
      await chooseOption(page, page.getByLabel(users.roleFilter, { exact: true }), users.roles.offender);
      await page.getByText(fill(users.showing, { shown: 2, total: 2 })).waitFor();
      assert.match(
        await shownText(page, '.ant-table-tbody'),
        new RegExp(fill(users.docNumberShort, { doc: '10000' })),
      );

      // View Details.
      await page.getByRole('button', { name: fill(users.viewDetailsNamed, { name: 'Richard Roe' }) }).click();
      const details = page.getByRole('dialog', { name: users.details.title });
      await details.getByText(users.details.recentActivity).waitFor();
      await details.getByText(users.details.userId).waitFor();
      await page.keyboard.press('Escape');
      await details.waitFor({ state: 'hidden' });

      // Reset PIN and Add Offender.
      await page.getByRole('button', { name: fill(users.resetPinNamed, { name: 'Richard Roe' }) }).click();
      const reset = page.getByRole('dialog', { name: users.resetPin });
      await reset.getByText(users.offenderForm.newPin, { exact: true }).waitFor();
      assert.match(await reset.innerText(), /Richard Roe/);
      assert.doesNotMatch(await reset.innerText(), /Their open sessions end/);
      // The demo entity has no IP range: the one-time PIN would work nowhere, and the refusal says so in Spanish,
      // in the dialog, until it is closed.
      await reset.getByLabel(users.offenderForm.newPin, { exact: true }).fill('97531864');
      await reset.getByRole('button', { name: users.resetPin }).click();
      await reset.getByRole('alert').getByText(es.codes.pin_reset_needs_facility_range).waitFor();
      assert.doesNotMatch(await reset.innerText(), /facility's network/);
      await reset.getByRole('button', { name: users.cancel }).click();
      await reset.waitFor({ state: 'hidden' });
      // Its name ends with the words ("Agregar personal", Add Staff, begins with the same ones).
      await page.getByRole('button', { name: new RegExp(`${users.addOffender}$`) }).click();
      const add = page.getByRole('dialog', { name: users.addOffender });
      for (
        const label of [
          users.offenderForm.docNumber,
          users.offenderForm.firstName,
          users.offenderForm.initialPin,
        ]
      ) {
        await add.getByLabel(label, { exact: true }).waitFor();
      }
      await add.getByRole('button', { name: users.cancel }).click();
      await add.waitFor({ state: 'hidden' });

      // Import Roster, and its report.
      await page.getByRole('button', { name: users.importRoster }).click();
      const importing = page.getByRole('dialog', { name: users.importRoster });
      await importing.locator('code', { hasText: 'doc_number,first_name,last_name,pin' }).waitFor();
      assert.doesNotMatch(await importing.innerText(), /A CSV file with the header row/);
      await importing.getByLabel(users.import.file).setInputFiles({
        name: 'roster.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(
          'doc_number,first_name,last_name,pin\n300001,Ana,Ruiz,482913\nbad,,,\n',
        ),
      });
      await importing.getByRole('button', { name: users.import.import, exact: true }).click();
      const report = importing.getByRole('region', { name: users.import.report });
      await report.getByText(users.import.rejectedRows).waitFor();
      for (const title of [users.import.added, users.import.updated, users.import.rejected]) {
        await report.getByText(title, { exact: true }).first().waitFor();
      }
      await importing.getByRole('button', { name: users.import.done }).click();
      await context.close();
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
