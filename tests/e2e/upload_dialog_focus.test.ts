/**
 * The attorney's upload dialog and the keyboard: the focus starts in its first field (not on the ×), Tab and
 * Shift+Tab go round inside it and never reach the page behind while it is open, and Cancel closes it and gives
 * the focus back to 'Upload New Document'; someone already in a field when the opening's animation ends stays
 * there. Build the PWA first (npm run build).
 */
import assert from 'node:assert/strict';
import { chromiumAvailable, launchBrowser } from '../support/browser.ts';
import { assertPwaBuilt, startTestServer } from '../support/server.ts';
import { DEMO_ATTORNEY } from '../support/viewer_pages.ts';
import { signInThroughForm } from '../support/offline_pages.ts';

const E2E = { sanitizeResources: false, sanitizeOps: false } as const;

Deno.test({
  name:
    'upload dialog: the focus starts in the first field, stays inside the dialog while it is open, and returns to its button',
  ignore: !chromiumAvailable(),
  ...E2E,
  async fn() {
    assertPwaBuilt();
    const server = await startTestServer();
    const browser = await launchBrowser();
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      await signInThroughForm(page, server.url, DEMO_ATTORNEY);
      await page.waitForURL(/\/portal\/attorney/);
      const opener = page.getByRole('button', { name: 'Upload New Document' });
      await opener.click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      await page.waitForFunction(() => document.activeElement?.id === 'upload-doc-number');
      const inside = () =>
        page.evaluate(() => {
          const active = document.activeElement;
          return {
            inside: !!active?.closest('.ant-modal'),
            what: `${active?.tagName} ${active?.id ?? ''} ${active?.getAttribute('aria-label') ?? ''}`,
          };
        });
      for (const key of ['Tab', 'Shift+Tab']) {
        for (let i = 0; i < 15; i++) {
          await page.keyboard.press(key);
          const where = await inside();
          assert.ok(where.inside, `${key} #${i + 1} left the dialog: ${where.what}`);
        }
      }
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await page.waitForFunction(() => document.activeElement?.textContent?.includes('Upload New Document'));

      // Someone quicker than the opening's animation (in the title field before it ends) keeps their place: the
      // first field's focus is for a dialog nobody has moved in yet.
      await page.keyboard.press('Enter');
      const title = page.locator('#upload-title');
      await title.focus();
      await page.keyboard.type('Quick');
      await page.locator('.ant-modal').waitFor();
      await page.waitForFunction(() =>
        !document.querySelector('.ant-modal [class*="-appear"], .ant-zoom-appear')
      );
      await page.waitForTimeout(500);
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'upload-title');
      await page.keyboard.type(' note');
      assert.equal(await title.inputValue(), 'Quick note');
      assert.equal(await page.locator('#upload-doc-number').inputValue(), '');
      await context.close();
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
