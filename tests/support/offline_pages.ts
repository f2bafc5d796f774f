/** What the offline browser tests share: the sign-in form, the tablet's storage as the page sees it, settings. */
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Credentials } from './api_client.ts';
import type { TestServer } from './server.ts';

/** Fills in and sends /login's form (the caller waits for what should follow). */
export async function signInThroughForm(page: Page, url: string, who: Credentials): Promise<void> {
  await page.goto(`${url}/login`);
  await page.getByLabel('facility ID number').fill(who.username);
  await page.getByLabel('Pin Number').fill(who.password);
  await page.getByRole('button', { name: 'View Mail' }).click();
}

/** The IndexedDB databases of the page's origin, by name. */
export function databases(page: Page): Promise<string[]> {
  return page.evaluate(async () => (await indexedDB.databases()).map((entry) => entry.name ?? ''));
}

/** Every URL in the origin's Cache Storage (the service worker's precache). */
export function cachedUrls(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
    }
    return urls;
  });
}

/** Sets a number setting through the admin API. */
export async function setNumberSettingByApi(
  server: TestServer,
  adminToken: string,
  key: string,
  value: number,
): Promise<void> {
  const response = await fetch(`${server.url}/api/admin/settings/${key}`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ value: { type: 'number', value } }),
  });
  assert.equal(response.status, 200, await response.text());
}

/** A tablet held upright: its own storage, touch, the page's clock under the test's control when asked. */
export async function tabletPage(
  browser: Browser,
  clock = false,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 800, height: 1280 }, hasTouch: true });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  if (clock) await page.clock.install();
  return { context, page };
}
