/**
 * The back office and the viewer in Spanish, in Chromium against the real server: Español chosen on the sign-in
 * screen holds for that sign-in, so the approver's list and its dialogs, and the viewer's print and properties
 * dialogs, speak Spanish, with Spanish dates ('5 ene 2025'). Texts are read from es.json, so a reworded
 * translation does not break the test, but an English text left on these screens does.
 * Build the PWA first (npm run build).
 */
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { apiToken, apiUpload } from '../support/api_client.ts';
import { chromiumAvailable, launchBrowser } from '../support/browser.ts';
import { makePdf } from '../support/pdfs.ts';
import { assertPwaBuilt, startTestServer } from '../support/server.ts';
import { registerApplicant } from '../support/factories.ts';
import { DEMO_ATTORNEY, DEMO_OFFENDER, openViewer, SCREENS } from '../support/viewer_pages.ts';
import es from '../../pwa/src/i18n/es.json' with { type: 'json' };

const options = { sanitizeResources: false, sanitizeOps: false };
const APPROVER = { username: 'approver@demo.test', password: 'Demo-Approver-2026!' };
const APPLICANT = {
  firstName: 'Lucía',
  lastName: 'Ortega',
  email: `lucia-${Date.now().toString(36)}@e2e.test`,
};
/** A Spanish date as the portal writes it: day, short month in letters, year ('5 ene 2025'). */
const SPANISH_DATE = /\b\d{1,2} [a-z]{3} \d{4}\b/;

/** `{{name}}` and the like filled in, as i18next does. */
function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '');
}

/** Signs in through the form with Español chosen first. */
async function signInInSpanish(page: Page, url: string, who: { username: string; password: string }) {
  await page.goto(`${url}/login`);
  await page.getByRole('button', { name: 'Español' }).click();
  await page.getByLabel(es.login.username).fill(who.username);
  await page.getByLabel(es.login.password).fill(who.password);
  await page.getByRole('button', { name: es.login.submit }).click();
  await page.waitForURL(/\/portal/);
}

Deno.test({
  name: 'in Spanish, the approver list, its dialogs and the viewer dialogs show Spanish texts and dates',
  ignore: !chromiumAvailable(),
  ...options,
  async fn(t) {
    assertPwaBuilt();
    const server = await startTestServer();
    const browser: Browser = await launchBrowser();
    try {
      await registerApplicant(server.url, APPLICANT);
      const token = await apiToken(server, DEMO_ATTORNEY);
      const letterId = await apiUpload(server, token, {
        recipient: DEMO_OFFENDER.username,
        title: 'Carta de prueba',
        bytes: await makePdf({ pages: 2, title: 'Carta' }),
      });

      await t.step('the approver: Registros pendientes, a Spanish date, Aprobar and Rechazar', async () => {
        const context = await browser.newContext(SCREENS.desktop);
        try {
          const page = await context.newPage();
          page.setDefaultTimeout(20_000);
          await signInInSpanish(page, server.url, APPROVER);
          await page.getByRole('heading', { name: es.approver.heading }).waitFor();
          assert.equal(await page.locator('html').getAttribute('lang'), 'es');
          await page.getByRole('columnheader', { name: es.approver.columns.submitted }).waitFor();
          await page.getByRole('button', { name: es.section.refresh }).waitFor();
          const name = `${APPLICANT.firstName} ${APPLICANT.lastName}`;
          const row = page.getByRole('row', { name: new RegExp(APPLICANT.email) });
          assert.match(await row.innerText(), SPANISH_DATE);

          await page.getByRole('button', { name: fill(es.approver.approveNamed, { name }) }).click();
          const approve = page.getByRole('dialog', { name: es.approver.approveTitle });
          await approve.waitFor();
          assert.equal(
            (await approve.locator('.ant-typography').first().innerText()).trim(),
            fill(es.approver.approveBody, { name, email: APPLICANT.email }),
          );
          await approve.locator('strong', { hasText: name }).waitFor();
          await page.keyboard.press('Escape');
          await approve.waitFor({ state: 'hidden' });

          await page.getByRole('button', { name: fill(es.approver.rejectNamed, { name }) }).click();
          const reject = page.getByRole('dialog', { name: es.approver.rejectTitle });
          await reject.getByLabel(es.approver.reason).waitFor();
          assert.equal(await reject.getByRole('button', { name: es.approver.reject }).isDisabled(), true);
        } finally {
          await context.close();
        }
      });

      await t.step('the attorney: Mis documentos, Subir un documento nuevo, and Representantes', async () => {
        const context = await browser.newContext(SCREENS.desktop);
        try {
          const page = await context.newPage();
          page.setDefaultTimeout(20_000);
          await signInInSpanish(page, server.url, DEMO_ATTORNEY);
          await page.getByRole('heading', { name: es.sender.heading }).waitFor();
          await page.getByRole('button', { name: es.attorney.upload }).click();
          const upload = page.getByRole('dialog', { name: es.upload.title });
          await upload.getByLabel(es.upload.documentTitle).waitFor();
          await upload.getByRole('button', { name: es.upload.cancel }).click();
          await upload.waitFor({ state: 'hidden' });
          await page.getByRole('button', { name: es.attorney.representatives }).click();
          await page.getByRole('heading', { name: es.representatives.title }).waitFor();
          await page.getByText(es.representatives.intro).waitFor();
        } finally {
          await context.close();
        }
      });

      await t.step(
        'the viewer: its toolbar, Imprimir with its page choice, and the properties with Spanish labels',
        async () => {
          const context = await browser.newContext(SCREENS.desktop);
          try {
            // The offender's portal stays open in a tab of its own: the viewer shows mail only while it is open.
            const portal = await context.newPage();
            portal.setDefaultTimeout(20_000);
            await signInInSpanish(portal, server.url, DEMO_OFFENDER);
            const page = await context.newPage();
            page.setDefaultTimeout(20_000);
            await openViewer(page, server.url, letterId);
            await page.getByLabel(es.viewer.pages).waitFor();

            await page.keyboard.press('Control+p');
            const print = page.getByRole('dialog', { name: es.print.title });
            await print.getByRole('radio', { name: es.print.all }).waitFor();
            await print.getByRole('radio', { name: es.print.some }).waitFor();
            await print.getByText(fill(es.print.rangeHelp, { last: '2' })).waitFor();
            await print.getByLabel(es.print.range, { exact: true }).fill('7');
            await print.getByRole('button', { name: es.print.submit }).click();
            await print.getByText(fill(es.print.enterPages, { last: '2' })).waitFor();
            await page.keyboard.press('Escape');
            await print.waitFor({ state: 'hidden' });

            const toolbar = page.getByRole('toolbar', { name: es.viewerTools.tools });
            await toolbar.getByRole('button', { name: es.viewerTools.next }).waitFor();
            await toolbar.getByRole('combobox', { name: es.viewerTools.zoom }).waitFor();
            await toolbar.getByRole('button', { name: es.viewerTools.properties }).click();
            const properties = page.getByRole('dialog', { name: es.properties.title });
            await properties.getByText(es.properties.fileName).waitFor();
            await properties.getByText(es.properties.pageCount).waitFor();
            const creation = properties.locator('tr', { hasText: es.properties.creationDate });
            assert.match(await creation.innerText(), SPANISH_DATE);
            // Both ways out say Cerrar: the footer's button and antd's × (in antd's Spanish since it follows the page).
            assert.equal(
              await properties.getByRole('button', { name: es.common.close, exact: true }).count(),
              2,
            );
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
