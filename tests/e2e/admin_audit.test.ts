import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newRecordedContext } from '../support/browser.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const E2E = { sanitizeResources: false, sanitizeOps: false } as const;

let server: TestServer;
let browser: Browser;
let page: Page;
let foreignRequests: string[];

async function signInAsAdmin() {
  await page.goto(`${server.url}/login`);
  await page.getByLabel('facility ID number').fill('admin@demo.test');
  await page.getByLabel('Pin Number').fill('Demo-Admin-2026!');
  await page.getByRole('button', { name: 'View Mail' }).click();
  await page.waitForURL(/\/portal\/admin/);
}

/** The Event Type texts of the rows on screen. */
async function eventTypeCells(): Promise<string[]> {
  return await page.locator('.ant-table-tbody tr.ant-table-row td:nth-child(4)').allInnerTexts();
}

Deno.test({
  name: 'setup: server, browser, admin signed in on the Audit Logs screen',
  ...E2E,
  fn: async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    ({ page, foreignRequests } = await newRecordedContext(browser, server.url));
    await signInAsAdmin();
    // Sign-ins of a few other users, so the log holds more than one event type and user.
    for (
      const [username, password] of [['approver@demo.test', 'Demo-Approver-2026!'], [
        'attorney@demo.test',
        'wrong',
      ]]
    ) {
      await fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password, entity: 'default' }),
      }).then((r) => r.body?.cancel());
    }
    await page.getByRole('menuitem', { name: 'Audit Logs' }).click();
    await page.getByRole('heading', { name: 'Audit Logs' }).waitFor();
    await page.locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
  },
});

Deno.test({
  name: 'the admin filters audit logs by event type and date, sees the badge, and clears them',
  ...E2E,
  fn: async () => {
    const types = await eventTypeCells();
    assert.ok(types.includes('User Login'), `display names are shown: ${types.join(', ')}`);
    assert.ok(types.includes('Login Failed'));

    await page.getByLabel('Event Type').click();
    await page.locator('.ant-select-item-option', { hasText: 'Login Failed' }).click();
    await page.getByRole('button', { name: 'Apply Filters' }).click();
    await page.locator('.ant-badge-count', { hasText: '1' }).waitFor();
    await page.waitForFunction(() => {
      const cells = [...document.querySelectorAll('.ant-table-tbody tr.ant-table-row td:nth-child(4)')];
      return cells.length > 0 && cells.every((c) => c.textContent === 'Login Failed');
    });

    // The expandable row shows the event data as formatted JSON.
    await page.locator('.ant-table-row-expand-icon').first().click();
    const data = await page.locator('.ant-table-expanded-row pre').first().innerText();
    assert.match(data, /"username": "attorney@demo.test"/);

    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    // antd's date picker: a date typed in its field is taken as typed; Tab closes its calendar.
    await page.getByLabel('Start Date').fill(tomorrow);
    await page.getByLabel('Start Date').press('Tab');
    await page.getByRole('button', { name: 'Apply Filters' }).click();
    await page.getByText('No audit logs found matching the current filters').waitFor();
    await page.locator('.ant-badge-count', { hasText: '2' }).waitFor();

    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await page.locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
    // No badge without filters (it leaves with a short animation).
    await page.locator('.ant-badge-count').waitFor({ state: 'hidden' });
    assert.ok((await eventTypeCells()).includes('User Login'));
  },
});

Deno.test({
  name: 'the admin downloads the filtered log as audit-logs-YYYY-MM-DD.csv',
  ...E2E,
  fn: async () => {
    await page.getByLabel('Event Type').click();
    await page.locator('.ant-select-item-option', { hasText: 'User Login' }).click();
    await page.getByRole('button', { name: 'Apply Filters' }).click();
    await page.locator('.ant-badge-count', { hasText: '1' }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const today = new Date().toISOString().slice(0, 10);
    assert.equal(download.suggestedFilename(), `audit-logs-${today}.csv`);
    const path = await download.path();
    const text = await Deno.readTextFile(path);
    const lines = text.split('\r\n').filter(Boolean);
    assert.equal(lines[0], 'Date/Time,User ID,Event Type,Resource Type,IP Address,Event Data');
    assert.ok(lines.length >= 3, 'the admin and the approver sign-ins');
    for (const line of lines.slice(1)) {
      assert.match(line, /^\d{4}-\d{2}-\d{2}T[\d:.]+Z,[0-9a-f-]{36},user_login,/);
    }
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
