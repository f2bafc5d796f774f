/**
 * The sign-in's "Attorneys and staff" switch: the fields keep the spec's offender labels ('facility ID number',
 * 'Pin Number') until it is pressed; pressed, it shows its state (aria-pressed and a filled background) and the
 * fields read "Email" and "Password", in English and in Spanish; an attorney signs in through it. Build the PWA
 * first (npm run build).
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { chromiumAvailable, launchBrowser } from '../support/browser.ts';
import { assertPwaBuilt, startTestServer } from '../support/server.ts';
import { DEMO_ATTORNEY } from '../support/viewer_pages.ts';
import en from '../../pwa/src/i18n/en.json' with { type: 'json' };
import es from '../../pwa/src/i18n/es.json' with { type: 'json' };

const E2E = { sanitizeResources: false, sanitizeOps: false } as const;

/**
 * The switch's fill: its computed background colour, with the pointer moved off it first (the pointer left on it
 * by a click shows the hover colour, which the on and off states share).
 */
async function background(page: Page, name: string): Promise<string> {
  await page.mouse.move(0, 0);
  const button = page.getByRole('button', { name });
  await page.waitForFunction(
    (element) => element && !element.matches(':hover'),
    await button.elementHandle(),
  );
  return await button.evaluate((element) => getComputedStyle(element).backgroundColor);
}

Deno.test({
  name:
    "sign-in: the offender's labels by default; 'Attorneys and staff' relabels them Email and Password, in both languages, and signs an attorney in",
  ignore: !chromiumAvailable(),
  ...E2E,
  async fn() {
    assertPwaBuilt();
    const server = await startTestServer();
    const browser = await launchBrowser();
    try {
      const context = await browser.newContext({ viewport: { width: 800, height: 1280 }, hasTouch: true });
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      for (const texts of [es.login, en.login]) {
        await page.goto(`${server.url}/login`);
        if (texts === es.login) await page.getByRole('button', { name: 'Español' }).click();
        await page.getByLabel(texts.username).waitFor();
        assert.equal(await page.getByLabel(texts.password).count(), 1);
        const toggle = page.getByRole('button', { name: texts.staffSwitch });
        assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
        const box = (await toggle.boundingBox())!;
        assert.ok(box.height >= 44, `a 44 px target: ${box.height}`);
        const off = await background(page, texts.staffSwitch);
        await toggle.click();
        assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
        assert.notEqual(
          await background(page, texts.staffSwitch),
          off,
          'the on state is filled, not a border',
        );
        await page.getByLabel(texts.email, { exact: true }).waitFor();
        assert.equal(await page.getByLabel(texts.staffPassword, { exact: true }).count(), 1);
        assert.equal(await page.getByLabel(texts.username).count(), 0, "the offender's label is gone");
        assert.equal(
          await page.getByLabel(texts.email, { exact: true }).getAttribute('placeholder'),
          texts.emailPlaceholder,
        );
        // Off again: the spec's labels come back.
        await toggle.click();
        await page.getByLabel(texts.username).waitFor();
      }
      await page.getByRole('button', { name: en.login.staffSwitch }).click();
      await page.getByLabel(en.login.email, { exact: true }).fill(DEMO_ATTORNEY.username);
      await page.getByLabel(en.login.staffPassword, { exact: true }).fill(DEMO_ATTORNEY.password);
      await page.getByRole('button', { name: en.login.submit }).click();
      await page.waitForURL(/\/portal\/attorney/);
      await context.close();
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
