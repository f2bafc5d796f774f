/**
 * The admin back office in headless Chromium against the real server (API + built PWA, fresh seeded database):
 * Users (searched, filtered, counted and paged by the server; deactivation, details, the offender roster), Entities (create, edit that survives a reload)
 * and Settings (one edit of each type, kept after a reload). Build the PWA first:
 * node_modules/.bin/vite build --config pwa/vite.config.ts
 */
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import type { Browser, Page, Route } from 'playwright-core';
import { chooseOption } from '../support/antd_select.ts';
import { apiToken } from '../support/api_client.ts';
import { launchBrowser, newRecordedContext } from '../support/browser.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const E2E = { sanitizeResources: false, sanitizeOps: false } as const;

let server: TestServer;
let browser: Browser;
let page: Page;
let foreignRequests: string[];

/** The API's answer to a sign-in, straight through HTTP (is an account usable?). */
async function signInWorks(username: string, password: string): Promise<boolean> {
  const response = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password, entity: 'default' }),
  });
  const body = await response.json();
  return response.ok && body.success === true;
}

async function openSection(name: string, heading: string) {
  await page.getByRole('menuitem', { name }).click();
  await page.getByRole('heading', { name: heading, level: 2 }).waitFor();
}

/** Opens an antd Select by its label and picks the option with exactly this text. */
function choose(label: string, option: string) {
  return chooseOption(page, page.getByLabel(label, { exact: true }), option);
}

/** Waits for a toast with this text. */
async function toast(text: string | RegExp) {
  await page.locator('.ant-message-notice', { hasText: text }).first().waitFor();
}

const userRows = () => page.locator('.ant-table-tbody tr.ant-table-row');

Deno.test({
  name: 'setup: server, browser, admin signed in',
  ...E2E,
  fn: async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    ({ page, foreignRequests } = await newRecordedContext(browser, server.url));
    page.setDefaultTimeout(15_000);
    await page.goto(`${server.url}/login`);
    await page.getByLabel('facility ID number').fill('admin@demo.test');
    await page.getByLabel('Pin Number').fill('Demo-Admin-2026!');
    await page.getByRole('button', { name: 'View Mail' }).click();
    await page.waitForURL(/\/portal\/admin/);
  },
});

Deno.test({
  name: 'the admin filters users and deactivates one, whose sign-in then stops working',
  ...E2E,
  fn: async () => {
    assert.ok(await signInWorks('representative@demo.test', 'Demo-Rep-2026!'));
    await openSection('Users', 'User Management');
    await userRows().first().waitFor();
    await page.getByText('Showing 6 of 6 users').waitFor();

    await page.getByLabel('Search').fill('COUNSEL');
    await page.getByText('Showing 1 of 1 users').waitFor();
    assert.match(await userRows().first().innerText(), /Atticus Counsel/);

    await page.getByLabel('Search').fill('');
    await choose('Role', 'Offender');
    await page.getByText('Showing 2 of 2 users').waitFor();
    assert.match(await userRows().first().innerText(), /DOC# 10000\d/, 'offenders show their DOC number');

    await choose('Role', 'Approver');
    await page.getByLabel('Search').fill('nobody-like-this');
    await page.getByText('No users match the current filters').waitFor();

    await page.getByLabel('Search').fill('');
    await choose('Role', 'Representative');
    // Deactivating ends every session of the user: asked first, and Cancel changes nothing.
    await page.getByRole('button', { name: 'Deactivate Riley Paralegal' }).click();
    const confirm = page.locator('.ant-popconfirm');
    await confirm.getByText('Deactivate Riley Paralegal?').waitFor();
    await confirm.getByText(
      'They are signed out of every session at once and cannot sign in until they are activated again.',
    ).waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    assert.ok(await signInWorks('representative@demo.test', 'Demo-Rep-2026!'), 'Cancel keeps Riley active');
    await page.getByRole('button', { name: 'Deactivate Riley Paralegal' }).click();
    await confirm.getByRole('button', { name: 'Deactivate' }).click();
    await toast('User deactivated successfully');
    await page.getByRole('button', { name: 'Activate Riley Paralegal' }).waitFor();
    assert.equal(await signInWorks('representative@demo.test', 'Demo-Rep-2026!'), false);

    // The change is on the server: after a reload the status filter finds Riley as deactivated.
    await page.reload();
    await userRows().first().waitFor();
    await choose('Status', 'Deactivated');
    await page.getByText('Showing 1 of 1 users').waitFor();
    assert.match(await userRows().first().innerText(), /Riley Paralegal[\s\S]*Deactivated/);
    await choose('Status', 'All statuses');

    // The admin's own account: not offered (the server refuses it too, tests/api/admin_users.test.ts).
    await page.getByLabel('Search').fill('admin@demo');
    await page.getByRole('button', { name: 'View details of Ada Admin' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Deactivate Ada Admin' }).count(), 0);

    // View Details shows the admin's own real activity (their sign-in).
    await page.getByRole('button', { name: 'View details of Ada Admin' }).click();
    const dialog = page.getByRole('dialog', { name: 'User Details' });
    await dialog.getByText('Recent Activity (Last 10 Events)').waitFor();
    await dialog.getByText('User Login').first().waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByLabel('Search').fill('');
  },
});

/** The `q` of every user-list request the page sends from now on. */
function recordSearches(): string[] {
  const searches: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/admin/users' && url.search) searches.push(url.searchParams.get('q') ?? '');
  });
  return searches;
}

Deno.test({
  name:
    'the users screen pages, searches and filters on the server: Load more, a debounced search, the count',
  ...E2E,
  fn: async () => {
    // The demo has 6 users and the screen asks for 50 a page: the requests are rewritten to ask for 4, so the
    // real server answers with a real second page.
    const smallPages = (route: Route) => {
      const url = new URL(route.request().url());
      if (url.searchParams.get('limit') === '50') url.searchParams.set('limit', '4');
      return route.continue({ url: url.toString() });
    };
    await page.route('**/api/admin/users?*', smallPages);
    try {
      await page.reload();
      await page.getByText('Showing 4 of 6 users').waitFor();
      assert.equal(await userRows().count(), 4);
      await page.getByRole('button', { name: 'Load more' }).click();
      await page.getByText('Showing 6 of 6 users').waitFor();
      const names = (await userRows().allInnerTexts()).map((row) => row.split('\t')[0]);
      assert.equal(new Set(names).size, 6, `six different users: ${names}`);
      assert.equal(
        await page.getByRole('button', { name: 'Load more' }).count(),
        0,
        'no page after the last',
      );

      // Typed a key at a time, the search goes out once the typing stops, not once a letter.
      const searches = recordSearches();
      // 'coun' already finds the one user: the whole word's answer is waited for, not the first that shows one.
      const whole = page.waitForResponse((response) =>
        new URL(response.url()).searchParams.get('q') === 'counsel'
      );
      await page.getByLabel('Search').pressSequentially('counsel', { delay: 40 });
      await whole;
      await page.getByText('Showing 1 of 1 users').waitFor();
      assert.match(await userRows().first().innerText(), /Atticus Counsel/);
      assert.equal(searches.at(-1), 'counsel');
      assert.ok(searches.length < 'counsel'.length, `one request per pause, not per key: ${searches}`);
      // The search also finds an offender by DOC number (the Email column shows it).
      await page.getByLabel('Search').fill('10000');
      await page.getByText('Showing 2 of 2 users').waitFor();
      await page.getByLabel('Search').fill('');

      // Filters go to the server too, and pages follow them: 5 of the 6 are active (Riley was deactivated).
      await choose('Status', 'Active');
      await page.getByText('Showing 4 of 5 users').waitFor();
      await page.getByRole('button', { name: 'Load more' }).click();
      await page.getByText('Showing 5 of 5 users').waitFor();

      // Deactivated under the Active filter, Avery leaves the list and the count at once, and a reload agrees.
      await page.getByRole('button', { name: 'Deactivate Avery Approver' }).click();
      await page.locator('.ant-popconfirm').getByRole('button', { name: 'Deactivate' }).click();
      await toast('User deactivated successfully');
      await page.getByText('Showing 4 of 4 users').waitFor();
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page.getByText('Showing 4 of 4 users').waitFor();
      assert.equal(await page.getByRole('button', { name: 'Deactivate Avery Approver' }).count(), 0);
      await choose('Status', 'Deactivated');
      await page.getByText('Showing 2 of 2 users').waitFor();
      await page.getByRole('button', { name: 'Activate Avery Approver' }).click();
      await toast('User activated successfully');
      await page.getByText('Showing 1 of 1 users').waitFor();
      assert.ok(await signInWorks('approver@demo.test', 'Demo-Approver-2026!'), 'Avery is active again');
      await choose('Status', 'All statuses');
      await page.getByText('Showing 4 of 6 users').waitFor();
    } finally {
      await page.unroute('**/api/admin/users?*', smallPages);
    }
    await page.reload();
    await page.getByText('Showing 6 of 6 users').waitFor();

    // No answer: the screen says so and offers Retry, which brings the list back.
    const offline = (route: Route) => route.abort('internetdisconnected');
    await page.route('**/api/admin/users?*', offline);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByText('Failed to load users').waitFor();
    await page.unroute('**/api/admin/users?*', offline);
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByText('Showing 6 of 6 users').waitFor();
  },
});

Deno.test({
  name: 'the admin imports a roster with one bad row and sees the report',
  ...E2E,
  fn: async () => {
    await page.getByRole('button', { name: 'Import Roster' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import Roster' });
    const csv = [
      'doc_number,first_name,last_name,pin',
      'R-2001,Alma,Ames,123456',
      'R-2002,Boris,Bell,567890',
      'R-2003,Cora,Cole,abcd',
      'R-2004,Dale,Dunn,901234',
    ].join('\r\n');
    await dialog.getByLabel('Roster CSV file').setInputFiles({
      name: 'roster.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    await dialog.getByRole('button', { name: 'Import' }).click();
    const report = dialog.getByRole('region', { name: 'Import report' });
    await report.waitFor();
    assert.match(await report.innerText(), /Added\s+3\s+Updated\s+0\s+Rejected\s+1/);
    const rejected = dialog.locator('.ant-table-tbody tr.ant-table-row');
    assert.equal(await rejected.count(), 1);
    const cells = await rejected.first().locator('td').allInnerTexts();
    assert.equal(cells[0], '4', 'the line of the bad row, header being line 1');
    assert.equal(cells[1], 'R-2003');
    assert.match(cells[2], /PIN/i, `the reason names the PIN: ${cells[2]}`);
    await dialog.getByRole('button', { name: 'Done' }).click();

    await choose('Role', 'Offender');
    await page.getByText('Showing 5 of 5 users').waitFor();
    assert.ok(await signInWorks('R-2001', '123456'), 'an imported offender signs in with their PIN');
  },
});

Deno.test({
  name: 'the admin adds an offender and resets their PIN',
  ...E2E,
  fn: async () => {
    await page.getByRole('button', { name: 'Add Offender' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Offender' });
    await dialog.getByLabel('DOC Number').fill('A-777');
    await dialog.getByLabel('First Name').fill('Eve');
    await dialog.getByLabel('Last Name').fill('Evans');
    // One rule in both places: the hint and the refusal name the same lengths (the pin_min_length setting).
    await dialog.getByText('6 to 12 digits', { exact: true }).waitFor();
    await dialog.getByLabel('Initial PIN').fill('12345');
    await dialog.getByRole('button', { name: 'Add Offender' }).click();
    await dialog.getByText('PIN must be 6 to 12 digits').waitFor();
    await dialog.getByLabel('Initial PIN').fill('432109');
    await dialog.getByRole('button', { name: 'Add Offender' }).click();
    await toast('Offender added successfully');
    await page.getByText('Showing 6 of 6 users').waitFor();
    assert.ok(await signInWorks('A-777', '432109'));

    // A one-time PIN from a reset works on the facility's network only: this browser's address is that network.
    const admin = await apiToken(server, { username: 'admin@demo.test', password: 'Demo-Admin-2026!' });
    const range = await fetch(`${server.url}/api/admin/ip-whitelist`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
      body: JSON.stringify({ ipRange: '127.0.0.1' }),
    });
    assert.ok(range.status < 300, await range.text());
    await page.getByRole('button', { name: 'Reset PIN of Eve Evans' }).click();
    const reset = page.getByRole('dialog', { name: 'Reset PIN' });
    await reset.getByText('6 to 12 digits', { exact: true }).waitFor();
    await reset.getByLabel('New PIN').fill('864209');
    await reset.getByRole('button', { name: 'Reset PIN' }).click();
    await toast('PIN reset successfully');
    assert.equal(await signInWorks('A-777', '432109'), false, 'the old PIN no longer works');
    assert.ok(await signInWorks('A-777', '864209'));
  },
});

Deno.test({
  name: 'the admin creates an entity and edits it; the edit survives a reload',
  ...E2E,
  fn: async () => {
    await openSection('Entities', 'Entity Management');
    await userRows().first().waitFor();

    await page.getByRole('button', { name: 'Create New Entity' }).click();
    const create = page.getByRole('dialog', { name: 'Create New Entity' });
    await create.getByRole('button', { name: 'Create Entity' }).click();
    await create.getByText('Entity name is required').waitFor();
    await create.getByLabel('Name').fill('  North Facility ');
    assert.equal(await create.getByLabel('Slug').inputValue(), 'north-facility', 'the slug follows the name');
    await create.getByLabel('Email').fill('north@facility.test');
    await create.getByRole('button', { name: 'Create Entity' }).click();
    await toast('Entity created successfully');
    await page.getByRole('button', { name: 'Details of North Facility' }).waitFor();

    // A second entity with the same slug is refused with the server's message.
    await page.getByRole('button', { name: 'Create New Entity' }).click();
    await create.getByLabel('Name').fill('North Facility');
    await create.getByRole('button', { name: 'Create Entity' }).click();
    await toast('An entity with this slug already exists.');
    await create.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Edit North Facility' }).click();
    const edit = page.getByRole('dialog', { name: 'Update Entity' });
    assert.equal(await edit.getByLabel('Name').inputValue(), 'North Facility');
    await edit.getByLabel('Name').fill('North Facility Annex');
    assert.equal(await edit.getByLabel('Slug').inputValue(), 'north-facility-annex');
    await edit.getByLabel('Phone').fill('555-123-4567');
    await choose('Status', 'Inactive');
    await edit.getByRole('button', { name: 'Update Entity' }).click();
    await toast('Entity updated successfully');

    await page.reload();
    await page.getByRole('button', { name: 'Details of North Facility Annex' }).click();
    const details = page.getByRole('dialog', { name: 'Entity Details' });
    const text = await details.innerText();
    assert.match(text, /north-facility-annex/);
    assert.match(text, /Inactive/);
    assert.match(text, /555-123-4567/);
    assert.match(text, /north@facility\.test/);
    assert.match(text, /No settings configured/);
    await details.getByRole('button', { name: 'Close' }).click();

    // The entity every sign-in names keeps its slug however it is renamed.
    await page.getByRole('button', { name: 'Edit Department of Corrections' }).click();
    assert.ok(await edit.getByLabel('Slug').isDisabled());
    await edit.getByLabel('Name').fill('State Department of Corrections');
    assert.equal(await edit.getByLabel('Slug').inputValue(), 'default');
    await edit.getByRole('button', { name: 'Cancel' }).click();
  },
});

/** Edits one setting through its row, named by its label: `set` fills the editor, then Save. */
async function editSetting(label: string, set: () => Promise<void>) {
  await page.getByRole('button', { name: `Edit ${label}`, exact: true }).click();
  await set();
  await page.getByRole('button', { name: `Save ${label}` }).click();
}

const settingRow = (key: string) => page.locator(`[data-setting="${key}"]`);

Deno.test({
  name: 'the admin edits a number, a boolean and a text setting; they are saved',
  ...E2E,
  fn: async () => {
    await openSection('Settings', 'System Settings');
    await settingRow('session_idle_minutes').waitFor();
    // Each setting reads by its label and a plain description: no key, no HTTP status.
    await settingRow('login_address_failure_limit').getByText('Sign-in failures per address', { exact: true })
      .waitFor();
    const shown = await page.locator('[data-setting]').allInnerTexts();
    assert.ok(shown.every((text) => !/\b[a-z]+_[a-z_]+\b|\b429\b/.test(text)), shown.join('\n'));
    // The search box keeps the settings whose label or description has the words typed.
    await page.getByLabel('Search settings').fill('lock');
    await settingRow('lockout_minutes').waitFor();
    assert.equal(await settingRow('department_abbreviation').count(), 0);
    await page.getByLabel('Search settings').fill('');
    await settingRow('department_abbreviation').waitFor();

    await editSetting('Session idle minutes', () => page.getByLabel(/^Value of /).fill('25'));
    await toast('Setting updated successfully');
    await settingRow('session_idle_minutes').getByText('25 minutes').waitFor();

    await editSetting('SMTP enabled', () => choose('Value of SMTP enabled', 'Enabled'));
    await settingRow('smtp_enabled').getByText('Enabled', { exact: true }).waitFor();

    await editSetting('Department abbreviation', () => page.getByLabel(/^Value of /).fill('WADOC'));
    await settingRow('department_abbreviation').getByText('WADOC', { exact: true }).waitFor();

    // A value out of range is refused in the API's words (its rules are shared) and the editor stays open.
    await editSetting('Maximum upload size in MB', () => page.getByLabel(/^Value of /).fill('-3'));
    await settingRow('max_upload_mb').getByRole('alert').getByText(
      'Maximum upload size in MB must be a whole number from 1 to 100.',
    ).waitFor();
    await page.getByRole('button', { name: 'Cancel editing Maximum upload size in MB' }).click();

    await page.reload();
    await settingRow('session_idle_minutes').getByText('25 minutes').waitFor();
    await settingRow('smtp_enabled').getByText('Enabled', { exact: true }).waitFor();
    await settingRow('department_abbreviation').getByText('WADOC', { exact: true }).waitFor();
    await settingRow('max_upload_mb').getByText('10 MB').waitFor();
    // The abbreviation takes effect without a restart: the portal title reads it on load.
    await page.getByText('WADOC Attorney/Client Mail').waitFor();

    // The e-mail outbox is the section's second tab, with its own address.
    await page.getByRole('tab', { name: 'E-mail outbox' }).click();
    await page.waitForURL(/\/portal\/admin\/settings\/email-outbox$/);
    await page.getByRole('heading', { name: 'Email Outbox' }).waitFor();
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
