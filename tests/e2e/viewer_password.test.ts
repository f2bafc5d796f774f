/**
 * A password-protected PDF, end to end in headless Chromium against the real server: the sender is told at upload,
 * before sending, that the recipient will need the password; the offender's viewer asks for it (labelled, focused,
 * a plain error when wrong) instead of stopping; and the receipt says "opened" only once the viewer showed the
 * document, not when its bytes left the server. Build the PWA first (npm run build).
 */
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { chromiumAvailable, launchBrowser, newRecordedContext } from '../support/browser.ts';
import { encryptPdf, makePdf } from '../support/pdfs.ts';
import { apiToken } from '../support/api_client.ts';
import { assertPwaBuilt, startTestServer, type TestServer } from '../support/server.ts';

const ATTORNEY = { username: 'attorney@demo.test', password: 'Demo-Attorney-2026!' };
const OFFENDER = { username: '100001', password: '246810' };
const PASSWORD = 'letter-pw-2026';
const TITLE = 'Sealed settlement';

async function signIn(page: Page, url: string, who: { username: string; password: string }): Promise<void> {
  await page.goto(`${url}/login`);
  await page.getByLabel('facility ID number').fill(who.username);
  await page.getByLabel('Pin Number').fill(who.password);
  await page.getByRole('button', { name: 'View Mail' }).click();
  await page.waitForURL(/\/portal/);
}

/** The sender's row of the document, as the API answers the attorney's list. */
async function senderRow(server: TestServer, token: string): Promise<{ documentid: string; state: string }> {
  const response = await fetch(`${server.url}/api/documents/attorney`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const body = await response.json();
  const row = body.documents.find((d: { name: string }) => d.name === TITLE);
  assert.ok(row, `${TITLE} is in the sender's list`);
  return row;
}

/** True when the element with the accessible label `label` has the focus. */
function focusedLabel(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const active = document.activeElement as HTMLInputElement | null;
    return active?.labels?.[0]?.textContent ?? null;
  });
}

const options = { sanitizeResources: false, sanitizeOps: false };

Deno.test({
  name:
    'a password-protected PDF: the sender is told at upload, the viewer asks, and "opened" waits for the screen',
  ignore: !chromiumAvailable(),
  ...options,
  async fn(t) {
    assertPwaBuilt();
    const server = await startTestServer();
    const browser: Browser = await launchBrowser();
    const tmp = await Deno.makeTempDir({ prefix: 'lmp-password-' });
    try {
      const locked = await encryptPdf(await makePdf({ pages: 2, title: TITLE }), {
        userPassword: PASSWORD,
        print: true,
      });
      await Deno.writeFile(`${tmp}/sealed.pdf`, locked);
      const attorneyToken = await apiToken(server, ATTORNEY);

      await t.step('the Upload modal tells the sender the recipient will need the password', async () => {
        const { context, page } = await newRecordedContext(browser, server.url);
        page.setDefaultTimeout(20_000);
        await signIn(page, server.url, ATTORNEY);
        await page.getByRole('button', { name: 'Upload New Document' }).click();
        const dialog = page.getByRole('dialog', { name: 'Upload Document' });
        await dialog.getByLabel('Recipient DOC Number').fill(OFFENDER.username);
        await dialog.getByLabel('Document Title').fill(TITLE);
        await dialog.getByLabel('PDF File').setInputFiles(`${tmp}/sealed.pdf`);
        const notice = dialog.locator('.upload-password-notice');
        await notice.getByText('This PDF is protected by a password').waitFor();
        assert.match(
          (await notice.textContent()) ?? '',
          /The recipient will need the password to read it: the viewer will ask them for it\./,
        );
        assert.equal(await notice.getAttribute('role'), 'status');
        // Another file, not protected: the notice goes.
        await Deno.writeFile(`${tmp}/plain.pdf`, await makePdf({ pages: 1 }));
        await dialog.getByLabel('PDF File').setInputFiles(`${tmp}/plain.pdf`);
        await notice.waitFor({ state: 'detached' });
        await dialog.getByLabel('PDF File').setInputFiles(`${tmp}/sealed.pdf`);
        await notice.waitFor();
        await dialog.getByRole('button', { name: 'Upload' }).click();
        await page.getByText('Document uploaded successfully!').waitFor({ timeout: 30_000 });
        await context.close();
      });

      const { documentid: id, state } = await senderRow(server, attorneyToken);
      assert.equal(state, 'delivered');

      const { context, page, foreignRequests } = await newRecordedContext(browser, server.url);
      page.setDefaultTimeout(20_000);
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      const served: string[] = [];
      page.on('response', (response) => {
        if (response.url().includes(`/api/documents/view/${id}`)) served.push(String(response.status()));
      });
      // The offender's portal stays open in a tab of its own, as on the tablet (pwa/src/viewer/useTabletGate.ts).
      const portal = await context.newPage();
      await signIn(portal, server.url, OFFENDER);

      await t.step('the viewer asks for the password in plain words, with the field focused', async () => {
        await page.goto(`${server.url}/pdfViewer/${id}`);
        await page.getByRole('heading', { name: 'This document has a password' }).waitFor();
        await page.getByText('Type the password the sender gave you to open it.').waitFor();
        const field = page.getByLabel('Password', { exact: true });
        await field.waitFor();
        assert.equal(await focusedLabel(page), 'Password');
        const button = page.getByRole('button', { name: 'Open document' });
        const box = await button.boundingBox();
        assert.ok(box && box.height >= 44, `the button is a 44 px target (${box?.height})`);
        assert.ok(served.length > 0, 'the bytes were served');
        assert.equal(
          (await senderRow(server, attorneyToken)).state,
          'delivered',
          'bytes served are not "opened"',
        );
      });

      await t.step('a wrong password says so, and nothing is opened', async () => {
        const field = page.getByLabel('Password', { exact: true });
        await field.fill('not-the-password');
        await field.press('Enter');
        await page.getByRole('alert').filter({
          hasText: 'That password did not open the document. Please check it and try again.',
        }).waitFor();
        assert.equal(await field.getAttribute('aria-invalid'), 'true');
        await page.waitForFunction(() => (document.activeElement as HTMLInputElement | null)?.value === '');
        assert.equal(await focusedLabel(page), 'Password');
        assert.equal((await senderRow(server, attorneyToken)).state, 'delivered');
      });

      await t.step('the right password shows the document, and only then is it "opened"', async () => {
        const field = page.getByLabel('Password', { exact: true });
        await field.fill(PASSWORD);
        await page.getByRole('button', { name: 'Open document' }).click();
        await page.getByTestId('page-count').filter({ hasText: '/ 2' }).waitFor();
        await page.locator('.pdfViewer .page canvas').first().waitFor();
        const deadline = Date.now() + 10_000;
        let now = await senderRow(server, attorneyToken);
        while (now.state !== 'opened' && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          now = await senderRow(server, attorneyToken);
        }
        assert.equal(now.state, 'opened');
      });

      await context.close();
      assert.deepEqual(foreignRequests, [], 'no request may leave the app origin');
      assert.deepEqual(problems, [], 'no page error');
    } finally {
      await browser.close();
      await server.stop();
      await Deno.remove(tmp, { recursive: true });
    }
  },
});
