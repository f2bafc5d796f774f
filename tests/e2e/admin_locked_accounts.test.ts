/**
 * Locked accounts in the admin's Users screen, on a desktop, in Chromium against the real server: a staff account
 * locked by five wrong passwords shows 'Locked until 2:41 PM' (the lock's end, in the language shown: Spanish too)
 * and an Unlock that asks first; Cancel keeps the lock, Unlock lifts it and the right password signs in at once.
 * (Offender accounts wait between tries and lock only at the 100th failure in a row: tests/api/admin_users shows
 * theirs.)
 * Build the PWA first (npm run build).
 */
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { apiToken } from '../support/api_client.ts';
import { chromiumAvailable, launchBrowser } from '../support/browser.ts';
import { setNumberSettingByApi } from '../support/offline_pages.ts';
import { assertPwaBuilt, startTestServer, type TestServer } from '../support/server.ts';
import en from '../../pwa/src/i18n/en.json' with { type: 'json' };
import es from '../../pwa/src/i18n/es.json' with { type: 'json' };

const options = { sanitizeResources: false, sanitizeOps: false };
const ADMIN = { username: 'admin@demo.test', password: 'Demo-Admin-2026!' };
const REPRESENTATIVE = {
  username: 'representative@demo.test',
  password: 'Demo-Rep-2026!',
  name: 'Riley Paralegal',
};
const ATTORNEY = { username: 'attorney@demo.test', password: 'Demo-Attorney-2026!', name: 'Atticus Counsel' };
const DESKTOP = { width: 1366, height: 900 };

/** `{{name}}` and the like filled in, as i18next does. */
function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '');
}

async function signInAnswer(server: TestServer, who: { username: string; password: string }) {
  const response = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: who.username, password: who.password, entity: 'default' }),
  });
  return { status: response.status, body: await response.json() };
}

/** Five wrong secrets in a row: the demo's `failed_login_limit` locks the account. */
async function lockOut(server: TestServer, username: string): Promise<void> {
  for (let i = 0; i < 5; i++) {
    const { status } = await signInAnswer(server, { username, password: '000000-wrong' });
    assert.notEqual(status, 200);
  }
}

/** The lock's end as the admin API reports it. */
async function lockedUntil(server: TestServer, token: string, search: string): Promise<string | null> {
  const response = await fetch(`${server.url}/api/admin/users?q=${encodeURIComponent(search)}&limit=5`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = await response.json();
  assert.equal(body.users.length, 1, search);
  return body.users[0].locked_until;
}

/** The lock's end as the page's own clock and language write it: the time today, with its date another day. */
function clockText(page: Page, iso: string, locale: string): Promise<string> {
  return page.evaluate(([iso, locale]) => {
    const date = new Date(iso);
    const today = date.toDateString() === new Date().toDateString();
    const format = new Intl.DateTimeFormat(
      locale,
      today
        ? { hour: 'numeric', minute: '2-digit' }
        : { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' },
    );
    return format.formatToParts(date).map((p) => (p.type === 'month' ? p.value.replace(/\.$/, '') : p.value))
      .join('');
  }, [iso, locale]);
}

async function signInAsAdmin(page: Page, url: string, spanish = false) {
  await page.goto(`${url}/login`);
  if (spanish) await page.getByRole('button', { name: 'Español' }).click();
  const login = spanish ? es.login : en.login;
  await page.getByLabel(login.username).fill(ADMIN.username);
  await page.getByLabel(login.password).fill(ADMIN.password);
  await page.getByRole('button', { name: login.submit }).click();
  await page.waitForURL(/\/portal\/admin/);
}

Deno.test({
  name:
    "desktop: a locked account shows 'Locked until <time>' in Users; Unlock asks first, and lifts the lock at once",
  ignore: !chromiumAvailable(),
  ...options,
  async fn() {
    assertPwaBuilt();
    const server = await startTestServer();
    const browser: Browser = await launchBrowser();
    try {
      const admin = await apiToken(server, ADMIN);
      // Two accounts locked from one address: its own budget of failures must not refuse them first.
      await setNumberSettingByApi(server, admin, 'login_address_failure_limit', 50);
      await lockOut(server, REPRESENTATIVE.username);
      const end = await lockedUntil(server, admin, REPRESENTATIVE.username);
      assert.ok(end, 'the API reports the lock');
      assert.notEqual(
        (await signInAnswer(server, REPRESENTATIVE)).status,
        200,
        'the right password is refused while locked',
      );

      const context = await browser.newContext({ viewport: DESKTOP, locale: 'en-US' });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await signInAsAdmin(page, server.url);
      await page.getByRole('menuitem', { name: 'Users' }).click();
      await page.getByRole('heading', { name: 'User Management', level: 2 }).waitFor();
      await page.getByLabel('Search').fill(REPRESENTATIVE.username);
      await page.getByText('Showing 1 of 1 users').waitFor();
      const row = page.locator('.ant-table-tbody tr.ant-table-row').first();
      const shown = fill(en.users.lockedUntil, { time: await clockText(page, end, 'en-US') });
      assert.match(shown, /^Locked until (\w{3} \d{1,2}, \d{4}, )?\d{1,2}:\d{2}\s[AP]M$/);
      await row.getByText(shown, { exact: true }).waitFor();
      assert.match(await row.innerText(), /Active/, 'the status stays Active beside the lock');

      // Asked first: Cancel keeps the lock.
      const name = REPRESENTATIVE.name;
      await row.getByRole('button', { name: fill(en.users.unlockNamed, { name }) }).click();
      const confirm = page.locator('.ant-popconfirm');
      await confirm.getByText(fill(en.users.confirmUnlock, { name })).waitFor();
      await confirm.getByText(en.users.unlockConsequence).waitFor();
      await confirm.getByRole('button', { name: en.users.cancel }).click();
      await confirm.waitFor({ state: 'hidden' });
      assert.equal(await lockedUntil(server, admin, REPRESENTATIVE.username), end, 'Cancel keeps the lock');

      await row.getByRole('button', { name: fill(en.users.unlockNamed, { name }) }).click();
      await confirm.getByRole('button', { name: en.users.unlock, exact: true }).click();
      await page.locator('.ant-message-notice', { hasText: en.users.unlocked }).waitFor();
      await row.getByText(shown).waitFor({ state: 'hidden' });
      assert.equal(await row.getByRole('button', { name: fill(en.users.unlockNamed, { name }) }).count(), 0);
      assert.equal(await lockedUntil(server, admin, REPRESENTATIVE.username), null);
      assert.equal(
        (await signInAnswer(server, REPRESENTATIVE)).status,
        200,
        'the right password signs in at once',
      );

      // A reload shows the same: the lock is gone on the server, not only on screen.
      await page.reload();
      await page.getByLabel('Search').fill(REPRESENTATIVE.username);
      await page.getByText('Showing 1 of 1 users').waitFor();
      assert.doesNotMatch(await row.innerText(), /Locked until/);
      await context.close();

      // In Spanish, the lock's end is written as the Spanish clock writes it.
      await lockOut(server, ATTORNEY.username);
      const attorneyEnd = await lockedUntil(server, admin, ATTORNEY.username);
      assert.ok(attorneyEnd);
      const spanish = await browser.newContext({ viewport: DESKTOP, locale: 'en-US' });
      const esPage = await spanish.newPage();
      esPage.setDefaultTimeout(15_000);
      await signInAsAdmin(esPage, server.url, true);
      await esPage.goto(`${server.url}/portal/admin/users`);
      await esPage.locator('#users-search').fill(ATTORNEY.username);
      const esRow = esPage.locator('.ant-table-tbody tr.ant-table-row').first();
      const esShown = fill(es.users.lockedUntil, { time: await clockText(esPage, attorneyEnd, 'es-US') });
      assert.match(esShown, /p\.\s?m\.|a\.\s?m\./);
      await esRow.getByText(esShown, { exact: true }).waitFor();

      // View Details shows the lock as the status (not Active), with the same Unlock, asked first.
      const attorneyName = ATTORNEY.name;
      await esRow.getByRole('button', { name: fill(es.users.viewDetailsNamed, { name: attorneyName }) })
        .click();
      const details = esPage.locator('.ant-modal').filter({ hasText: es.users.details.title });
      const status = details.locator('.ant-descriptions-row', { hasText: es.users.details.status });
      await status.getByText(esShown, { exact: true }).waitFor();
      assert.doesNotMatch(
        await status.innerText(),
        new RegExp(es.users.statuses.active),
        'not shown as active',
      );
      await status.getByRole('button', { name: fill(es.users.unlockNamed, { name: attorneyName }) }).click();
      await esPage.locator('.ant-popconfirm').getByRole('button', { name: es.users.unlock, exact: true })
        .click();
      await esPage.locator('.ant-message-notice', { hasText: es.users.unlocked }).waitFor();
      await status.getByText(es.users.statuses.active, { exact: true }).waitFor();
      assert.equal(await lockedUntil(server, admin, ATTORNEY.username), null, 'unlocked from the details');
      await esRow.getByText(esShown).waitFor({ state: 'hidden' });
      await spanish.close();
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
