/**
 * The sign-in, registration, approval and logout flows in headless Chromium
 * against the real server (API + built PWA on one origin, fresh seeded
 * database). Build the PWA first: node_modules/.bin/vite build --config pwa/vite.config.ts
 */
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { chromiumAvailable, launchBrowser, newRecordedContext } from '../support/browser.ts';
import { assertPwaBuilt, startTestServer, type TestServer } from '../support/server.ts';
import { storedSession } from '../support/offline_pages.ts';

const DEMO = {
  admin: { username: 'admin@demo.test', secret: 'Demo-Admin-2026!', home: '/portal/admin' },
  approver: { username: 'approver@demo.test', secret: 'Demo-Approver-2026!', home: '/portal/approver' },
  attorney: { username: 'attorney@demo.test', secret: 'Demo-Attorney-2026!', home: '/portal/attorney' },
  representative: { username: 'representative@demo.test', secret: 'Demo-Rep-2026!', home: '/representative' },
  offender: { username: '100001', secret: '246810', home: '/portal/offender' },
  offender2: { username: '100002', secret: '135790', home: '/portal/offender' },
} as const;

const TITLE = 'DOC Attorney/Client Mail';

/**
 * Opens fresh browser contexts (own storage each) and records requests leaving
 * the app's origin, uncaught page errors and Content-Security-Policy violations.
 */
class Session {
  private contexts: BrowserContext[] = [];
  readonly foreign: string[] = [];
  readonly pageErrors: string[] = [];
  constructor(private browser: Browser, readonly url: string) {}

  async page(): Promise<Page> {
    const { context, page, foreignRequests } = await newRecordedContext(this.browser, this.url);
    this.contexts.push(context);
    context.on('close', () => this.foreign.push(...foreignRequests));
    page.on('pageerror', (error) => this.pageErrors.push(`${page.url()}: ${error.message}`));
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to (load|execute|apply)/i.test(message.text())) {
        this.pageErrors.push(`${page.url()}: ${message.text()}`);
      }
    });
    // A hang guard, as in the other browser files: a sign-in hashes its secret (600,000 PBKDF2 rounds) and
    // renders a portal, which on a loaded 2-core machine has taken over 10 s.
    page.setDefaultTimeout(20_000);
    return page;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.contexts.map((c) => c.close()));
    this.contexts = [];
  }
}

async function signIn(page: Page, url: string, username: string, secret: string): Promise<void> {
  await page.goto(`${url}/login`);
  await page.getByRole('heading', { name: 'Attorney/Client Secure Mail' }).waitFor();
  await page.getByLabel('facility ID number').fill(username);
  await page.getByLabel('Pin Number').fill(secret);
  await page.getByRole('button', { name: 'View Mail' }).click();
}

function path(page: Page): string {
  return new URL(page.url()).pathname;
}

async function waitForPath(page: Page, url: string, expected: string): Promise<void> {
  await page.waitForURL(`${url}${expected}`, { timeout: 20_000 });
}

function localStorageKeys(page: Page): Promise<string[]> {
  return page.evaluate(() => Object.keys(localStorage));
}

function activeId(page: Page): Promise<string> {
  return page.evaluate(() => document.activeElement?.id ?? '');
}

interface Registrant {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}

/** The name a registration state list shows as chosen (antd's Select keeps it beside its search box). */
function chosenState(page: Page, id: 'barState' | 'state'): Promise<string> {
  return page.locator('.ant-form-item', { has: page.locator(`#${id}`) }).locator('.ant-select').innerText()
    .then((text) => text.trim());
}

/** Chooses a state from the registration form's list by typing part of its name and pressing Enter. */
async function chooseState(page: Page, label: string, typed: string): Promise<void> {
  const box = page.getByLabel(label, { exact: true });
  await box.click();
  await box.pressSequentially(typed);
  await page.keyboard.press('Enter');
}

/** Fills every required registration field with valid values (ZIP may be overridden). */
async function fillRegistration(page: Page, who: Registrant, zip = '65101'): Promise<void> {
  await page.getByLabel('First Name', { exact: true }).fill(who.firstName);
  await page.getByLabel('Last Name', { exact: true }).fill(who.lastName);
  await page.getByLabel('Email', { exact: true }).fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByLabel('Confirm Password', { exact: true }).fill(who.password);
  await page.getByLabel('Bar Number', { exact: true }).fill('MO7788');
  await chooseState(page, 'Bar State', 'Missouri');
  await page.getByLabel('Address Line 1', { exact: true }).fill('1 Capitol Ave');
  await page.getByLabel('City', { exact: true }).fill('Jefferson City');
  await chooseState(page, 'State', 'mo');
  await page.getByLabel('ZIP Code', { exact: true }).fill(zip);
}

const options = { sanitizeResources: false, sanitizeOps: false };

Deno.test({
  name: 'sign-in, registration, approval and logout work end to end in the browser',
  ignore: !chromiumAvailable(),
  ...options,
  async fn(t) {
    assertPwaBuilt();
    const server: TestServer = await startTestServer();
    const browser = await launchBrowser();
    const session = new Session(browser, server.url);
    const url = server.url;
    const run = Date.now();
    const attorney: Registrant = {
      firstName: 'Atlas',
      lastName: `Newcomer${run}`,
      email: `attorney-${run}@e2e.test`,
      password: 'First-Pass-2026!',
    };
    const representative: Registrant = {
      firstName: 'Robin',
      lastName: `Helper${run}`,
      email: `rep-${run}@e2e.test`,
      password: 'Rep-Pass-2026!',
    };
    try {
      await t.step('each role signs in with the one login form and lands on its own portal', async () => {
        for (const account of Object.values(DEMO)) {
          const page = await session.page();
          await signIn(page, url, account.username, account.secret);
          await Promise.all([
            // The toast shows for 2 s: watched for from the click on, not from when the portal has loaded, which
            // on a loaded machine came after it had gone.
            page.getByText('Logged in!').waitFor(),
            waitForPath(page, url, account.home).then(() =>
              page.getByRole('heading', { level: 1, name: TITLE }).waitFor()
            ),
          ]);
          // The spec's three keys; an offender's are kept in the tablet's own store, which leaves nothing of them
          // on the tablet's disk after Log Off (localStorage's would stay in its files).
          const stored = await storedSession(page);
          assert.equal(stored.docId, account.username);
          assert.ok(stored.guid && stored.user);
          const inLocalStorage = account.home === '/portal/offender' ? [] : ['docId', 'guid', 'user'];
          assert.deepEqual((await localStorageKeys(page)).sort(), inLocalStorage);
        }
        await session.closeAll();
      });

      await t.step('each portal shows its header details', async () => {
        const offender = await session.page();
        await signIn(offender, url, DEMO.offender.username, DEMO.offender.secret);
        await waitForPath(offender, url, DEMO.offender.home);
        await offender.getByText('DOC ID Number:').waitFor();
        assert.equal(await offender.locator('.portal-details strong').textContent(), '100001');

        const attorneyPage = await session.page();
        await signIn(attorneyPage, url, DEMO.attorney.username, DEMO.attorney.secret);
        await attorneyPage.getByRole('heading', { level: 2, name: 'Attorney Portal' }).waitFor();

        const rep = await session.page();
        await signIn(rep, url, DEMO.representative.username, DEMO.representative.secret);
        await rep.getByRole('heading', { level: 2, name: 'Representative Portal' }).waitFor();

        const admin = await session.page();
        await signIn(admin, url, DEMO.admin.username, DEMO.admin.secret);
        await admin.getByRole('heading', { name: 'Welcome, Ada Admin' }).waitFor();
        const nav = admin.getByRole('navigation', { name: 'Admin sections' });
        for (const label of ['Users', 'Entities', 'Audit Logs', 'Settings', 'IP Whitelist']) {
          await nav.getByRole('menuitem', { name: label }).waitFor();
        }

        const approver = await session.page();
        await signIn(approver, url, DEMO.approver.username, DEMO.approver.secret);
        await approver.getByRole('heading', { name: 'Attorney Registration System' }).waitFor();
        await approver.getByRole('heading', { name: 'Pending Registrations' }).waitFor();
        await approver.getByRole('button', { name: 'Refresh' }).waitFor();
        await session.closeAll();
      });

      await t.step('wrong credentials show the server message and keep the visitor on /login', async () => {
        const page = await session.page();
        await signIn(page, url, DEMO.offender2.username, '000000');
        await page.getByText('Please check your login credentials.').waitFor();
        assert.equal(path(page), '/login');
        assert.deepEqual(await localStorageKeys(page), []);
        await page.getByLabel('facility ID number').fill('');
        await page.getByRole('button', { name: 'View Mail' }).click();
        await page.getByText('Please provide username!').waitFor();
        await session.closeAll();
      });

      await t.step(
        'the route guard sends visitors to /login and a signed-in offender back to the offender portal',
        async () => {
          const anonymous = await session.page();
          await anonymous.goto(`${url}/portal/approver`);
          await waitForPath(anonymous, url, '/login');
          await anonymous.goto(`${url}/portal`);
          await waitForPath(anonymous, url, '/login');

          const page = await session.page();
          await signIn(page, url, DEMO.offender.username, DEMO.offender.secret);
          await waitForPath(page, url, DEMO.offender.home);
          await page.goto(`${url}/portal/admin`);
          await waitForPath(page, url, '/portal/offender');
          await page.goto(`${url}/portal/attorney/documents`);
          await waitForPath(page, url, '/portal/offender');
          await page.goto(`${url}/portal`);
          await waitForPath(page, url, '/portal/offender');
          await page.goto(`${url}/portal/offender/no-such-screen`);
          await waitForPath(page, url, '/portal/offender');
          // /files is open to any signed-in user, but an offender's mail shows only in their portal, behind the
          // tablet's lock screen.
          await page.goto(`${url}/files`);
          await waitForPath(page, url, '/portal/offender');
          await page.getByRole('heading', { name: 'My documents' }).waitFor();
          await session.closeAll();
        },
      );

      await t.step(
        'an attorney registers through the form after fixing its validation messages',
        async () => {
          const page = await session.page();
          await page.goto(`${url}/login`);
          await page.getByRole('link', { name: 'New Attorney? Register here' }).click();
          await waitForPath(page, url, '/register');
          await page.getByRole('heading', { name: 'Attorney Registration' }).waitFor();
          assert.equal(await chosenState(page, 'barState'), 'MO', 'the placeholder is the example code');
          // The states are offered by name: typing the start of Missouri's name offers Missouri, not Michigan.
          await page.getByLabel('Bar State', { exact: true }).click();
          await page.getByLabel('Bar State', { exact: true }).pressSequentially('Mis');
          await page.locator('.ant-select-item-option', { hasText: 'Missouri (MO)' }).waitFor();
          await page.locator('.ant-select-item-option', { hasText: 'Mississippi (MS)' }).waitFor();
          assert.equal(await page.locator('.ant-select-item-option', { hasText: 'Michigan' }).count(), 0);
          await page.keyboard.press('Escape');
          assert.equal(
            await page.getByLabel('ZIP Code', { exact: true }).getAttribute('placeholder'),
            '12345 or 12345-6789',
          );

          await page.getByRole('button', { name: 'Register Attorney Account' }).click();
          await page.locator('.ant-message').getByText('Please fill in all required fields!').waitFor();
          assert.equal(await activeId(page), 'firstName');
          // Every required field left empty is marked at once, not only the first.
          await page.locator('#zipCode-error').waitFor();
          assert.deepEqual(
            await page.locator('input[aria-invalid="true"]').evaluateAll((inputs) => inputs.map((i) => i.id)),
            [
              'firstName',
              'lastName',
              'email',
              'password',
              'confirmPassword',
              'barNumber',
              'barState',
              'addressLine1',
              'city',
              'state',
              'zipCode',
            ],
          );
          await page.getByLabel('First Name', { exact: true }).fill('A');
          // Editing the field clears its error (antd fades it out, hence the wait).
          await page.locator('#firstName-error').waitFor({ state: 'detached' });

          await page.getByLabel('Email', { exact: true }).fill('not-an-email');
          await page.getByLabel('Email', { exact: true }).blur();
          await page.locator('#email-error').getByText('Please enter a valid email address').waitFor();
          await page.getByLabel('Phone (optional)').fill('12345');
          await page.getByLabel('Phone (optional)').blur();
          await page.getByText('Please enter a valid phone number (e.g., 555-123-4567)').waitFor();
          await page.getByLabel('Phone (optional)').fill('573-555-0100');

          await fillRegistration(page, attorney, '1234');
          assert.equal(await chosenState(page, 'barState'), 'Missouri (MO)');
          assert.equal(await chosenState(page, 'state'), 'Missouri (MO)');
          await page.locator('[data-strength="Strong"]').waitFor();
          await page.getByLabel('Password', { exact: true }).fill(`${attorney.password}x`);
          await page.locator('#confirmPassword-error').getByText('Passwords do not match').waitFor();
          await page.getByLabel('Password', { exact: true }).fill(attorney.password);
          await page.locator('#confirmPassword-error').waitFor({ state: 'detached' });

          // Two problems at once are both shown; the first takes the focus, and nothing says a field is missing.
          await page.getByLabel('Phone (optional)').fill('573-555-010');
          await page.getByRole('button', { name: 'Register Attorney Account' }).click();
          await page.locator('#zipCode-error').getByText('ZIP Code must be in format 12345 or 12345-6789!')
            .waitFor();
          await page.locator('#phone-error').getByText('Please enter a valid phone number').waitFor();
          assert.equal(await activeId(page), 'phone');
          assert.equal(
            await page.locator('[id$="-error"]', { hasText: 'Please fill in all required fields!' }).count(),
            0,
          );
          // A phone number written the usual way is accepted.
          await page.getByLabel('Phone (optional)').fill('(573) 555-0100');
          await page.getByLabel('ZIP Code', { exact: true }).fill('65101-1234');
          await page.getByRole('button', { name: 'Register Attorney Account' }).click();
          await page.getByText(
            'Registration submitted successfully! You will receive an email once approved.',
          ).waitFor();
          await waitForPath(page, url, '/login');

          // A common password with a capital, a digit and a symbol: the label says Weak, as the server judges it,
          // and the server's refusal is shown at the field as well as in the toast.
          await page.goto(`${url}/register`);
          await fillRegistration(page, {
            ...attorney,
            email: `weak-${run}@e2e.test`,
            password: 'Password1!',
          });
          await page.locator('[data-strength="Weak"]').waitFor();
          await page.getByRole('button', { name: 'Register Attorney Account' }).click();
          await page.locator('#password-error').getByText(
            'This password is too common or easy to guess. Please choose a longer, less predictable one.',
          ).waitFor();
          await page.waitForFunction(() => document.activeElement?.id === 'password', null, { polling: 100 });
          assert.equal(path(page), '/register');

          // The same e-mail again: answered like a new registration (its owner is e-mailed instead), so the
          // form never tells a stranger which addresses are registered.
          await page.goto(`${url}/register`);
          await fillRegistration(page, attorney);
          await page.getByRole('button', { name: 'Register Attorney Account' }).click();
          await page.getByText(
            'Registration submitted successfully! You will receive an email once approved.',
          ).waitFor();
          await session.closeAll();
        },
      );

      await t.step('a representative registers with supervising attorney details', async () => {
        const page = await session.page();
        await page.goto(`${url}/register`);
        await fillRegistration(page, representative);
        const box = page.getByLabel('I am an Authorized Representative');
        await box.check();
        await page.getByRole('heading', { name: 'Supervising Attorney Information' }).waitFor();
        // A representative has no bar number of their own: the form asks for the supervising attorney's.
        await page.getByLabel('Bar Number', { exact: true }).waitFor({ state: 'detached' });
        await page.getByText("Your supervising attorney's bar state").waitFor();
        await page.getByLabel('Supervising Attorney Name').fill('Temporary Name');
        await box.uncheck();
        await page.getByLabel('Supervising Attorney Name').waitFor({ state: 'detached' });
        await box.check();
        assert.equal(
          await page.getByLabel('Supervising Attorney Name').inputValue(),
          '',
          'unticking cleared it',
        );

        await page.getByRole('button', { name: 'Register Attorney Account' }).click();
        await page.locator('.ant-message').getByText('Please fill in all supervising attorney fields!')
          .waitFor();
        assert.equal(await activeId(page), 'supervisingAttorneyName');
        await page.getByLabel('Supervising Attorney Name').fill('Atticus Counsel');
        // Written as people write it: the demo attorney's MO12345.
        await page.getByLabel('Supervising Attorney Bar Number').fill('MO-12345');
        await page.getByLabel('Supervising Attorney Email').fill('attorney@demo.test');
        await page.getByRole('button', { name: 'Register Attorney Account' }).click();
        await page.getByText('Registration submitted successfully! You will receive an email once approved.')
          .waitFor();
        await waitForPath(page, url, '/login');
        await session.closeAll();
      });

      await t.step('the approver approves the attorney; no temporary password is made or shown', async () => {
        const page = await session.page();
        await signIn(page, url, DEMO.approver.username, DEMO.approver.secret);
        await waitForPath(page, url, DEMO.approver.home);
        const name = `${attorney.firstName} ${attorney.lastName}`;
        const row = page.getByRole('row').filter({ hasText: attorney.email });
        await row.getByText('MO7788 (MO)').waitFor();
        await page.getByRole('button', { name: `Approve ${name}` }).click();
        const confirm = page.getByRole('dialog', { name: 'Approve Registration' });
        await confirm.getByText(attorney.email).waitFor();
        await confirm.getByText('the applicant signs in with the password they chose').waitFor();
        await confirm.getByRole('button', { name: 'Approve' }).click();
        await page.getByText(
          'Registration approved successfully! The applicant signs in with the password they chose when registering.',
        ).waitFor();
        await row.waitFor({ state: 'detached' });
        assert.equal(await page.getByText(/temporary password/i).count(), 0);
        await session.closeAll();
      });

      await t.step(
        'the approved attorney signs in with the password they chose at registration',
        async () => {
          const page = await session.page();
          await signIn(page, url, attorney.email, attorney.password);
          await waitForPath(page, url, '/portal/attorney');
          await page.getByRole('heading', { level: 2, name: 'Attorney Portal' }).waitFor();
          await session.closeAll();
        },
      );

      await t.step('the approver rejects the representative with a required reason', async () => {
        const page = await session.page();
        await signIn(page, url, DEMO.approver.username, DEMO.approver.secret);
        await waitForPath(page, url, DEMO.approver.home);
        const name = `${representative.firstName} ${representative.lastName}`;
        const row = page.getByRole('row').filter({ hasText: representative.email });
        await row.getByText('Supervising attorney: Atticus Counsel').waitFor();
        // Bar number, bar state and e-mail all name the demo attorney: the approver sees that account.
        await row.getByText('Account to link: Atticus Counsel (attorney@demo.test, bar MO12345 MO)')
          .waitFor();
        await page.getByRole('button', { name: `Reject ${name}` }).click();
        const dialog = page.getByRole('dialog', { name: 'Reject Registration' });
        const reject = dialog.getByRole('button', { name: 'Reject' });
        assert.equal(await reject.isDisabled(), true, 'Reject is disabled while the reason is blank');
        const reason = dialog.getByLabel('Rejection reason');
        await reason.fill('   ');
        await dialog.getByText('Please provide a rejection reason').waitFor();
        assert.equal(await reject.isDisabled(), true);
        await reason.fill('Bar number could not be verified.');
        await reject.click();
        await page.getByText('Registration rejected successfully').waitFor();
        await row.waitFor({ state: 'detached' });
        await session.closeAll();
      });

      await t.step('logging out clears browser storage', async () => {
        const page = await session.page();
        await signIn(page, url, DEMO.attorney.username, DEMO.attorney.secret);
        await waitForPath(page, url, DEMO.attorney.home);
        await page.getByRole('button', { name: 'Log Off' }).click();
        await waitForPath(page, url, '/logout');
        await page.getByText('Please wait! Logging you out securely.').waitFor();
        await waitForPath(page, url, '/login');
        assert.deepEqual(await localStorageKeys(page), []);
        await page.goto(`${url}/portal/attorney`);
        await waitForPath(page, url, '/login');

        const admin = await session.page();
        await signIn(admin, url, DEMO.admin.username, DEMO.admin.secret);
        await waitForPath(admin, url, DEMO.admin.home);
        await admin.getByRole('button', { name: 'Log Off' }).click();
        await waitForPath(admin, url, '/login');
        assert.deepEqual(await localStorageKeys(admin), []);

        const rep = await session.page();
        await signIn(rep, url, DEMO.representative.username, DEMO.representative.secret);
        await waitForPath(rep, url, DEMO.representative.home);
        await rep.goto(`${url}/portal/representative/documents`);
        await rep.getByRole('heading', { level: 2, name: 'Representative Portal' }).waitFor();
        await rep.getByRole('button', { name: 'Log Off' }).click();
        await waitForPath(rep, url, '/login');
        assert.deepEqual(await localStorageKeys(rep), []);
        await session.closeAll();
      });

      await t.step('the service worker caches the app shell but never an /api answer', async () => {
        const page = await session.page();
        await signIn(page, url, DEMO.approver.username, DEMO.approver.secret);
        await waitForPath(page, url, DEMO.approver.home);
        await page.getByRole('heading', { name: 'Pending Registrations' }).waitFor();
        const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
        assert.equal(scope, `${url}/`);
        // A reload goes through the now-active worker; the API calls it makes must pass it by.
        await page.reload();
        await page.getByRole('heading', { name: 'Pending Registrations' }).waitFor();
        const cached = await page.evaluate(async () => {
          const urls: string[] = [];
          for (const name of await caches.keys()) {
            for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
          }
          return urls;
        });
        assert.ok(cached.some((u) => u.includes('/index.html')), 'the shell is precached');
        assert.deepEqual(cached.filter((u) => new URL(u).pathname.startsWith('/api')), []);
        await session.closeAll();
      });

      await t.step('no request left the app origin and no page broke the content security policy', () => {
        assert.deepEqual(session.foreign, []);
        assert.deepEqual(session.pageErrors, []);
      });
    } finally {
      await session.closeAll();
      await browser.close();
      await server.stop();
    }
  },
});
