/**
 * The sign-in's second step in Chromium against the real server: with approvers required to use a second factor,
 * the approver adds an authenticator app from the secret shown beside its QR code and signs in with its code,
 * keeps the recovery codes shown once, signs in again with the app's next code, and later with a recovery code;
 * the owner's e-mail about it is in the outbox. Build the PWA first (npm run build).
 */
import assert from 'node:assert/strict';
import * as OTPAuth from 'otpauth';
import { apiToken } from '../support/api_client.ts';
import { chromiumAvailable, launchBrowser, newRecordedContext } from '../support/browser.ts';
import { assertPwaBuilt, startTestServer } from '../support/server.ts';

const APPROVER = { username: 'approver@demo.test', password: 'Demo-Approver-2026!' };

Deno.test({
  name:
    'an approver who must use a second factor enrols an authenticator app and signs in with its code, again with its next code, then with a recovery code',
  ignore: !chromiumAvailable(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    assertPwaBuilt();
    const server = await startTestServer();
    const browser = await launchBrowser();
    try {
      const admin = await apiToken(server, { username: 'admin@demo.test', password: 'Demo-Admin-2026!' });
      const put = await fetch(`${server.url}/api/admin/settings/mfa_required_roles`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json', authorization: `Bearer ${admin}` },
        body: JSON.stringify({ value: { type: 'text', value: 'approver' } }),
      });
      assert.equal(put.status, 200, await put.text());

      const first = await newRecordedContext(browser, server.url);
      const page = first.page;
      page.setDefaultTimeout(15_000);
      const signIn = async () => {
        await page.goto(`${server.url}/login`);
        await page.getByLabel('facility ID number').fill(APPROVER.username);
        await page.getByLabel('Pin Number').fill(APPROVER.password);
        await page.getByRole('button', { name: 'View Mail' }).click();
      };
      await signIn();
      await page.getByRole('heading', { name: 'Add an authenticator app to continue' }).waitFor();
      await page.getByRole('img', { name: 'QR code to scan with an authenticator app' }).waitFor();
      const secret = await page.locator('.mfa-secret').getAttribute('data-secret');
      assert.ok(secret);
      const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 })
        .generate();
      await page.getByLabel('6-digit code').fill(code);
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
      const codes = await page.locator('.recovery-codes code').allTextContents();
      assert.equal(codes.length, 10);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL(`${server.url}/portal/approver`);
      await first.context.close();

      // The next sign-in asks for the app's code: the next time step's (the enrolment used this one's).
      const withCode = await newRecordedContext(browser, server.url);
      withCode.page.setDefaultTimeout(15_000);
      await withCode.page.goto(`${server.url}/login`);
      await withCode.page.getByLabel('facility ID number').fill(APPROVER.username);
      await withCode.page.getByLabel('Pin Number').fill(APPROVER.password);
      await withCode.page.getByRole('button', { name: 'View Mail' }).click();
      await withCode.page.getByRole('heading', { name: 'Second step: your authenticator app' }).waitFor();
      const next = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 })
        .generate({ timestamp: Date.now() + 30_000 });
      await withCode.page.getByLabel('6-digit code').fill(next);
      await withCode.page.getByRole('button', { name: 'Verify' }).click();
      await withCode.page.waitForURL(`${server.url}/portal/approver`);
      await withCode.context.close();

      const second = await newRecordedContext(browser, server.url);
      const again = second.page;
      again.setDefaultTimeout(15_000);
      await again.goto(`${server.url}/login`);
      await again.getByLabel('facility ID number').fill(APPROVER.username);
      await again.getByLabel('Pin Number').fill(APPROVER.password);
      await again.getByRole('button', { name: 'View Mail' }).click();
      await again.getByRole('heading', { name: 'Second step: your authenticator app' }).waitFor();
      await again.getByRole('button', { name: 'Use a recovery code' }).click();
      await again.getByLabel('Recovery code').fill(codes[0]);
      await again.getByRole('button', { name: 'Verify' }).click();
      await again.waitForURL(`${server.url}/portal/approver`);
      await second.context.close();

      const outbox = await fetch(`${server.url}/api/admin/email-outbox`, {
        headers: { authorization: `Bearer ${admin}` },
      });
      const listed = JSON.stringify(await outbox.json());
      assert.match(listed, /mfa_recovery_used|A recovery code was used to sign in/);
      assert.match(listed, /approver@demo\.test/);
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
