/**
 * Passkeys in Chromium against the real server, with the DevTools protocol's virtual authenticator standing in
 * for a security key (CTAP2, user verification on): an admin adds a passkey on the Security screen, signs in with
 * it, sees when it was last used, and removes it after proving it again; a representative whose role must use a
 * second factor adds a passkey during the sign-in itself, which opens the session, and an admin resets their
 * second factors from the user's details (never the admin's own). Build the PWA first (npm run build).
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { apiToken } from '../support/api_client.ts';
import { chromiumAvailable, launchBrowser, newRecordedContext } from '../support/browser.ts';
import { assertPwaBuilt, startTestServer } from '../support/server.ts';

const ADMIN = { username: 'admin@demo.test', password: 'Demo-Admin-2026!' };
const REPRESENTATIVE = { username: 'representative@demo.test', password: 'Demo-Rep-2026!' };

/** A platform authenticator that verifies its user (a PIN or a fingerprint, always given) and keeps passkeys. */
async function addVirtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
}

async function signInWithPassword(page: Page, url: string, who: { username: string; password: string }) {
  await page.goto(`${url}/login`);
  await page.getByLabel('facility ID number').fill(who.username);
  await page.getByLabel('Pin Number').fill(who.password);
  await page.getByRole('button', { name: 'View Mail' }).click();
}

Deno.test({
  name:
    'an admin adds a passkey on the Security screen, signs in with it, and removes it after proving it again',
  ignore: !chromiumAvailable(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    assertPwaBuilt();
    const server = await startTestServer();
    const browser = await launchBrowser();
    try {
      // A password-only session of the admin, kept to read the audit log at the end.
      const watcher = await apiToken(server, ADMIN);
      const { context, page } = await newRecordedContext(browser, server.url);
      page.setDefaultTimeout(15_000);
      await addVirtualAuthenticator(page);

      await signInWithPassword(page, server.url, ADMIN);
      await page.waitForURL(`${server.url}/portal/admin`);
      await page.getByRole('link', { name: 'Security' }).click();
      await page.waitForURL(`${server.url}/security`);
      await page.getByText('You have no second factor yet.').waitFor();
      await page.getByLabel('Name of the passkey or security key').fill('Desk key');
      await page.getByRole('button', { name: 'Add a passkey or security key' }).click();
      // Adding a factor asks who it is first: without a factor, the password; then the addition carries on.
      await page.getByRole('heading', { name: 'Confirm it is you' }).waitFor();
      await page.getByLabel('Current password').fill(ADMIN.password);
      await page.getByRole('button', { name: 'Continue' }).click();
      // The first factor brings the recovery codes, shown once.
      await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
      assert.equal(await page.locator('.recovery-codes code').count(), 10);
      await page.getByRole('button', { name: 'I have saved these codes' }).click();
      const row = page.getByRole('row', { name: /Desk key/ });
      await row.waitFor();
      assert.match(await row.innerText(), /Passkey or security key/);
      assert.match(await row.innerText(), /Never/);

      await page.getByRole('button', { name: 'Log Off' }).click();
      await page.waitForURL(`${server.url}/login`);
      await signInWithPassword(page, server.url, ADMIN);
      await page.getByRole('heading', { name: 'Second step: your passkey or security key' }).waitFor();
      await page.getByRole('button', { name: 'Use a security key or passkey' }).click();
      await page.waitForURL(`${server.url}/portal/admin`);

      await page.getByRole('link', { name: 'Security' }).click();
      const used = page.getByRole('row', { name: /Desk key/ });
      await used.waitFor();
      assert.doesNotMatch(await used.innerText(), /Never/);

      // Removing it asks for a second factor first: the passkey proves itself again.
      await used.getByRole('button', { name: 'Remove Desk key' }).click();
      await page.getByRole('heading', { name: 'Remove Desk key' }).waitFor();
      await page.locator('.security-prove').getByRole('button', { name: 'Use a security key or passkey' })
        .click();
      await page.getByText('Second factor removed').waitFor();
      await page.getByText('You have no second factor yet.').waitFor();
      await context.close();

      const audit = await fetch(`${server.url}/api/admin/audit-logs?limit=200`, {
        headers: { authorization: `Bearer ${watcher}` },
      });
      assert.equal(audit.status, 200);
      const events = JSON.stringify(await audit.json());
      for (const event of ['mfa_enrolled', 'mfa_verified', 'mfa_removed']) {
        assert.match(events, new RegExp(event), `${event} audited`);
      }
      // The password alone is enough again: no factor is left and admins are not required to have one here.
      const again = await apiToken(server, ADMIN);
      assert.equal(typeof again, 'string');
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});

Deno.test({
  name:
    "a representative who must use a second factor adds a passkey during sign-in, which opens the session; an admin resets the representative's factors",
  ignore: !chromiumAvailable(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    assertPwaBuilt();
    const server = await startTestServer();
    const browser = await launchBrowser();
    try {
      const admin = await apiToken(server, ADMIN);
      const put = await fetch(`${server.url}/api/admin/settings/mfa_required_roles`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json', authorization: `Bearer ${admin}` },
        body: JSON.stringify({ value: { type: 'text', value: 'representative' } }),
      });
      assert.equal(put.status, 200, await put.text());

      const { context, page } = await newRecordedContext(browser, server.url);
      page.setDefaultTimeout(15_000);
      await addVirtualAuthenticator(page);
      await signInWithPassword(page, server.url, REPRESENTATIVE);
      await page.getByRole('heading', { name: 'Add an authenticator app to continue' }).waitFor();
      await page.getByRole('button', { name: 'Add a passkey or security key instead' }).click();
      await page.getByRole('heading', { name: 'Add a passkey or security key to continue' }).waitFor();
      await page.getByLabel('Name of the passkey or security key').fill('Office laptop');
      await page.getByRole('button', { name: 'Add a passkey or security key' }).click();
      await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL(`${server.url}/representative`);

      await page.getByRole('link', { name: 'Security' }).click();
      await page.getByRole('row', { name: /Office laptop/ }).waitFor();
      await page.getByRole('button', { name: 'Log Off' }).click();
      await page.waitForURL(`${server.url}/login`);
      await signInWithPassword(page, server.url, REPRESENTATIVE);
      await page.getByRole('button', { name: 'Use a security key or passkey' }).click();
      await page.waitForURL(`${server.url}/representative`);
      await context.close();

      // An admin resets the representative's second factors from the user's details; their own are not offered.
      const desk = await newRecordedContext(browser, server.url);
      const adminPage = desk.page;
      adminPage.setDefaultTimeout(15_000);
      await signInWithPassword(adminPage, server.url, ADMIN);
      await adminPage.waitForURL(/\/portal\/admin/);
      await adminPage.getByRole('menuitem', { name: 'Users' }).click();
      await adminPage.getByRole('heading', { name: 'User Management', level: 2 }).waitFor();
      await adminPage.getByLabel('Search').fill('admin@demo');
      await adminPage.getByRole('button', { name: 'View details of Ada Admin' }).click();
      const own = adminPage.getByRole('dialog', { name: 'User Details' });
      await own.getByText('You cannot reset your own second factors.', { exact: false }).waitFor();
      assert.equal(await own.getByRole('button', { name: 'Reset second factors' }).count(), 0);
      await own.getByRole('button', { name: 'Close' }).click();
      await own.waitFor({ state: 'hidden' });
      await adminPage.getByLabel('Search').fill('representative@demo');
      await adminPage.getByRole('button', { name: 'View details of Riley Paralegal' }).click();
      const details = adminPage.getByRole('dialog', { name: 'User Details' });
      await details.getByRole('button', { name: 'Reset second factors' }).click();
      await adminPage.locator('.ant-popconfirm').getByRole('button', { name: 'Reset second factors' })
        .click();
      await details.getByText("The user's second factors were reset").waitFor();
      await desk.context.close();

      // Their next sign-in must add a factor again, and they were told by e-mail.
      const login = await fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...REPRESENTATIVE, entity: 'default' }),
      });
      assert.equal((await login.json()).mfaEnrollmentRequired, true);
      const outbox = await fetch(`${server.url}/api/admin/email-outbox`, {
        headers: { authorization: `Bearer ${admin}` },
      });
      const listed = JSON.stringify(await outbox.json());
      assert.match(listed, /Your second factors were reset/);
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
