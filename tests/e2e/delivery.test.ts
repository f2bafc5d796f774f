/**
 * Delivery in Chromium against the real server: the Upload modal names the recipient before Upload enables and
 * refuses an unknown number; a withdrawn document leaves the offender's list; the sender's list shows Opened once
 * the offender reads, with the receipt's timeline in Info; the sender's Notifications setting is kept; a
 * time-sensitive document comes first on the tablet with its badge.
 * Build the PWA first: node_modules/.bin/vite build --config pwa/vite.config.ts
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { chromiumAvailable, launchBrowser } from '../support/browser.ts';
import { apiToken, apiUpload } from '../support/api_client.ts';
import { setNumberSettingByApi, signInThroughForm, tabletPage } from '../support/offline_pages.ts';
import { makePdf } from '../support/pdfs.ts';
import { assertPwaBuilt, startTestServer } from '../support/server.ts';

const ATTORNEY = { username: 'attorney@demo.test', password: 'Demo-Attorney-2026!' };
const OFFENDER = { username: '100001', password: '246810' };
const OFFENDER2 = { username: '100002', password: '135790' };
const ADMIN = { username: 'admin@demo.test', password: 'Demo-Admin-2026!' };

const options = { sanitizeResources: false, sanitizeOps: false };

function row(page: Page, name: string | RegExp) {
  return page.getByRole('row', { name });
}

/**
 * Waits until the offender's list (table or cards), opened afresh, no longer shows `name`: on a busy machine the
 * count can paint before the server's newest answer has replaced what the page showed first.
 */
async function offenderStopsSeeing(page: Page, url: string, name: string): Promise<void> {
  await page.goto(`${url}/portal/offender`);
  await page.locator('.document-table-count').waitFor();
  await page.getByText(name, { exact: true }).waitFor({ state: 'detached' });
}

Deno.test({
  name:
    'delivery: confirm the recipient, withdraw, Opened in the sender list, time-sensitive first on the tablet',
  ignore: !chromiumAvailable(),
  ...options,
  async fn(t) {
    assertPwaBuilt();
    const server = await startTestServer();
    const browser = await launchBrowser();
    const tmp = await Deno.makeTempDir({ prefix: 'lmp-e2e-delivery-' });
    try {
      const attorneyToken = await apiToken(server, ATTORNEY);
      const offenderToken = await apiToken(server, OFFENDER);
      const adminToken = await apiToken(server, ADMIN);
      await Deno.writeFile(`${tmp}/urgent.pdf`, await makePdf({ pages: 1, title: 'Zebra deadline' }));
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      await signInThroughForm(page, server.url, ATTORNEY);
      await page.getByRole('heading', { level: 2, name: 'Attorney Portal' }).waitFor();

      await t.step(
        'the Upload modal shows who a DOC number is before Upload enables, and refuses an unknown one',
        async () => {
          await page.getByRole('button', { name: 'Upload New Document' }).click();
          const dialog = page.getByRole('dialog', { name: 'Upload Document' });
          await dialog.waitFor();
          const upload = dialog.getByRole('button', { name: 'Upload' });
          await dialog.getByLabel('Document Title').fill('Zebra deadline');
          await dialog.getByLabel('PDF File').setInputFiles(`${tmp}/urgent.pdf`);
          const docNumber = dialog.getByLabel('Recipient DOC Number');
          await docNumber.fill('999999');
          assert.ok(await upload.isDisabled(), 'disabled while the number is not confirmed');
          await dialog.getByText('DOC 999999: No one with this DOC number receives mail here').waitFor();
          assert.ok(await upload.isDisabled(), 'disabled for an unknown number');
          await docNumber.fill(OFFENDER2.username);
          assert.ok(await upload.isDisabled(), 'disabled until the new number is confirmed');
          await dialog.getByText('ROE, R. — DOC 100002').waitFor();
          // Enabled once the recipient is shown (the button follows the name by a render).
          await dialog.getByRole('button', { name: 'Upload', disabled: false }).waitFor();
          await dialog.getByRole('checkbox', { name: 'Time-sensitive' }).check();
          // antd's date picker: a date typed in its field is taken as typed; Tab closes its calendar.
          await dialog.getByLabel('Respond by (optional)').fill('2099-12-03');
          await dialog.getByLabel('Respond by (optional)').press('Tab');
          await upload.click();
          await page.getByText('Document uploaded successfully!').waitFor({ timeout: 30_000 });
          await dialog.waitFor({ state: 'hidden' });

          // Several recipients, one per line: each confirmed by name.
          await page.getByRole('button', { name: 'Upload New Document' }).click();
          await dialog.getByLabel('Recipient DOC Number').fill('100001\n100002');
          await dialog.getByText('DOE, J. — DOC 100001').waitFor();
          await dialog.getByText('ROE, R. — DOC 100002').waitFor();
          await dialog.getByRole('button', { name: 'Cancel' }).click();
          await dialog.waitFor({ state: 'hidden' });
        },
      );

      await t.step('a time-sensitive document comes first on the tablet, with its badge', async () => {
        // Newer and first by name, yet second: time-sensitive mail comes first whatever the sort.
        await apiUpload(server, attorneyToken, {
          recipient: OFFENDER2.username,
          title: 'Aardvark newsletter',
          bytes: await makePdf(),
        });
        const tablet = await tabletPage(browser);
        await signInThroughForm(tablet.page, server.url, OFFENDER2);
        const cards = tablet.page.locator('.document-card');
        await cards.first().waitFor();
        const first = cards.first();
        assert.equal(await first.locator('.document-card-title').textContent(), 'Zebra deadline');
        await first.getByText('Time-sensitive — respond by Dec 3, 2099').waitFor();
        assert.equal(await cards.nth(1).locator('.time-sensitive').count(), 0);
        await tablet.context.close();
      });

      await t.step('the sender withdraws an unopened document and it leaves the offender list', async () => {
        await apiUpload(server, attorneyToken, {
          recipient: OFFENDER.username,
          title: 'Wrong client letter',
          bytes: await makePdf(),
        });
        // A tablet that fetches nothing ahead: a fetched-ahead document can no longer be withdrawn (its copy is on
        // the tablet), which the next step shows.
        await setNumberSettingByApi(server, adminToken, 'offline_prefetch_count', 0);
        const reader = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        const offenderPage = await reader.newPage();
        offenderPage.setDefaultTimeout(20_000);
        await signInThroughForm(offenderPage, server.url, OFFENDER);
        await offenderPage.getByText('Wrong client letter', { exact: true }).waitFor();

        await page.reload();
        await page.getByLabel('Search:').fill('Wrong client');
        const wrong = row(page, /Wrong client letter/);
        await wrong.getByText('Delivered', { exact: true }).waitFor();
        await wrong.getByRole('button', { name: 'Withdraw Wrong client letter' }).click();
        const confirm = page.getByRole('alertdialog', { name: 'Withdraw this document?' });
        await confirm.getByText("'Wrong client letter' to DOC 100001 will leave the recipient's list")
          .waitFor();
        await confirm.getByRole('button', { name: 'Withdraw' }).click();
        await page.getByText('Document withdrawn. The recipient can no longer see it.').waitFor();
        await wrong.getByText('Withdrawn', { exact: true }).waitFor();
        assert.equal(await wrong.getByRole('button', { name: /^Withdraw/ }).count(), 0);

        await offenderStopsSeeing(offenderPage, server.url, 'Wrong client letter');
        await reader.close();
      });

      await t.step(
        'a document the tablet fetched ahead cannot be withdrawn, and the sender is told why',
        async () => {
          await setNumberSettingByApi(server, adminToken, 'offline_prefetch_count', 10);
          await apiUpload(server, attorneyToken, {
            recipient: OFFENDER.username,
            title: 'Fetched ahead letter',
            bytes: await makePdf(),
          });
          const tablet = await tabletPage(browser);
          await signInThroughForm(tablet.page, server.url, OFFENDER);
          await tablet.page.getByText('Fetched ahead letter', { exact: true }).waitFor();
          // The tablet fetches unread mail ahead once its list has loaded.
          const fetched = async () => {
            const response = await fetch(`${server.url}/api/documents/attorney`, {
              headers: { Authorization: `Bearer ${attorneyToken}` },
            });
            const body = await response.json();
            return body.documents.find((d: { name: string }) => d.name === 'Fetched ahead letter');
          };
          const deadline = Date.now() + 30_000;
          while (Date.now() < deadline) {
            const info = await fetch(`${server.url}/api/documents/${(await fetched()).documentid}/info`, {
              headers: { Authorization: `Bearer ${attorneyToken}` },
            });
            const receipt = (await info.json()).data.document;
            if (receipt.timeline.some((e: { event: string }) => e.event === 'fetched')) break;
            await new Promise((resolve) => setTimeout(resolve, 250));
          }
          await page.reload();
          await page.getByLabel('Search:').fill('Fetched ahead');
          const letter = row(page, /Fetched ahead letter/);
          await letter.getByRole('button', { name: 'Withdraw Fetched ahead letter' }).click();
          await page.getByRole('alertdialog', { name: 'Withdraw this document?' }).getByRole('button', {
            name: 'Withdraw',
          }).click();
          await page.getByText(
            /^This document was already saved to the recipient's tablet on .* and cannot be withdrawn\.$/,
          )
            .waitFor();
          await letter.getByText('Delivered', { exact: true }).waitFor();
          await tablet.context.close();
        },
      );

      await t.step(
        'the sender list shows Opened once the offender reads, and Info shows the timeline',
        async () => {
          const id = await apiUpload(server, attorneyToken, {
            recipient: OFFENDER.username,
            title: 'Plea offer',
            bytes: await makePdf({ pages: 2 }),
          });
          const read = await fetch(`${server.url}/api/documents/view/${id}`, {
            headers: { Authorization: `Bearer ${offenderToken}` },
          });
          assert.equal(read.status, 200);
          await read.body?.cancel();
          // "Opened" is the viewer's report that it showed the document, not the bytes leaving the server.
          const shown = await fetch(`${server.url}/api/documents/shown/${id}`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${offenderToken}` },
          });
          assert.equal(shown.status, 200);
          await shown.body?.cancel();
          await page.reload();
          await page.getByLabel('Search:').fill('Plea offer');
          const plea = row(page, /Plea offer/);
          await plea.getByText(/^Opened [A-Z][a-z]{2} \d{1,2}, \d{4}$/).waitFor();
          assert.equal(
            await plea.getByRole('button', { name: /^Withdraw/ }).count(),
            0,
            'no Withdraw once opened',
          );
          await plea.getByRole('button', { name: 'Info Plea offer' }).click();
          const info = page.getByRole('dialog', { name: 'Plea offer' });
          await info.getByRole('heading', { name: 'Timeline' }).waitFor();
          await info.getByText(/^Sent — /).waitFor();
          await info.getByText(/^Opened — /).waitFor();
          await info.getByRole('button', { name: 'Close' }).click();
        },
      );

      await t.step("the sender's Notifications setting is kept on the server", async () => {
        await page.getByText('Notifications', { exact: true }).click();
        const box = page.getByRole('checkbox', { name: 'E-mail me when a document I sent is first opened' });
        assert.equal(await box.isChecked(), false, 'off by default');
        await box.check();
        await page.getByText('Saved', { exact: true }).waitFor();
        await page.reload();
        await page.getByText('Notifications', { exact: true }).click();
        await page.getByRole('checkbox', { name: 'E-mail me when a document I sent is first opened' })
          .and(page.locator(':checked')).waitFor();
      });
      await context.close();
    } finally {
      await browser.close();
      await server.stop();
      await Deno.remove(tmp, { recursive: true }).catch(() => {});
    }
  },
});
