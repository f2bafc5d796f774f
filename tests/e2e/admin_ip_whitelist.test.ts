/**
 * Admin > IP Whitelist in Chromium against the real server: add (with the form's validation), deactivate,
 * edit (which keeps the status), activate and delete a range, while the same server enforces the list on an
 * offender signing in from this machine (127.0.0.1), and the screen says in words what the list admits: open
 * while the entity never had a range, closed once it had one and none is active (the default 'deny').
 */
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newRecordedContext } from '../support/browser.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const E2E = { sanitizeResources: false, sanitizeOps: false } as const;

let server: TestServer;
let browser: Browser;
let page: Page;
let foreignRequests: string[];

/** The status of the offender's sign-in from this machine. */
async function offenderSignInStatus(): Promise<number> {
  const r = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: '100001', password: '246810', entity: 'default' }),
  });
  await r.body?.cancel();
  return r.status;
}

/** The screen's line on what the whitelist admits now. */
async function policy(text: string) {
  await page.getByTestId('ip-whitelist-policy').filter({ hasText: text }).waitFor();
}

const CLOSED = 'No active range: offenders of this entity are refused from every address.';
/**
 * Refused for its address: 403 saying the network is not allowed, before the DOC number is looked up, so a right
 * PIN is not told apart from a wrong one.
 */
const refused = (status: number) => status === 403;

const dialog = () => page.getByRole('dialog');
const row = (range: string) => page.locator('.ant-table-tbody tr.ant-table-row', { hasText: range });

/** Waits for a toast with this text, then for it to go, so the next one is not confused with it. */
async function toast(text: string) {
  const notice = page.locator('.ant-message-notice', { hasText: text });
  await notice.waitFor();
  await notice.waitFor({ state: 'detached', timeout: 10_000 });
}

Deno.test({
  name: 'setup: server, browser, admin signed in on the IP Whitelist screen',
  ...E2E,
  fn: async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    ({ page, foreignRequests } = await newRecordedContext(browser, server.url));
    await page.goto(`${server.url}/login`);
    await page.getByLabel('facility ID number').fill('admin@demo.test');
    await page.getByLabel('Pin Number').fill('Demo-Admin-2026!');
    await page.getByRole('button', { name: 'View Mail' }).click();
    await page.waitForURL(/\/portal\/admin/);
    await page.getByRole('menuitem', { name: 'IP Whitelist' }).click();
    await page.getByRole('heading', { name: 'IP Whitelist' }).waitFor();
    await page.getByText('No IP ranges configured. Add one to restrict offender access.').waitFor();
    await policy(
      'No range has been configured yet: offenders of this entity are admitted from every address.',
    );
    assert.equal(await offenderSignInStatus(), 200, 'never a range: offenders are unrestricted');
  },
});

Deno.test({
  name: 'the admin adds a range after the form refuses a blank and a malformed one',
  ...E2E,
  fn: async () => {
    await page.getByRole('button', { name: 'Add IP Range' }).click();
    await dialog().waitFor();
    await dialog().getByRole('button', { name: 'Add IP Range' }).click();
    await dialog().getByText('IP range is required').waitFor();
    await dialog().getByLabel('IP Range').fill('010.1.2');
    await dialog().getByRole('button', { name: 'Add IP Range' }).click();
    await dialog().getByText('Invalid IP range format').waitFor();

    await dialog().getByLabel('IP Range').fill('192.168.50.7/24');
    await dialog().getByLabel('Description').fill('Housing unit B tablets');
    await dialog().getByRole('button', { name: 'Add IP Range' }).click();
    await toast('IP range added successfully');
    // Stored in canonical form: the host bits of the CIDR block are cleared.
    const added = row('192.168.50.0/24');
    await added.waitFor();
    assert.match(await added.innerText(), /Housing unit B tablets[\s\S]*Active/);
    const today = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' })
      .format(new Date());
    assert.match(await added.innerText(), new RegExp(today));
    await policy('Offenders of this entity are admitted only from the active ranges below.');
    assert.ok(refused(await offenderSignInStatus()), 'this machine is outside the only active range');
  },
});

Deno.test({
  name: 'the admin deactivates the only range: the screen says every address is refused, and it is',
  ...E2E,
  fn: async () => {
    // The last active range: the screen says what deactivating it does and asks first.
    await page.getByRole('button', { name: 'Deactivate 192.168.50.0/24' }).click();
    const confirm = page.locator('.ant-popconfirm');
    await confirm.getByText(
      'This is the last active range. Without it, offenders of this entity cannot sign in from any network. ' +
        'Deactivate it?',
    ).waitFor();
    await confirm.getByRole('button', { name: 'Deactivate' }).click();
    await toast('IP range deactivated');
    await row('192.168.50.0/24').getByText('Inactive').waitFor();
    await policy(CLOSED);
    assert.ok(refused(await offenderSignInStatus()), 'an emptied list refuses everyone (default deny)');
  },
});

Deno.test({
  name: 'the admin edits the range; the edit keeps it inactive and survives a reload',
  ...E2E,
  fn: async () => {
    await page.getByRole('button', { name: 'Edit 192.168.50.0/24' }).click();
    const field = dialog().getByLabel('IP Range');
    assert.equal(await field.inputValue(), '192.168.50.0/24');
    await field.fill('127.0.0.1');
    await dialog().getByLabel('Description').fill('This machine');
    await dialog().getByRole('button', { name: 'Save Changes' }).click();
    await toast('IP range updated successfully');
    await page.reload();
    const edited = row('127.0.0.1');
    await edited.waitFor();
    assert.match(await edited.innerText(), /This machine[\s\S]*Inactive/);
    assert.equal(await row('192.168.50.0/24').count(), 0);
  },
});

Deno.test({
  name: 'the admin activates the range, which now admits this machine',
  ...E2E,
  fn: async () => {
    await page.getByRole('button', { name: 'Activate 127.0.0.1' }).click();
    await toast('IP range activated');
    await row('127.0.0.1').getByText('Active', { exact: true }).waitFor();
    await policy('Offenders of this entity are admitted only from the active ranges below.');
    assert.equal(await offenderSignInStatus(), 200, 'inside the active range');
  },
});

Deno.test({
  name: 'the admin deletes the range after confirming; the gate stays closed',
  ...E2E,
  fn: async () => {
    await page.getByRole('button', { name: 'Delete 127.0.0.1' }).click();
    const confirm = page.locator('.ant-popconfirm');
    await confirm.getByText(
      'This is the last active range. Without it, offenders of this entity cannot sign in from any network. ' +
        'Delete it?',
    ).waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    assert.equal(await row('127.0.0.1').count(), 1, 'cancel keeps the range');

    await page.getByRole('button', { name: 'Delete 127.0.0.1' }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toast('IP range deleted successfully');
    // Configured once and emptied: the empty list says what is true now, in line with the banner above it.
    await page.getByText(
      'No active IP ranges: offenders cannot sign in from any network. Add a range to let them in.',
    ).waitFor();
    assert.equal(
      await page.getByText('No IP ranges configured. Add one to restrict offender access.').count(),
      0,
    );
    await policy(CLOSED);
    assert.ok(refused(await offenderSignInStatus()), 'deleting every range does not reopen the gate');
    assert.deepEqual(foreignRequests, []);
  },
});

Deno.test({
  name: 'teardown',
  ...E2E,
  fn: async () => {
    await browser?.close();
    await server?.stop();
  },
});
