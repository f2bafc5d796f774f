/**
 * The account lifecycle in headless Chromium against the real server: an offender's first sign-in with a PIN an
 * admin reset shows only the new-PIN screen (which says staff reset it, and when), their next sign-ins tell them
 * again until they dismiss it, their own sign-ins list marks those after the reset, and the staff "Forgot password?" page answers without saying whether the address has an account.
 * Build the PWA first (npm run build).
 */
import assert from 'node:assert/strict';
import { chromiumAvailable, launchBrowser, newRecordedContext } from '../support/browser.ts';
import { assertPwaBuilt, startTestServer } from '../support/server.ts';
import { apiToken } from '../support/api_client.ts';

const options = { sanitizeResources: false, sanitizeOps: false } as const;

Deno.test({
  name: "a reset PIN's first sign-in only chooses a new PIN, and the offender is told of the reset",
  ignore: !chromiumAvailable(),
  ...options,
  async fn(t) {
    assertPwaBuilt();
    const server = await startTestServer();
    const browser = await launchBrowser();
    try {
      const admin = await apiToken(server, { username: 'admin@demo.test', password: 'Demo-Admin-2026!' });
      const users = await (await fetch(`${server.url}/api/admin/users`, {
        headers: { authorization: `Bearer ${admin}` },
      })).json();
      const offender = users.users.find((u: { doc_number: string | null }) => u.doc_number === '100002');
      assert.ok(offender, JSON.stringify(users).slice(0, 400));
      // The tablets' network: a one-time PIN from staff works only on an address of the entity's whitelist, and
      // a reset needs one.
      for (const ipRange of ['127.0.0.1', '::1']) {
        const added = await fetch(`${server.url}/api/admin/ip-whitelist`, {
          method: 'POST',
          headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
          body: JSON.stringify({ ipRange, description: 'Facility tablets' }),
        });
        assert.ok(added.status < 300, await added.text());
      }

      const reset = await fetch(`${server.url}/api/admin/offenders/${offender.id}/pin`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({ pin: '505050' }),
      });
      assert.equal(reset.status, 200);

      const { context, page } = await newRecordedContext(browser, server.url);
      page.setDefaultTimeout(15_000);
      const signIn = async (pin: string) => {
        await page.goto(`${server.url}/login`);
        await page.getByLabel('facility ID number').fill('100002');
        await page.getByLabel('Pin Number').fill(pin);
        await page.getByRole('button', { name: 'View Mail' }).click();
      };
      await t.step('the reset PIN opens only the new-PIN screen, which says staff reset it', async () => {
        await signIn('505050');
        await page.waitForURL(`${server.url}/set-password`);
        await page.getByRole('heading', { name: 'Choose a new PIN' }).waitFor();
        await page.getByText(/Staff reset your PIN on \w+ \d{1,2}, \d{4}\./).waitFor();
        const focused = () => page.evaluate(() => document.activeElement?.id ?? '');
        assert.equal(await focused(), 'pin_current', 'the focus (and its ring) starts in the first field');
        // Log Off asks first: the PIN from staff is good for one sign-in, so leaving means asking for another.
        await page.getByRole('button', { name: 'Log Off' }).click();
        await page.getByText('If you log off now, the PIN from staff stops working').waitFor();
        assert.equal(
          await page.evaluate(() => document.activeElement?.textContent),
          'Stay and choose a PIN',
          'the safe answer has the focus',
        );
        await page.getByRole('button', { name: 'Stay and choose a PIN' }).click();
        await page.getByRole('button', { name: 'Log Off' }).waitFor();
        assert.equal(page.url(), `${server.url}/set-password`);
        // The portal is refused: the guard sends the page back here.
        await page.goto(`${server.url}/portal/offender`);
        await page.waitForURL(`${server.url}/set-password`);
        await page.getByLabel('PIN from staff').fill('505050');
        await page.getByLabel('New PIN', { exact: true }).fill('Zebra-Quartz');
        await page.getByLabel('New PIN again').fill('Zebra-Quartz');
        await page.getByRole('button', { name: 'Save new PIN' }).click();
        await page.getByText('Your PIN must be 6 to 12 digits.').waitFor();
        // The field that is wrong is marked and has the focus, not the first or the last.
        assert.equal(await focused(), 'pin_pin');
        assert.equal(await page.getByLabel('New PIN', { exact: true }).getAttribute('aria-invalid'), 'true');
        await page.getByLabel('New PIN', { exact: true }).fill('707070');
        await page.getByLabel('New PIN again').fill('707070');
        await page.getByRole('button', { name: 'Save new PIN' }).click();
        await page.waitForURL(`${server.url}/portal/offender**`);
      });
      const logOffAndSignIn = async () => {
        await page.getByRole('button', { name: 'Log Off' }).click();
        await page.waitForURL(`${server.url}/login**`);
        await signIn('707070');
        await page.waitForURL(`${server.url}/portal/offender**`);
      };
      const notice = () => page.getByRole('alert').filter({ hasText: /Staff reset your PIN on/ });
      await t.step('every sign-in with the new PIN tells the offender again, in plain words', async () => {
        await logOffAndSignIn();
        await notice().waitFor();
        // Whoever signed in first with the chosen PIN did not use the notice up.
        await logOffAndSignIn();
        await notice().waitFor();
      });
      await t.step("the offender's own sign-ins mark those after the reset", async () => {
        await notice().getByRole('link', { name: 'See my recent sign-ins' }).click();
        await page.waitForURL(`${server.url}/portal/offender/sign-ins`);
        await page.getByRole('heading', { name: 'My recent sign-ins' }).waitFor();
        const table = page.getByRole('table', { name: 'My recent sign-ins' });
        await table.waitFor();
        // Header and three sign-ins: the one-time PIN's and two with the PIN chosen, all after the reset.
        assert.equal(await table.getByRole('row').count(), 4);
        assert.equal(await table.getByText('With the PIN staff set, after a staff PIN reset').count(), 1);
        assert.equal(await table.getByText('After a staff PIN reset', { exact: true }).count(), 2);
        assert.equal(await table.getByText('Facility network').count(), 3);
        // The header's way there, and back, are ordinary links, 44 px high.
        const back = page.getByRole('link', { name: 'Back to my documents' });
        assert.ok(((await back.boundingBox())?.height ?? 0) >= 44);
        await back.click();
        await page.getByRole('link', { name: 'My sign-ins' }).waitFor();
      });
      await t.step('the notice goes only when the offender dismisses it', async () => {
        await notice().getByRole('button', { name: 'I understand' }).click();
        await page.getByRole('button', { name: 'I understand' }).waitFor({ state: 'detached' });
        await logOffAndSignIn();
        await page.getByRole('link', { name: 'My sign-ins' }).waitFor();
        assert.equal(await page.getByText(/Staff reset your PIN on/).count(), 0);
      });
      await context.close();

      await t.step('Forgot password answers alike for any address', async () => {
        const { context: staff, page: p } = await newRecordedContext(browser, server.url);
        p.setDefaultTimeout(15_000);
        const ask = async (email: string) => {
          await p.goto(`${server.url}/login`);
          await p.getByRole('link', { name: 'Forgot password? (staff)' }).click();
          await p.getByLabel('E-mail address').fill(email);
          await p.getByRole('button', { name: 'Send link' }).click();
          return await p.getByRole('status').filter({ hasText: 'If this address' }).innerText();
        };
        assert.equal(await ask('attorney@demo.test'), await ask('nobody@nowhere.test'));
        await staff.close();
      });
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
