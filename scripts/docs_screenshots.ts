/**
 * The README's pictures, taken from the product as it is: starts the portal with its demo data on a fresh
 * embedded database, signs in through the real sign-in form in Debian's Chromium, and writes
 * docs/images/offender-tablet.png (DOC 100001's list on an upright facility tablet) and
 * docs/images/attorney-portal.png (the demo attorney's documents on a desktop). Run with
 * `npm run docs:screenshots` after `npm run build`; commit the PNGs it writes.
 */
import type { Browser, BrowserContextOptions } from 'playwright-core';
import { launchBrowser } from '../tests/support/browser.ts';
import { assertPwaBuilt, startTestServer } from '../tests/support/server.ts';

const OUT = new URL('../docs/images/', import.meta.url);

interface Shot {
  file: string;
  who: { username: string; password: string };
  portal: RegExp;
  /** What must be on screen before the picture is taken. */
  ready: string;
  context: BrowserContextOptions;
}

const SHOTS: Shot[] = [
  {
    file: 'offender-tablet.png',
    who: { username: '100001', password: '246810' },
    portal: /\/portal\/offender/,
    ready: 'My documents',
    context: { viewport: { width: 800, height: 1100 }, hasTouch: true, isMobile: true },
  },
  {
    file: 'attorney-portal.png',
    who: { username: 'attorney@demo.test', password: 'Demo-Attorney-2026!' },
    portal: /\/portal\/attorney/,
    ready: 'My Documents',
    context: { viewport: { width: 1280, height: 720 } },
  },
];

async function take(browser: Browser, url: string, shot: Shot): Promise<void> {
  const context = await browser.newContext({
    ...shot.context,
    locale: 'en-US',
    timezoneId: 'America/New_York',
  });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  await page.goto(`${url}/login`);
  await page.getByLabel('facility ID number').fill(shot.who.username);
  await page.getByLabel('Pin Number').fill(shot.who.password);
  await page.getByRole('button', { name: 'View Mail' }).click();
  await page.waitForURL(shot.portal);
  await page.getByRole('heading', { name: shot.ready }).first().waitFor();
  await page.getByText(/Showing \d+ to \d+ of \d+ entries/).first().waitFor();
  // Toasts ('Login successful') fade on their own; the picture shows the screen a person then works with.
  await page.waitForFunction(() => document.querySelectorAll('.toast, .ant-message-notice').length === 0);
  await page.screenshot({ path: new URL(shot.file, OUT).pathname });
  await context.close();
  console.log(`docs/images/${shot.file}`);
}

assertPwaBuilt();
await Deno.mkdir(OUT, { recursive: true });
const server = await startTestServer();
const browser = await launchBrowser();
try {
  for (const shot of SHOTS) await take(browser, server.url, shot);
} finally {
  await browser.close();
  await server.stop();
}
