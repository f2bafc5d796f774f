/**
 * The admin's menu on a phone (390x844, and 320 CSS px: 1280 px at 400 %): a "Menu" button of the page's own,
 * in reach of a tap and of the keyboard, opens the sections over the content; choosing one goes there and folds
 * the menu away, Escape closes it and gives the focus back to the button; nothing scrolls sideways. Build the PWA
 * first (npm run build).
 */
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { chromiumAvailable, launchBrowser } from '../support/browser.ts';
import { assertPwaBuilt, startTestServer, type TestServer } from '../support/server.ts';

const E2E = { sanitizeResources: false, sanitizeOps: false } as const;

async function signInAsAdmin(page: Page, server: TestServer): Promise<void> {
  await page.goto(`${server.url}/login`);
  await page.getByLabel('facility ID number').fill('admin@demo.test');
  await page.getByLabel('Pin Number').fill('Demo-Admin-2026!');
  await page.getByRole('button', { name: 'View Mail' }).click();
  await page.getByRole('heading', { name: /^Welcome/, level: 2 }).waitFor();
}

async function scrollsSideways(page: Page): Promise<boolean> {
  return await page.evaluate(() =>
    document.scrollingElement!.scrollWidth > document.scrollingElement!.clientWidth
  );
}

Deno.test({
  name:
    'admin on a phone: the menu opens by tap and by keyboard, goes to a section, and nothing scrolls sideways',
  ignore: !chromiumAvailable(),
  ...E2E,
  async fn() {
    assertPwaBuilt();
    const server = await startTestServer();
    let browser: Browser | undefined;
    try {
      browser = await launchBrowser();
      for (const viewport of [{ width: 390, height: 844 }, { width: 320, height: 640 }]) {
        const context = await browser.newContext({ viewport, hasTouch: true, isMobile: true });
        const page = await context.newPage();
        page.setDefaultTimeout(20_000);
        await signInAsAdmin(page, server);
        const toggle = page.getByRole('button', { name: 'Menu' });
        await toggle.waitFor();
        assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
        assert.equal(await page.getByRole('menuitem', { name: 'Users' }).count(), 0, 'folded away at first');
        const box = (await toggle.boundingBox())!;
        assert.ok(box.height >= 44 && box.width >= 44, `a 44 px target: ${JSON.stringify(box)}`);
        assert.equal(await scrollsSideways(page), false, `${viewport.width} px: the dashboard`);

        // A tap opens it over the content; choosing a section goes there and folds it away.
        await toggle.tap();
        assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
        await page.getByRole('menuitem', { name: 'Users' }).tap();
        await page.waitForURL(/\/portal\/admin\/users/);
        await page.getByRole('menuitem', { name: 'Users' }).waitFor({ state: 'hidden' });
        assert.equal(await toggle.getAttribute('aria-expanded'), 'false');

        // By keyboard: the button is a Tab stop, Enter opens and puts the focus in the sections, Escape closes
        // and gives the focus back to the button.
        await toggle.focus();
        await page.keyboard.press('Enter');
        const entities = page.getByRole('menuitem', { name: 'Audit Logs' });
        await entities.waitFor();
        await page.waitForFunction(() => !!document.activeElement?.closest('#admin-menu'));
        await page.keyboard.press('Escape');
        await entities.waitFor({ state: 'hidden' });
        assert.equal(
          await page.evaluate(() => document.activeElement?.getAttribute('aria-controls')),
          'admin-menu',
        );
        await context.close();
      }
      // On a desktop the sections stand beside the content as before, with no button.
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await signInAsAdmin(page, server);
      await page.getByRole('menuitem', { name: 'Users' }).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Menu' }).count(), 0);
      await context.close();
    } finally {
      await browser?.close();
      await server.stop();
    }
  },
});
