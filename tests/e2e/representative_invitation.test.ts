/**
 * "Invite a representative" in Chromium against the real server: an attorney with no representative reads in the
 * empty list how one joins, and sends an invitation; the invitation's link opens the registration form with the
 * invited address filled in and the supervising attorney taken from the invitation. Build the PWA first.
 */
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { apiCall, apiToken } from '../support/api_client.ts';
import { launchBrowser, newRecordedContext } from '../support/browser.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const E2E = { sanitizeResources: false, sanitizeOps: false } as const;
const PASSWORD = 'Quartz-Lantern-Harbor-719';
const LAWYER = { firstName: 'Lena', lastName: 'Lawyer', email: `lena-${Date.now().toString(36)}@e2e.test` };

let server: TestServer;
let browser: Browser;
let page: Page;
let foreign: string[];

const api = (path: string, init: Parameters<typeof apiCall>[2] = {}) => apiCall(server, path, init);
const token = (username: string, password: string) => apiToken(server, { username, password });

Deno.test({
  name: 'setup: server, browser, an approved attorney with no representative',
  ...E2E,
  fn: async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    const registered = await api('/auth/register', {
      method: 'POST',
      body: {
        userType: 'attorney',
        isRepresentative: false,
        ...LAWYER,
        password: PASSWORD,
        confirmPassword: PASSWORD,
        barNumber: 'MO55110',
        barState: 'MO',
        addressLine1: '1 Court St',
        city: 'Jefferson City',
        state: 'MO',
        zipCode: '65101',
      },
    });
    assert.equal(registered.status, 201, JSON.stringify(registered.body));
    const approver = await token('approver@demo.test', 'Demo-Approver-2026!');
    const list = await api('/approver/registrations', { token: approver });
    const pending = list.body.registrations.find((r: { email: string }) => r.email === LAWYER.email);
    const approved = await api(`/approver/registrations/${pending.id}/approve`, {
      method: 'POST',
      token: approver,
    });
    assert.equal(approved.status, 200, JSON.stringify(approved.body));
    ({ page, foreignRequests: foreign } = await newRecordedContext(browser, server.url));
    page.setDefaultTimeout(15_000);
  },
});

Deno.test({
  name:
    "an attorney's empty Representatives list says how one joins, and the attorney invites a representative",
  ...E2E,
  fn: async () => {
    await page.goto(`${server.url}/login`);
    await page.getByLabel('facility ID number').fill(LAWYER.email);
    await page.getByLabel('Pin Number').fill(PASSWORD);
    await page.getByRole('button', { name: 'View Mail' }).click();
    await page.waitForURL(/\/portal\/attorney/);
    await page.getByRole('button', { name: 'Representatives' }).click();
    await page.getByRole('heading', { name: 'Representatives' }).waitFor();
    await page.getByText('No representative has named you as their supervising attorney').waitFor();
    await page.getByText(/To add one, choose "Invite a representative"/).waitFor();

    await page.getByRole('button', { name: 'Invite a representative' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite a representative' });
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await dialog.getByText('Please enter a valid email address').waitFor();
    await dialog.getByLabel('Email').fill('rowan.rep@e2e.test');
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText(
      'Invitation sent. When they register with its link, you are filled in as their supervising attorney.',
    ).first().waitFor();
    await dialog.waitFor({ state: 'hidden' });

    // The invitation is in the outbox, addressed to the representative.
    const admin = await token('admin@demo.test', 'Demo-Admin-2026!');
    const outbox = await api('/admin/email-outbox', { token: admin });
    assert.equal(outbox.status, 200, JSON.stringify(outbox.body));
    assert.ok(
      JSON.stringify(outbox.body).includes('rowan.rep@e2e.test'),
      `the invitation is queued: ${JSON.stringify(outbox.body).slice(0, 400)}`,
    );
  },
});

Deno.test({
  name:
    "the invitation's link opens registration with the address filled in and the supervisor taken from it",
  ...E2E,
  fn: async () => {
    await page.context().clearCookies();
    await page.goto(
      `${server.url}/register#invitation=abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG&email=rowan.rep%40e2e.test`,
    );
    await page.getByText('You were invited as a representative').waitFor();
    assert.equal(await page.getByLabel('Email', { exact: true }).inputValue(), 'rowan.rep@e2e.test');
    assert.equal(
      await page.getByLabel('Supervising Attorney Name').count(),
      0,
      'no supervising fields to fill',
    );
    assert.equal(new URL(page.url()).hash, '', 'the code leaves the address bar');
  },
});

Deno.test({
  name: 'teardown (no request left the app origin)',
  ...E2E,
  fn: async () => {
    await browser?.close();
    await server?.stop();
    assert.deepEqual(foreign, []);
  },
});
