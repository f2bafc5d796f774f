/**
 * "Check a receipt" in the portal: the sender downloads a letter's signed delivery receipt, chooses it on the
 * page, and is told it verifies; the same receipt with one byte changed does not. Build the PWA first
 * (npm run build).
 */
import assert from 'node:assert/strict';
import { apiToken, apiUpload } from '../support/api_client.ts';
import { chromiumAvailable, launchBrowser } from '../support/browser.ts';
import { signInThroughForm } from '../support/offline_pages.ts';
import { makePdf } from '../support/pdfs.ts';
import { assertPwaBuilt, startTestServer } from '../support/server.ts';
import { DEMO_ATTORNEY } from '../support/viewer_pages.ts';
import en from '../../pwa/src/i18n/en.json' with { type: 'json' };

const E2E = { sanitizeResources: false, sanitizeOps: false } as const;

Deno.test({
  name: 'check a receipt: a downloaded receipt verifies on the page; one byte changed does not',
  ignore: !chromiumAvailable(),
  ...E2E,
  async fn() {
    assertPwaBuilt();
    const server = await startTestServer();
    const browser = await launchBrowser();
    const work = await Deno.makeTempDir({ prefix: 'lmp-receipt-' });
    try {
      const token = await apiToken(server, DEMO_ATTORNEY);
      const id = await apiUpload(server, token, {
        recipient: '100001',
        title: 'Receipt letter',
        bytes: await makePdf(),
      });
      const answer = await fetch(`${server.url}/api/documents/${id}/receipt`, {
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(answer.status, 200);
      const receipt = new Uint8Array(await answer.arrayBuffer());
      await Deno.writeFile(`${work}/receipt.json`, receipt);
      // One byte of the letter's title changed ('Receipt' to 'Receipu').
      const text = new TextDecoder().decode(receipt);
      const at = text.indexOf('Receipt letter') + 'Receip'.length;
      assert.ok(at > 'Receip'.length, 'the receipt names the letter');
      const changed = receipt.slice();
      changed[new TextEncoder().encode(text.slice(0, at)).length] ^= 0x01;
      await Deno.writeFile(`${work}/changed.json`, changed);

      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      await signInThroughForm(page, server.url, DEMO_ATTORNEY);
      await page.waitForURL(/\/portal\/attorney/);
      await page.goto(`${server.url}/receipts/check`);
      await page.getByRole('heading', { name: en.receiptCheck.heading }).first().waitFor();

      await page.locator('input[type=file]').setInputFiles(`${work}/receipt.json`);
      await page.getByRole('button', { name: en.receiptCheck.check, exact: true }).click();
      await page.getByText(en.receiptCheck.verifiedSummary).waitFor();

      await page.locator('input[type=file]').setInputFiles(`${work}/changed.json`);
      await page.getByRole('button', { name: en.receiptCheck.check, exact: true }).click();
      await page.getByText(en.receiptCheck.notVerified).waitFor();
      assert.equal(await page.getByText(en.receiptCheck.verifiedSummary).count(), 0);
      await context.close();
    } finally {
      await browser.close();
      await server.stop();
      await Deno.remove(work, { recursive: true }).catch(() => {});
    }
  },
});
