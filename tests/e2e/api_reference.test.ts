/**
 * The API reference page reads whole in a browser that can reach nothing but the portal's own server: every
 * request to another origin is refused (a closed network, no CDN), and the page still shows every operation of
 * /api/openapi.json and the failure codes. It needs no PWA build.
 */
import assert from 'node:assert/strict';
import { chromiumAvailable, launchBrowser } from '../support/browser.ts';
import { startTestServer } from '../support/server.ts';

Deno.test({
  name: 'API reference: /api/docs shows every operation with every other origin cut off',
  ignore: !chromiumAvailable(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startTestServer();
    const browser = await launchBrowser();
    try {
      const document = await (await fetch(`${server.url}/api/openapi.json`)).json();
      const operations: string[] = [];
      for (const [path, item] of Object.entries(document.paths as Record<string, object>)) {
        for (const method of Object.keys(item)) operations.push(`${method.toUpperCase()} ${path}`);
      }
      assert.ok(operations.length > 40, 'the reference lists the routes');

      const context = await browser.newContext();
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      const origin = new URL(server.url).origin;
      const refused: string[] = [];
      const asked: string[] = [];
      // Cut from the first request, not after the load: anything the page would fetch from elsewhere fails.
      await page.route('**/*', (route) => {
        const url = route.request().url();
        asked.push(url);
        if (new URL(url).origin !== origin) {
          refused.push(url);
          return route.abort('internetdisconnected');
        }
        return route.continue();
      });
      const answer = await page.goto(`${server.url}/api/docs`);
      assert.equal(answer?.status(), 200);
      await page.getByRole('heading', { name: 'Legal-mail portal API', level: 1 }).waitFor();

      // What a person sees: innerText holds only rendered text.
      const shown = await page.locator('section.op h3').evaluateAll((headings) =>
        headings.map((h) => (h as HTMLElement).innerText.replace(/\s+/g, ' ').trim())
      );
      assert.deepEqual(shown.toSorted(), operations.toSorted());
      await page.locator('#failure + p + table').getByText('session_locked', { exact: true }).waitFor();
      assert.ok(await page.locator('section.op').first().isVisible());

      assert.deepEqual(refused, [], 'the page asked for nothing from another origin');
      assert.deepEqual(
        asked.filter((url) => !url.endsWith('/api/docs')),
        [],
        'the page is whole as it is sent',
      );
      await context.close();
    } finally {
      await browser.close();
      await server.stop();
    }
  },
});
