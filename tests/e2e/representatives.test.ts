/**
 * The supervising-attorney link in Chromium against the real server: the approver's modal shows which attorney
 * account a representative will be linked to before approving, and the attorney accepts the representative in
 * their Representatives list; only then is what the representative sends shared with the attorney.
 */
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { apiCall, apiToken } from '../support/api_client.ts';
import { launchBrowser, newRecordedContext } from '../support/browser.ts';
import { makePdf } from '../support/pdfs.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const E2E = { sanitizeResources: false, sanitizeOps: false } as const;
const PASSWORD = 'Quartz-Lantern-Harbor-719';
const REP = {
  firstName: 'Robin',
  lastName: 'Clerk',
  email: `robin-${Date.now().toString(36)}@e2e.test`,
};

let server: TestServer;
let browser: Browser;
const recorded: string[][] = [];

const api = (path: string, init: Parameters<typeof apiCall>[2] = {}) => apiCall(server, path, init);
const token = (username: string, password: string) => apiToken(server, { username, password });

async function signedInPage(username: string, password: string, home: RegExp): Promise<Page> {
  const { page, foreignRequests } = await newRecordedContext(browser, server.url);
  recorded.push(foreignRequests);
  await page.goto(`${server.url}/login`);
  await page.getByLabel('facility ID number').fill(username);
  await page.getByLabel('Pin Number').fill(password);
  await page.getByRole('button', { name: 'View Mail' }).click();
  await page.waitForURL(home);
  return page;
}

Deno.test({
  name:
    'setup: server, browser, a representative registered naming the demo attorney by bar, state and e-mail',
  ...E2E,
  fn: async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    const r = await api('/auth/register', {
      method: 'POST',
      body: {
        userType: 'representative',
        isRepresentative: true,
        ...REP,
        password: PASSWORD,
        confirmPassword: PASSWORD,
        barNumber: 'REP4411',
        barState: 'MO',
        addressLine1: '1 Court St',
        city: 'Jefferson City',
        state: 'MO',
        zipCode: '65101',
        supervisingAttorneyName: 'Atticus Counsel',
        supervisingAttorneyBar: 'mo12345',
        supervisingAttorneyEmail: 'attorney@demo.test',
      },
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
  },
});

Deno.test({
  name: "the approver's modal shows the attorney account to be linked before approving",
  ...E2E,
  fn: async () => {
    const page = await signedInPage('approver@demo.test', 'Demo-Approver-2026!', /\/portal\/approver/);
    const name = `${REP.firstName} ${REP.lastName}`;
    const row = page.getByRole('row').filter({ hasText: REP.email });
    await row.getByText('Account to link: Atticus Counsel (attorney@demo.test, bar MO12345 MO)').waitFor();
    await page.getByRole('button', { name: `Approve ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Approve Registration' });
    await dialog.getByTestId('supervisor-match').getByText(
      'Supervising attorney account: Atticus Counsel (attorney@demo.test, bar MO12345 MO)',
    ).waitFor();
    await dialog.getByText('the applicant signs in with the password they chose').waitFor();
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await page.getByText(
      'Registration approved successfully! The applicant signs in with the password they chose when registering.',
    ).waitFor();
    await row.waitFor({ state: 'detached' });
    await page.context().close();
  },
});

Deno.test({
  name: 'the attorney accepts the representative in the Representatives list; only then is their mail shared',
  ...E2E,
  fn: async () => {
    const rep = await token(REP.email, PASSWORD);
    const attorney = await token('attorney@demo.test', 'Demo-Attorney-2026!');
    const send = async (title: string) => {
      const form = new FormData();
      form.set('file', new File([await makePdf() as BlobPart], 'letter.pdf', { type: 'application/pdf' }));
      form.set('recipient_doc_number', '100001');
      form.set('title', title);
      const r = await fetch(`${server.url}/api/representative/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${rep}` },
        body: form,
      });
      const body = await r.json();
      assert.equal(r.status, 201, JSON.stringify(body));
      return body.document.documentid as string;
    };
    const before = await send('Before acceptance');
    assert.equal((await api(`/documents/${before}/info`, { token: attorney })).status, 404);

    // On a phone: the waiting representative is counted on the button, shown as a card, and Accept is on screen.
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
    });
    const small = await phone.newPage();
    await small.goto(`${server.url}/login`);
    await small.getByLabel('facility ID number').fill('attorney@demo.test');
    await small.getByLabel('Pin Number').fill('Demo-Attorney-2026!');
    await small.getByRole('button', { name: 'View Mail' }).tap();
    await small.waitForURL(/\/portal\/attorney/);
    await small.getByRole('heading', { name: 'My Documents' }).waitFor();
    await small.getByRole('button', { name: /^Representatives\s*, 1 waiting for your acceptance$/ }).tap();
    const card = small.locator('.representative-card', { hasText: REP.email });
    await card.getByText('Awaiting your acceptance').waitFor();
    const accept = card.getByRole('button', { name: `Accept ${REP.firstName} ${REP.lastName}` });
    const box = await accept.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `Accept is on screen: ${JSON.stringify(box)}`);
    assert.ok(
      await small.evaluate(() =>
        document.documentElement.scrollWidth <= document.documentElement.clientWidth
      ),
      'nothing scrolls sideways',
    );
    await phone.close();

    const page = await signedInPage('attorney@demo.test', 'Demo-Attorney-2026!', /\/portal\/attorney/);
    await page.getByRole('button', { name: 'Representatives' }).click();
    await page.waitForURL(/\/portal\/attorney\/representatives/);
    await page.getByRole('heading', { name: 'Representatives' }).waitFor();
    const row = page.locator('.ant-table-tbody tr.ant-table-row', { hasText: REP.email });
    await row.getByText('Awaiting your acceptance').waitFor();
    await row.getByRole('button', { name: `Accept ${REP.firstName} ${REP.lastName}` }).click();
    await page.getByText('Representative accepted. Documents they send from now on are shared with you.')
      .waitFor();
    await row.getByText(/^Accepted/).waitFor();
    assert.equal(await row.getByRole('button', { name: /^Accept / }).count(), 0, 'Accept is gone');

    const after = await send('After acceptance');
    assert.equal((await api(`/documents/${after}/info`, { token: attorney })).status, 200);
    assert.equal(
      (await api(`/documents/${before}/info`, { token: attorney })).status,
      404,
      'sent before: unshared',
    );
    await page.getByRole('button', { name: 'My Documents' }).click();
    await page.getByText('After acceptance').waitFor();
    // Nobody waits any more: the button carries no count.
    await page.getByRole('button', { name: 'Representatives', exact: true }).waitFor();
    assert.equal(await page.getByText('Before acceptance').count(), 0);
    // The server's search (the list is paged there) finds the shared one, marked, and never the unshared one.
    const search = page.getByLabel('Search:');
    await search.fill('after acc');
    await page.locator('.document-table-count', { hasText: 'Showing 1 to 1 of 1 entries' }).waitFor();
    await page.getByRole('row', { name: /After acceptance/ }).getByText(`Sent by ${REP.firstName}`).waitFor();
    await search.fill('BEFORE');
    await page.getByText('No documents found').waitFor();
    await page.context().close();
  },
});

Deno.test({
  name: 'teardown (no request left the app origin)',
  ...E2E,
  fn: async () => {
    await browser?.close();
    await server?.stop();
    assert.deepEqual(recorded.flat(), []);
  },
});
