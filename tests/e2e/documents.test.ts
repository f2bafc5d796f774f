/**
 * The mail portals end to end in headless Chromium against the real server:
 * an attorney and a representative upload PDFs from the UI (with a progress
 * bar), the offender finds them, reads them in the viewer and prints them,
 * and the sender sees when they were read; search, sort, paging, page size,
 * Info and the lock icon of an encrypted PDF; nothing leaves the app's origin.
 * The sender lists (attorney, representative) are paged by the server: 30+ documents prove Next,
 * Previous, numbered pages, the sort over every page, the debounced search and the page size through it.
 * Build the PWA first: node_modules/.bin/vite build --config pwa/vite.config.ts
 */
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { chromiumAvailable, launchBrowser, newRecordedContext } from '../support/browser.ts';
import { encryptPdf, makePdf, sha256Hex } from '../support/pdfs.ts';
import { apiToken, apiUpload } from '../support/api_client.ts';
import { assertPwaBuilt, startTestServer, type TestServer } from '../support/server.ts';
import { replaceStoredToken } from '../support/offline_pages.ts';

const ATTORNEY = { username: 'attorney@demo.test', password: 'Demo-Attorney-2026!' };
const REPRESENTATIVE = { username: 'representative@demo.test', password: 'Demo-Rep-2026!' };
const OFFENDER = { username: '100001', password: '246810' };

/** Replaces window.print in every page and pop-up of a context, counting the calls. */
const PRINT_SPY = `
  window.__prints = 0;
  window.print = () => { window.__prints += 1; };
`;

/** Every pop-up is blocked, as a browser with a pop-up blocker does. */
const NO_POPUPS = `window.open = () => null;`;

/**
 * Records, from the moment the page loads, every percentage the upload
 * progress bar shows (a fast local upload may show it only briefly).
 */
const PROGRESS_SPY = `
  window.__progress = [];
  new MutationObserver(() => {
    const bar = document.querySelector('.upload-progress [role="progressbar"], .upload-progress .ant-progress');
    if (!bar) return;
    const value = bar.getAttribute('aria-valuenow') ?? bar.textContent ?? '';
    const last = window.__progress[window.__progress.length - 1];
    if (value !== last) window.__progress.push(value);
  }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
`;

/** The document names of a list answer. */
async function listNames(server: TestServer, token: string, path: string): Promise<string[]> {
  const response = await fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${token}` } });
  const body = await response.json();
  assert.equal(response.status, 200, JSON.stringify(body));
  return body.documents.map((document: { name: string }) => document.name);
}

/** Waits until the table's first row is the named document. */
async function firstRowIs(page: Page, name: string): Promise<void> {
  await page.waitForFunction(
    (expected) =>
      document.querySelector('.document-table tbody tr.document-row td > div > span')?.textContent ===
        expected,
    name,
  );
}

async function signIn(page: Page, url: string, who: { username: string; password: string }): Promise<void> {
  await page.goto(`${url}/login`);
  await page.getByLabel('facility ID number').fill(who.username);
  await page.getByLabel('Pin Number').fill(who.password);
  await page.getByRole('button', { name: 'View Mail' }).click();
  await page.waitForURL(/\/(portal|representative)/);
}

function row(page: Page, name: string | RegExp) {
  return page.getByRole('row', { name });
}

/** Searches the table for a document by its name and returns its row. */
async function find(page: Page, name: string) {
  await page.getByLabel('Search:').fill(name);
  const found = row(page, new RegExp(name));
  await found.waitFor();
  return found;
}

function footer(page: Page) {
  return page.locator('.document-table-count');
}

/** The document names of the table, top to bottom. */
function names(page: Page): Promise<string[]> {
  return page.locator('.document-table tbody tr.document-row td:first-child > div > span:first-child')
    .allTextContents();
}

/** The offender's list rows (the shared light table, mail/DocumentTable.tsx). */
function offenderRows(page: Page) {
  return page.locator('.document-table tbody tr.document-row');
}

/** Picks an option of a native <select> (the table's page size). */
async function chooseOption(page: Page, label: string, option: string): Promise<void> {
  await page.getByLabel(label).selectOption(option);
}

/** Uploads from the portal's 'Upload Document' modal with the upload slowed down, so progress is visible. */
async function uploadFromUi(
  page: Page,
  context: BrowserContext,
  document: { title: string; file: string; description?: string },
): Promise<string[]> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  // About 4 MB at 2 MB/s: two seconds of real progress events.
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: 2 * 1024 * 1024,
  });
  await page.getByRole('button', { name: 'Upload New Document' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload Document' });
  // The dialog's code (antd's Form and Modal) may still be arriving on a busy machine.
  await dialog.waitFor({ timeout: 30_000 });
  const upload = dialog.getByRole('button', { name: 'Upload' });
  assert.ok(await upload.isDisabled(), 'Upload starts disabled');
  await dialog.getByText('PDF files only, max 10MB').waitFor();
  await dialog.getByLabel('Recipient DOC Number').fill(OFFENDER.username);
  await dialog.getByLabel('Document Title').fill(document.title);
  if (document.description) await dialog.getByLabel('Description (optional)').fill(document.description);
  assert.ok(await upload.isDisabled(), 'Upload stays disabled without a file');
  await dialog.getByLabel('PDF File').setInputFiles(document.file);
  await upload.click();
  await page.locator('.upload-progress').waitFor();
  await page.getByText('Document uploaded successfully!').waitFor({ timeout: 30_000 });
  await dialog.waitFor({ state: 'hidden' });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await cdp.detach();
  await row(page, new RegExp(document.title)).waitFor();
  return await page.evaluate(() => (window as unknown as { __progress: string[] }).__progress);
}

function percentages(seen: string[]): number[] {
  return seen.map((value) => Number.parseInt(value, 10)).filter((n) => Number.isFinite(n));
}

/** Clicks a row action and returns the pop-up it opens. */
async function popupFrom(page: Page, action: () => Promise<void>): Promise<Page> {
  const popup = page.waitForEvent('popup');
  await action();
  return await popup;
}

const options = { sanitizeResources: false, sanitizeOps: false };

Deno.test({
  name: 'the mail portals: upload with progress, read, print, Info, search, sort, paging and read receipts',
  ignore: !chromiumAvailable(),
  ...options,
  async fn(t) {
    assertPwaBuilt();
    const server = await startTestServer();
    const browser: Browser = await launchBrowser();
    const contexts: BrowserContext[] = [];
    const foreign: string[] = [];
    const tmp = await Deno.makeTempDir({ prefix: 'lmp-e2e-docs-' });
    const open = async (init: string[] = []) => {
      const recorded = await newRecordedContext(browser, server.url);
      contexts.push(recorded.context);
      recorded.context.on('close', () => foreign.push(...recorded.foreignRequests));
      for (const script of init) await recorded.context.addInitScript(script);
      // The init scripts apply to pages opened from now on: use a fresh page.
      const page = await recorded.context.newPage();
      page.setDefaultTimeout(15_000);
      return { context: recorded.context, page };
    };

    try {
      // About 4 MB of incompressible filler: the slowed upload takes a couple of seconds.
      const brief = await makePdf({ pages: 3, title: 'Appeal brief', padTo: 4 * 1024 * 1024 });
      const letter = await makePdf({ pages: 2, padTo: 4 * 1024 * 1024 });
      await Deno.writeFile(`${tmp}/appeal-brief.pdf`, brief);
      await Deno.writeFile(`${tmp}/rep-letter.pdf`, letter);
      const attorneyToken = await apiToken(server, ATTORNEY);
      // The demo seed may already hold mail for the demo offender, all sent by the demo attorney's office.
      const seeded = await listNames(server, attorneyToken, '/api/documents/attorney');

      await t.step('the attorney uploads a PDF from the UI and sees a real progress bar', async () => {
        const { context, page } = await open([PROGRESS_SPY]);
        await signIn(page, server.url, ATTORNEY);
        await page.getByRole('heading', { level: 2, name: 'Attorney Portal' }).waitFor();
        await footer(page).filter({ hasText: `of ${seeded.length} entries` }).waitFor();
        const seen = await uploadFromUi(page, context, {
          title: 'Appeal brief',
          file: `${tmp}/appeal-brief.pdf`,
          description: 'Read before the hearing',
        });
        const values = percentages(seen);
        assert.ok(values.length > 0, 'the progress bar showed');
        assert.ok(
          values.some((n) => n > 0 && n < 100),
          `an intermediate percentage showed: ${seen.join(', ')}`,
        );
        const uploaded = row(page, /Appeal brief/);
        await uploaded.getByText('Delivered', { exact: true }).waitFor();
        assert.match(await uploaded.textContent() ?? '', /100001/);
        await context.close();
      });

      await t.step('the representative uploads from the UI and sees it under My Documents', async () => {
        const { context, page } = await open([PROGRESS_SPY]);
        await signIn(page, server.url, REPRESENTATIVE);
        await page.getByRole('heading', { level: 2, name: 'Representative Portal' }).waitFor();
        await page.getByRole('heading', { level: 2, name: 'My Documents' }).waitFor();
        const seen = await uploadFromUi(page, context, {
          title: 'Rep letter',
          file: `${tmp}/rep-letter.pdf`,
        });
        assert.ok(percentages(seen).length > 0, 'the progress bar showed');
        // No description: Info still opens on a sender's list, for the delivery receipt.
        assert.ok(
          await row(page, /Rep letter/).getByRole('button', { name: 'Info Rep letter' }).isEnabled(),
        );
        await context.close();
      });

      // Enough documents to page through, and one the server cannot count (user-password encrypted).
      const locked = await encryptPdf(await makePdf({ pages: 2 }), { userPassword: 'userpw', print: true });
      await apiUpload(server, attorneyToken, {
        recipient: OFFENDER.username,
        title: 'Sealed exhibit',
        bytes: locked,
      });
      for (let i = 1; i <= 12; i++) {
        await apiUpload(server, attorneyToken, {
          recipient: OFFENDER.username,
          title: `Filing ${String(i).padStart(2, '0')}`,
          bytes: await makePdf({ pages: 1 + (i % 4) }),
        });
      }
      const total = seeded.length + 15;
      const allNames = await listNames(server, attorneyToken, '/api/documents/attorney');
      assert.equal(allNames.length, total);
      // The server's name order: case-insensitive, character by character (api/db/documents.ts).
      const serverOrder = (names: string[]) =>
        [...names].sort((a, b) =>
          a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0
        );

      await t.step('the offender pages, resizes, searches and sees the lock icon and Info', async () => {
        const { page } = await open();
        await signIn(page, server.url, OFFENDER);
        await footer(page).filter({ hasText: `Showing 1 to 10 of ${total} entries` }).waitFor();
        assert.equal(await offenderRows(page).count(), 10);
        assert.ok(await page.getByRole('button', { name: 'Previous' }).isDisabled());
        assert.ok(await page.getByRole('button', { name: 'Page 1' }).isDisabled());
        await page.getByRole('button', { name: 'Next' }).click();
        await footer(page).filter({ hasText: `Showing 11 to ${total} of ${total} entries` }).waitFor();
        assert.ok(await page.getByRole('button', { name: 'Next' }).isDisabled());
        assert.ok(await page.getByRole('button', { name: 'Page 2' }).isDisabled());

        await page.getByLabel('Entries per page').selectOption('25');
        await footer(page).filter({ hasText: `Showing 1 to ${total} of ${total} entries` }).waitFor();
        assert.equal(await offenderRows(page).count(), total);

        const search = page.getByLabel('Search:');
        await search.fill('APPEAL');
        await footer(page).filter({ hasText: 'Showing 1 to 1 of 1 entries' }).waitFor();
        await search.fill('atticus');
        // Starts-with on the sending attorney's name keeps every document he sent.
        await row(page, /Sealed exhibit/).waitFor();
        await row(page, /Appeal brief/).waitFor();
        assert.equal(await row(page, /Filing/).count(), 12);
        await search.fill('zzz');
        await page.getByText('No documents found').waitFor();
        await search.fill('Sealed');
        const sealed = row(page, /Sealed exhibit/);
        await sealed.getByRole('img', { name: 'Encrypted, page count unavailable' }).waitFor();
        await search.fill('');

        const briefRow = row(page, /Appeal brief/);
        assert.match(await briefRow.textContent() ?? '', /Atticus Counsel/);
        assert.match(await briefRow.textContent() ?? '', /[A-Z][a-z]{2} \d{1,2}, \d{4}/);
        // A letter without a description still has its Info: who sent it and when (the spec's description rule
        // aside).
        await row(page, /Filing 01/).getByRole('button', { name: 'Info Filing 01' }).click();
        const filingInfo = page.getByRole('dialog', { name: 'Filing 01' });
        await filingInfo.getByText(/^Sent by .+ on [A-Z][a-z]{2} \d{1,2}, \d{4}/).waitFor();
        await page.keyboard.press('Escape');
        await filingInfo.waitFor({ state: 'hidden' });

        await briefRow.getByRole('button', { name: 'Info Appeal brief' }).click();
        const info = page.getByRole('dialog', { name: 'Appeal brief' });
        await info.getByText('Read before the hearing').waitFor();
        await info.getByText('Not yet viewed').waitFor();
        // The SHA-256 is the sender's to check, not the reader's.
        assert.equal(await info.getByText(await sha256Hex(brief)).count(), 0);
        await page.keyboard.press('Escape');
        await info.waitFor({ state: 'hidden' });
        await briefRow.getByRole('button', { name: 'Info Appeal brief' }).click();
        await info.getByRole('button', { name: 'Close' }).click();
        await info.waitFor({ state: 'hidden' });
      });

      await t.step(
        'the offender views and prints in the 800x800 pop-up, for attorney and representative mail',
        async () => {
          const { page } = await open([PRINT_SPY]);
          await signIn(page, server.url, OFFENDER);
          const briefRow = await find(page, 'Appeal brief');

          const viewer = await popupFrom(
            page,
            () => briefRow.getByRole('button', { name: 'View Appeal brief' }).click(),
          );
          await viewer.getByText('Loading document...').first().waitFor();
          await viewer.waitForURL(/\/pdfViewer\/[^/?]+$/, { timeout: 10_000 });
          await viewer.getByTestId('page-count').filter({ hasText: '/ 3' }).waitFor({ timeout: 20_000 });
          await viewer.close();

          for (const name of ['Appeal brief', 'Rep letter']) {
            const printer = await popupFrom(
              page,
              async () => (await find(page, name)).getByRole('button', { name: `Print ${name}` }).click(),
            );
            await page.getByText('Opening print preview...').first().waitFor();
            assert.match(printer.url(), /\/pdfViewer\/[^/?]+\?print=1$/);
            await printer.waitForFunction(
              () => (window as unknown as { __prints: number }).__prints === 1,
              null,
              {
                timeout: 20_000,
              },
            );
            await printer.close();
          }

          const repViewer = await popupFrom(
            page,
            async () =>
              (await find(page, 'Rep letter')).getByRole('button', { name: 'View Rep letter' }).click(),
          );
          await repViewer.getByTestId('page-count').filter({ hasText: '/ 2' }).waitFor({ timeout: 20_000 });
          await repViewer.close();
        },
      );

      // 20 more: more than three pages of 10, so paging is the server's.
      for (let i = 1; i <= 20; i++) {
        await apiUpload(server, attorneyToken, {
          recipient: OFFENDER.username,
          title: `Bulk ${String(i).padStart(2, '0')}`,
          bytes: await makePdf({ pages: 1 }),
        });
      }
      const fullTotal = total + 20;
      const byName = serverOrder(await listNames(server, attorneyToken, '/api/documents/attorney'));
      assert.equal(byName.length, fullTotal);
      const descending = [...byName].reverse();
      const lastPage = Math.ceil(fullTotal / 10);

      await t.step(
        'the attorney pages, sorts, searches and resizes on the server, sees read receipts and representative mail',
        async () => {
          const { page } = await open();
          // Every list request is a page: the browser never gets the whole list.
          const listRequests: string[] = [];
          const oversized: number[] = [];
          page.on('response', async (response) => {
            if (!response.url().includes('/api/documents/attorney')) return;
            listRequests.push(response.url());
            const body = await response.json().catch(() => null);
            if ((body?.documents?.length ?? 0) > 100) oversized.push(body.documents.length);
          });
          await signIn(page, server.url, ATTORNEY);
          await footer(page).filter({ hasText: `Showing 1 to 10 of ${fullTotal} entries` }).waitFor();
          // Default sort by name, ascending, over the whole list.
          assert.deepEqual(await names(page), byName.slice(0, 10));
          assert.ok(await page.getByRole('button', { name: 'Previous' }).isDisabled());
          assert.ok(await page.getByRole('button', { name: 'Page 1' }).isDisabled());

          // Next and Previous (keyset cursors), a numbered page (offset), the last page.
          await page.getByRole('button', { name: 'Next' }).click();
          await footer(page).filter({ hasText: `Showing 11 to 20 of ${fullTotal} entries` }).waitFor();
          assert.deepEqual(await names(page), byName.slice(10, 20));
          assert.ok(await page.getByRole('button', { name: 'Page 2' }).isDisabled());
          assert.ok(!await page.getByRole('button', { name: 'Previous' }).isDisabled());
          await page.getByRole('button', { name: `Page ${lastPage}` }).click();
          await footer(page)
            .filter({ hasText: `Showing ${(lastPage - 1) * 10 + 1} to ${fullTotal} of ${fullTotal} entries` })
            .waitFor();
          assert.deepEqual(await names(page), byName.slice((lastPage - 1) * 10));
          assert.ok(await page.getByRole('button', { name: 'Next' }).isDisabled());
          await page.getByRole('button', { name: 'Previous' }).click();
          await footer(page)
            .filter({
              hasText: `Showing ${(lastPage - 2) * 10 + 1} to ${(lastPage - 1) * 10} of ${fullTotal}`,
            })
            .waitFor();
          assert.deepEqual(await names(page), byName.slice((lastPage - 2) * 10, (lastPage - 1) * 10));

          // A sort change returns to page 1, over the whole list.
          const nameHeader = page.getByRole('columnheader', { name: 'Document Name' });
          assert.equal(await nameHeader.getAttribute('aria-sort'), 'ascending', 'sorted by name at first');
          await page.getByRole('button', { name: 'Document Name' }).click();
          await footer(page).filter({ hasText: `Showing 1 to 10 of ${fullTotal} entries` }).waitFor();
          await firstRowIs(page, descending[0]);
          assert.equal(await nameHeader.getAttribute('aria-sort'), 'descending');
          assert.deepEqual(await names(page), descending.slice(0, 10));
          await page.getByRole('button', { name: '# of Pages' }).click();
          await firstRowIs(page, 'Sealed exhibit');
          await row(page, /Sealed exhibit/).getByRole('img', { name: 'Encrypted, page count unavailable' })
            .waitFor();
          await page.getByRole('button', { name: '# of Pages' }).click();
          await page.waitForFunction(() =>
            !document.querySelector('.document-table tbody tr.document-row td')?.textContent?.startsWith(
              'Sealed',
            )
          );
          // The last page of a descending page sort holds the 0-page document: the sort covered every page.
          await page.getByRole('button', { name: `Page ${lastPage}` }).click();
          await footer(page).filter({ hasText: `to ${fullTotal} of ${fullTotal} entries` }).waitFor();
          assert.equal((await names(page)).at(-1), 'Sealed exhibit');

          // A page size change returns to page 1.
          await chooseOption(page, 'Entries per page', '25');
          await footer(page).filter({ hasText: `Showing 1 to 25 of ${fullTotal} entries` }).waitFor();
          assert.equal(await page.locator('.document-table tbody tr.document-row').count(), 25);
          await page.getByRole('button', { name: 'Page 2' }).click();
          await footer(page).filter({ hasText: `Showing 26 to ${Math.min(50, fullTotal)} of ${fullTotal}` })
            .waitFor();

          // The search (sent once typing pauses) returns to page 1: name, DOC number, pages as text; any case.
          const search = page.getByLabel('Search:');
          // Typed key by key, faster than the pause: one request for the word, none for its first letters.
          await search.pressSequentially('BULK', { delay: 40 });
          await footer(page).filter({ hasText: 'Showing 1 to 20 of 20 entries' }).waitFor();
          await search.fill('1000');
          await footer(page).filter({ hasText: `Showing 1 to 25 of ${fullTotal} entries` }).waitFor();
          await search.fill('rep');
          await footer(page).filter({ hasText: 'Showing 1 to 1 of 1 entries' }).waitFor();
          await row(page, /Rep letter/).getByText(/^Sent by Riley/).waitFor();
          await search.fill('zzz');
          await page.getByText('No documents found').waitFor();
          await footer(page).filter({ hasText: 'Showing 0 to 0 of 0 entries' }).waitFor();
          await search.fill('Appeal');
          await row(page, /Appeal brief/).getByText(/^(Opened [A-Z][a-z]{2} \d{1,2}, \d{4}|Printed)$/)
            .waitFor();
          await search.fill('');
          await footer(page).filter({ hasText: `Showing 1 to 25 of ${fullTotal} entries` }).waitFor();

          assert.ok(listRequests.length > 0);
          for (const url of listRequests) assert.match(url, /[?&]pageSize=\d+/, url);
          assert.equal(listRequests.filter((url) => /[?&]q=(B|BU|BUL)(&|$)/.test(url)).length, 0);
          assert.equal(listRequests.filter((url) => /[?&]q=BULK(&|$)/.test(url)).length, 1);
          assert.deepEqual(oversized, []);
        },
      );

      await t.step(
        'failures say what went wrong: blocked pop-ups, refused uploads, an ended session',
        async () => {
          const { page } = await open([NO_POPUPS]);
          await signIn(page, server.url, OFFENDER);
          const briefRow = await find(page, 'Appeal brief');
          await briefRow.getByRole('button', { name: 'View Appeal brief' }).click();
          await page.getByText('Popup blocked! Please allow pop-ups for this site.').waitFor();
          await briefRow.getByRole('button', { name: 'Print Appeal brief' }).click();
          await page.getByText('Failed to open print preview. Please check your popup blocker.').waitFor();
          // A session the server no longer knows: the spec's message, then /logout.
          await replaceStoredToken(page, 'no-such-session');
          await page.reload();
          await page.getByText('Authentication failed - please login again').waitFor();
          await page.waitForURL(/\/logout$|\/login$|\/$/);

          const attorney = (await open()).page;
          await signIn(attorney, server.url, ATTORNEY);
          await attorney.getByRole('button', { name: 'Upload New Document' }).click();
          const dialog = attorney.getByRole('dialog', { name: 'Upload Document' });
          const big = await makePdf({ pages: 1, padTo: 10 * 1024 * 1024 + 1024 });
          await Deno.writeFile(`${tmp}/too-big.pdf`, big);
          await dialog.getByLabel('Recipient DOC Number').fill('999999');
          await dialog.getByLabel('Document Title').fill('Wrong recipient');
          await dialog.getByLabel('PDF File').setInputFiles(`${tmp}/too-big.pdf`);
          await dialog.getByText('The file is larger than the 10 MB limit.').waitFor();
          assert.ok(
            await dialog.getByRole('button', { name: 'Upload' }).isDisabled(),
            'an oversized file is not sent',
          );
          await dialog.getByLabel('PDF File').setInputFiles(`${tmp}/rep-letter.pdf`);
          // An unknown recipient is refused before anything is sent: the server's lookup says so at the field.
          await dialog.getByText('DOC 999999: No one with this DOC number receives mail here').waitFor();
          assert.ok(await dialog.getByRole('button', { name: 'Upload' }).isDisabled(), 'nothing to send to');
          assert.ok(await dialog.isVisible(), 'the modal stays open after a refusal');
        },
      );

      await t.step("/files lists what the attorney may read; the offender's is their portal", async () => {
        const { page } = await open();
        await signIn(page, server.url, ATTORNEY);
        await page.goto(`${server.url}/files`);
        await footer(page).filter({ hasText: /Showing 1 to 10 of \d+ entries/ }).waitFor();
        const brief = await find(page, 'Appeal brief');
        await brief.getByRole('button', { name: 'Print Appeal brief' }).waitFor();
        // The recipient as the lookup shows them, never their whole name.
        await brief.getByText('DOE, J. (100001)', { exact: true }).waitFor();
        assert.doesNotMatch(await brief.textContent() ?? '', /John/);
        const offender = (await open()).page;
        await signIn(offender, server.url, OFFENDER);
        await offender.goto(`${server.url}/files`);
        await offender.waitForURL(/\/portal\/offender$/);
      });

      await t.step(
        'the representative pages, sorts, searches and resizes their own list on the server',
        async () => {
          const repToken = await apiToken(server, REPRESENTATIVE);
          for (let i = 1; i <= 11; i++) {
            const form = new FormData();
            form.set(
              'file',
              new File([await makePdf() as BlobPart], 'note.pdf', { type: 'application/pdf' }),
            );
            form.set('recipient_doc_number', OFFENDER.username);
            form.set('title', `Rep note ${String(i).padStart(2, '0')}`);
            const r = await fetch(`${server.url}/api/representative/upload`, {
              method: 'POST',
              headers: { authorization: `Bearer ${repToken}` },
              body: form,
            });
            assert.equal(r.status, 201, await r.text());
          }
          const repNames = serverOrder(await listNames(server, repToken, '/api/representative/documents'));
          const repTotal = repNames.length;
          assert.ok(repTotal >= 12 && repTotal <= 20, `${repTotal} documents`);
          const { page } = await open();
          await signIn(page, server.url, REPRESENTATIVE);
          await footer(page).filter({ hasText: `Showing 1 to 10 of ${repTotal} entries` }).waitFor();
          assert.deepEqual(await names(page), repNames.slice(0, 10));
          await page.getByRole('button', { name: 'Next' }).click();
          await footer(page).filter({ hasText: `Showing 11 to ${repTotal} of ${repTotal} entries` })
            .waitFor();
          assert.deepEqual(await names(page), repNames.slice(10));
          assert.ok(await page.getByRole('button', { name: 'Next' }).isDisabled());
          await page.getByRole('button', { name: 'Document Name' }).click();
          await footer(page).filter({ hasText: `Showing 1 to 10 of ${repTotal} entries` }).waitFor();
          await firstRowIs(page, repNames.at(-1)!);
          assert.deepEqual(await names(page), [...repNames].reverse().slice(0, 10));
          await page.getByLabel('Search:').fill('rep NOTE 1');
          await footer(page).filter({ hasText: 'Showing 1 to 2 of 2 entries' }).waitFor();
          assert.deepEqual(await names(page), ['Rep note 11', 'Rep note 10']);
          await page.getByLabel('Search:').fill('');
          await chooseOption(page, 'Entries per page', '25');
          await footer(page).filter({ hasText: `Showing 1 to ${repTotal} of ${repTotal} entries` }).waitFor();
          await row(page, /Rep note 03/).getByText('Delivered', { exact: true }).waitFor();
        },
      );

      for (const context of contexts) await context.close().catch(() => {});
      assert.deepEqual(foreign, [], 'no request left the app origin');
    } finally {
      for (const context of contexts) await context.close().catch(() => {});
      await browser.close();
      await server.stop();
      await Deno.remove(tmp, { recursive: true }).catch(() => {});
    }
  },
});
