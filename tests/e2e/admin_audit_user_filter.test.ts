/**
 * The audit log's User filter on a desktop, in Chromium against the real server: the admin types a name or an
 * e-mail address, picks the user, and the log is filtered by that user's id (sent as `userId`); a pasted id still
 * works; Clear Filters empties the field. Build the PWA first (npm run build).
 */
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { apiToken } from '../support/api_client.ts';
import { chromiumAvailable, launchBrowser } from '../support/browser.ts';
import { assertPwaBuilt, startTestServer, type TestServer } from '../support/server.ts';
import en from '../../pwa/src/i18n/en.json' with { type: 'json' };

const options = { sanitizeResources: false, sanitizeOps: false };
const ADMIN = { username: 'admin@demo.test', password: 'Demo-Admin-2026!' };
const ATTORNEY = { username: 'attorney@demo.test', password: 'Demo-Attorney-2026!' };
const APPROVER = { username: 'approver@demo.test', password: 'Demo-Approver-2026!' };

async function userId(server: TestServer, token: string, email: string): Promise<string> {
  const response = await fetch(`${server.url}/api/admin/users?q=${encodeURIComponent(email)}&limit=5`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = await response.json();
  assert.equal(body.users.length, 1, email);
  return body.users[0].id;
}

/** Types into the User filter and picks the offered user whose label contains `pick`. */
async function pickUser(page: Page, typed: string, pick: string): Promise<void> {
  const field = page.getByLabel(en.audit.userId, { exact: true });
  await field.click();
  await field.fill(typed);
  await page.locator('.ant-select-item-option:visible', { hasText: pick }).click();
}

/** Applies the filters and answers the `userId` the log was asked for, once its rows are on screen. */
async function applyAndRead(page: Page): Promise<{ userId: string | null; users: string[] }> {
  const request = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/admin/audit-logs');
  await page.getByRole('button', { name: en.audit.apply }).click();
  const sent = new URL((await request).url());
  await (await request).response();
  await page.locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
  const users = await page.locator('.ant-table-tbody tr.ant-table-row td:nth-child(3) span[title]')
    .evaluateAll((cells) => cells.map((c) => c.getAttribute('title') ?? ''));
  return { userId: sent.searchParams.get('userId'), users };
}

Deno.test({
  name: "desktop: the audit log's User filter finds a user by name or e-mail and filters by their id",
  ignore: !chromiumAvailable(),
  ...options,
  async fn() {
    assertPwaBuilt();
    const server = await startTestServer();
    const browser: Browser = await launchBrowser();
    try {
      const admin = await apiToken(server, ADMIN);
      // Each signs in, so each has events of their own in the log.
      await apiToken(server, ATTORNEY);
      await apiToken(server, APPROVER);
      const attorneyId = await userId(server, admin, ATTORNEY.username);
      const approverId = await userId(server, admin, APPROVER.username);

      const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(`${server.url}/login`);
      await page.getByLabel(en.login.username).fill(ADMIN.username);
      await page.getByLabel(en.login.password).fill(ADMIN.password);
      await page.getByRole('button', { name: en.login.submit }).click();
      await page.waitForURL(/\/portal\/admin/);
      await page.getByRole('menuitem', { name: 'Audit Logs' }).click();
      await page.getByRole('heading', { name: en.audit.title }).waitFor();
      await page.locator('.ant-table-tbody tr.ant-table-row').first().waitFor();

      // By a part of the name: the field names the user; the id is what the log is asked for.
      await pickUser(page, 'counsel', 'Atticus Counsel (attorney@demo.test)');
      await page.locator('#audit-user-id').locator('xpath=ancestor::div[contains(@class,"ant-select")][1]')
        .getByText('Atticus Counsel (attorney@demo.test)').waitFor();
      const byName = await applyAndRead(page);
      assert.equal(byName.userId, attorneyId);
      assert.ok(
        byName.users.length > 0 && byName.users.every((id) => id === attorneyId),
        byName.users.join(),
      );
      await page.locator('.ant-badge-count', { hasText: '1' }).waitFor();

      // By a part of the e-mail address.
      await pickUser(page, 'approver@demo', 'approver@demo.test');
      const byEmail = await applyAndRead(page);
      assert.equal(byEmail.userId, approverId);
      assert.ok(byEmail.users.length > 0 && byEmail.users.every((id) => id === approverId));

      // An id pasted as it is still filters by it.
      await pickUser(page, attorneyId.toUpperCase(), attorneyId);
      assert.equal((await applyAndRead(page)).userId, attorneyId);

      // Text that names no one offers no one.
      const field = page.getByLabel(en.audit.userId, { exact: true });
      await field.click();
      await field.fill('nobody-by-this-name');
      await page.locator('.ant-select-dropdown:visible').getByText(en.audit.userNone).waitFor();
      await page.keyboard.press('Escape');

      await page.getByRole('button', { name: en.audit.clear }).click();
      const cleared = await applyAndRead(page);
      assert.equal(cleared.userId, null, 'Clear Filters empties the User filter');
      assert.ok(new Set(cleared.users).size > 1, 'every user again');
      await context.close();
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
