/**
 * Debian's Chromium driven by playwright-core. Never downloads a browser: the
 * executable is the system one, and the flags keep it off the closed network.
 */
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Page,
} from 'playwright-core';

export const CHROMIUM_PATH = Deno.env.get('CHROMIUM_PATH') ?? '/usr/bin/chromium';

/** The house flags: headless, and nothing that would reach for the network on its own. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** True when the system Chromium is installed; the browser suite is skipped (outside CI) when not. */
export function chromiumAvailable(): boolean {
  try {
    return Deno.statSync(CHROMIUM_PATH).isFile;
  } catch {
    return false;
  }
}

/** Starts the system Chromium headless. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
}

/**
 * The system Chromium with a profile directory on disk (`userDataDir`), as a tablet keeps one: a test can read
 * what the browser wrote there.
 */
export function launchPersistent(
  userDataDir: string,
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_FLAGS,
    ...options,
  });
}

/**
 * A fresh context (own storage) whose every request is recorded, so a test can
 * assert that nothing left the app's origin.
 */
export async function newRecordedContext(
  browser: Browser,
  appUrl: string,
): Promise<{ context: BrowserContext; page: Page; foreignRequests: string[] }> {
  const context = await browser.newContext({ acceptDownloads: true });
  const origin = new URL(appUrl).origin;
  const foreignRequests: string[] = [];
  context.on('request', (request) => {
    const url = request.url();
    if (url.startsWith('data:') || url.startsWith('blob:') || url.startsWith('about:')) return;
    if (new URL(url).origin !== origin) foreignRequests.push(url);
  });
  const page = await context.newPage();
  return { context, page, foreignRequests };
}
