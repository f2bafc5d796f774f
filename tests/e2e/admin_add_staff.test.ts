/**
 * "Add Staff" in headless Chromium against the real server: the department-wide administrator makes a new entity,
 * then its approver from Users. Build the PWA first: node_modules/.bin/vite build --config pwa/vite.config.ts
 */
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { chooseOption } from '../support/antd_select.ts';
import { launchBrowser, newRecordedContext } from '../support/browser.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const E2E = { sanitizeResources: false, sanitizeOps: false } as const;

let server: TestServer;
let browser: Browser;
let page: Page;

async function openSection(name: string, heading: string) {
  await page.getByRole('menuitem', { name }).click();
  await page.getByRole('heading', { name: heading, level: 2 }).waitFor();
}

async function toast(text: string | RegExp) {
  await page.locator('.ant-message-notice', { hasText: text }).first().waitFor();
}

async function api(path: string, body: unknown, token?: string) {
  const response = await fetch(`${server.url}/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

Deno.test({
  name: 'setup: server, browser, the department-wide admin signed in',
  ...E2E,
  fn: async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    ({ page } = await newRecordedContext(browser, server.url));
    page.setDefaultTimeout(15_000);
    await page.goto(`${server.url}/login`);
    await page.getByLabel('facility ID number').fill('admin@demo.test');
    await page.getByLabel('Pin Number').fill('Demo-Admin-2026!');
    await page.getByRole('button', { name: 'View Mail' }).click();
    await page.waitForURL(/\/portal\/admin/);
  },
});

Deno.test({
  name: 'a department-wide admin creates an approver for a new entity from Users',
  ...E2E,
  fn: async () => {
    await openSection('Entities', 'Entity Management');
    await page.getByRole('button', { name: 'Create New Entity' }).click();
    const create = page.getByRole('dialog', { name: 'Create New Entity' });
    await create.getByLabel('Name').fill('Eastern Facility');
    await create.getByRole('button', { name: 'Create Entity' }).click();
    await toast('Entity created successfully');

    await openSection('Users', 'User Management');
    await page.getByRole('button', { name: 'Add Staff' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Staff' });
    await dialog.getByText(/e-mailed a link to set their password/).waitFor();
    // Every field says what is missing at once.
    await dialog.getByRole('button', { name: 'Add Staff' }).click();
    await dialog.getByText('Please enter a valid email address').waitFor();
    await dialog.getByText('First name is required').waitFor();
    await dialog.getByLabel('Email').fill('eastern.approver@example.test');
    await dialog.getByLabel('First Name').fill('Erin');
    await dialog.getByLabel('Last Name').fill('East');
    await chooseOption(page, dialog.getByLabel('Role', { exact: true }), 'Approver');
    await chooseOption(page, dialog.getByLabel('Entity', { exact: true }), 'Eastern Facility');
    await dialog.getByRole('button', { name: 'Add Staff' }).click();
    await toast('Staff account created. They have been e-mailed a link to set their password.');
    await dialog.waitFor({ state: 'hidden' });

    // The account is the new entity's: the same address there again is refused as taken.
    const signedIn = await api('/auth/login', {
      username: 'admin@demo.test',
      password: 'Demo-Admin-2026!',
      entity: 'default',
    });
    assert.equal(signedIn.status, 200);
    const again = await api('/admin/users/staff', {
      email: 'eastern.approver@example.test',
      firstName: 'Erin',
      lastName: 'East',
      role: 'approver',
      entity: 'eastern-facility',
    }, signedIn.body.token);
    assert.equal(again.status, 409, JSON.stringify(again.body));
    assert.equal(again.body.code, 'user_email_taken');
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
