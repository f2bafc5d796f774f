/**
 * How much JavaScript a tablet downloads on the offender's route (at most 200 KB before the viewer
 * is opened), measured from real page loads in Debian's Chromium against the real server (embedded database,
 * demo data), as the Network panel counts it: the bytes transferred for every script response (its headers and
 * its encoded body; the body alone is printed beside it). The API serves the build's precompressed siblings
 * (api/http/pwa_static.ts), so the bodies are brotli bytes.
 *
 *   node_modules/.bin/vite build --config pwa/vite.config.ts --outDir /tmp/dist --emptyOutDir
 *   npm run bench:bundle -- /tmp/dist          # default: PWA_DIST, else pwa/dist; builds nothing itself
 *
 * Each account gets a fresh browser context (empty HTTP cache) with service workers blocked, so every byte
 * counted came over the network, never from a service worker's cache (the offline work's precache would
 * otherwise answer a second visit and hide the weight). Steps, cumulative within a context:
 *   offender: /login shown → signed in, list shown → Info modal open  (the route's budget ends here)
 *             → viewer opened (for information: the viewer and pdf.js must arrive only now)
 *   offender in Spanish: the same, Español chosen on the sign-in screen (its catalogue loads on demand, and the
 *             route stays within the same budget)
 *   attorney: /login shown → signed in, list shown                    (for information)
 * Prints each step's total, then which chunks make it up. Exits 1 when the offender's route is over budget.
 */
import { basename } from 'node:path';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { launchBrowser } from '../tests/support/browser.ts';
import { startTestServer } from '../tests/support/server.ts';
import en from '../pwa/src/i18n/en.json' with { type: 'json' };
import es from '../pwa/src/i18n/es.json' with { type: 'json' };
import { distFromArgs, kb, signInThroughPage, waitForLoginForm } from './support/portal_pages.ts';

/** The offender's route before the viewer opens: a facility's Wi-Fi is slow and shared by every tablet. */
const BUDGET_BYTES = 200 * 1024;

/** A landscape facility tablet with a touch screen (tests/e2e/offender_tablet.test.ts): the table layout. */
const TABLET = { viewport: { width: 1280, height: 800 }, hasTouch: true } as const;

interface Transfer {
  url: string;
  kind: 'script' | 'stylesheet' | 'other';
  /** What the Network panel's "Transferred" column shows: headers and the encoded (compressed) body. */
  transferred: number;
  /** The encoded body alone. */
  body: number;
  encoding: string;
  fromServiceWorker: boolean;
  /** The step during which it finished. */
  step: string;
}

interface Pending {
  url: string;
  type: string;
  encoding: string;
  fromServiceWorker: boolean;
  body: number;
}

/**
 * Records every request each page of a context finishes, from Chromium's own network events (CDP): the figures
 * the Network panel shows. A worker's own fetches (the pdf.js worker) are not the page's events: those are taken
 * from playwright's view of the context, sized by the Content-Length the server sent (the encoded body).
 */
class Recorder {
  readonly transfers: Transfer[] = [];
  private playwrightScripts: Transfer[] = [];
  private sessions: Promise<unknown>[] = [];
  step = '';

  constructor(context: BrowserContext) {
    context.on('page', (page) => this.sessions.push(this.attach(page)));
    context.on('requestfinished', (request) => {
      if (request.serviceWorker() || !/\.m?js$/.test(new URL(request.url()).pathname)) {
        return;
      }
      this.sessions.push(this.recordWorkerScript(request));
    });
  }

  /**
   * A script playwright saw finish; kept only when no page's network events saw its URL (a worker fetched it),
   * with the Content-Length the server sent (the encoded body) as its size.
   */
  private async recordWorkerScript(request: Request): Promise<void> {
    const step = this.step;
    const response = await request.response();
    if (!response) return;
    const length = Number(await response.headerValue('content-length') ?? 0);
    this.playwrightScripts.push({
      url: request.url(),
      kind: 'script',
      transferred: length,
      body: length,
      encoding: `${(await response.headerValue('content-encoding')) ?? 'identity'} (worker)`,
      fromServiceWorker: response.fromServiceWorker(),
      step,
    });
  }

  /** Adds the scripts that only playwright saw (call once the network is quiet). */
  private mergeWorkerScripts(): void {
    const seen = new Set(this.transfers.map((t) => t.url));
    for (const t of this.playwrightScripts.splice(0)) {
      if (!seen.has(t.url)) this.transfers.push(t);
    }
  }

  private async attach(page: Page): Promise<void> {
    const cdp = await page.context().newCDPSession(page);
    const pending = new Map<string, Pending>();
    cdp.on('Network.requestWillBeSent', (e) => {
      pending.set(e.requestId, {
        url: e.request.url,
        type: e.type ?? 'Other',
        encoding: 'identity',
        fromServiceWorker: false,
        body: 0,
      });
    });
    cdp.on('Network.responseReceived', (e) => {
      const p = pending.get(e.requestId);
      if (!p) return;
      p.type = e.type ?? p.type;
      const headers = Object.fromEntries(
        Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]),
      );
      p.encoding = headers['content-encoding'] ?? 'identity';
      p.fromServiceWorker = e.response.fromServiceWorker ?? false;
    });
    cdp.on('Network.dataReceived', (e) => {
      const p = pending.get(e.requestId);
      if (p) p.body += e.encodedDataLength;
    });
    cdp.on('Network.loadingFinished', (e) => {
      const p = pending.get(e.requestId);
      if (!p) return;
      pending.delete(e.requestId);
      const path = new URL(p.url).pathname;
      const kind = p.type === 'Script' || /\.m?js$/.test(path)
        ? 'script'
        : p.type === 'Stylesheet'
        ? 'stylesheet'
        : 'other';
      this.transfers.push({
        url: p.url,
        kind,
        transferred: e.encodedDataLength,
        // Chromium reports a body's bytes as they arrive only for some loaders; the total less the headers
        // is the same figure otherwise.
        body: p.body || e.encodedDataLength,
        encoding: p.encoding,
        fromServiceWorker: p.fromServiceWorker,
        step: this.step,
      });
    });
    await cdp.send('Network.enable');
  }

  /** Every page's events are being recorded (call before the first navigation). */
  async ready(): Promise<void> {
    await Promise.all(this.sessions);
  }

  /** Waits for the network to be quiet, then names the next step. */
  async settle(page: Page, next: string): Promise<void> {
    await this.ready();
    await page.waitForLoadState('networkidle');
    await this.ready();
    this.mergeWorkerScripts();
    this.step = next;
  }

  total(
    kind: Transfer['kind'],
    steps: readonly string[],
    field: 'transferred' | 'body' = 'transferred',
  ): number {
    return this.transfers.filter((t) => t.kind === kind && steps.includes(t.step))
      .reduce((n, t) => n + t[field], 0);
  }
}

interface StepResult {
  label: string;
  js: number;
  jsBody: number;
  css: number;
}

/** Runs the steps in one fresh context; returns the cumulative totals after each and the recorder. */
async function measure(
  browser: Browser,
  steps: { label: string; run(page: Page): Promise<void> }[],
): Promise<{ results: StepResult[]; recorder: Recorder }> {
  const context = await browser.newContext({ ...TABLET, serviceWorkers: 'block' });
  const recorder = new Recorder(context);
  const page = await context.newPage();
  await recorder.ready();
  const results: StepResult[] = [];
  try {
    for (const [i, step] of steps.entries()) {
      recorder.step = step.label;
      await step.run(page);
      await recorder.settle(page, steps[i + 1]?.label ?? 'after');
      const done = steps.slice(0, i + 1).map((s) => s.label);
      results.push({
        label: step.label,
        js: recorder.total('script', done),
        jsBody: recorder.total('script', done, 'body'),
        css: recorder.total('stylesheet', done),
      });
    }
  } finally {
    await context.close();
  }
  return { results, recorder };
}

function printSteps(title: string, results: StepResult[]): void {
  console.log(`\n${title}  (cumulative bytes transferred; KB = 1,024 bytes)`);
  console.log(
    `  ${'step'.padEnd(36)} ${'JavaScript'.padStart(10)} ${'(bodies)'.padStart(10)} ${'CSS'.padStart(10)}`,
  );
  for (const r of results) {
    console.log(`  ${r.label.padEnd(36)} ${kb(r.js, 10)} ${kb(r.jsBody, 10)} ${kb(r.css, 10)}`);
  }
}

function printChunks(recorder: Recorder): void {
  const byStep = Map.groupBy(recorder.transfers.filter((t) => t.kind === 'script'), (t) => t.step);
  for (const [step, transfers] of byStep) {
    console.log(`  scripts at "${step}" (transferred, of which body, encoding):`);
    for (
      const t of transfers.filter((t) => t.transferred > 0).toSorted((a, b) => b.transferred - a.transferred)
    ) {
      const sw = t.fromServiceWorker ? '  (service worker)' : '';
      const name = basename(new URL(t.url).pathname);
      console.log(`    ${kb(t.transferred, 10)} ${kb(t.body, 10)}  ${t.encoding.padEnd(8)} ${name}${sw}`);
    }
    // A script already in the browser's memory cache (a pop-up reusing the opener's chunks) costs nothing.
    const cached = transfers.filter((t) => t.transferred === 0).length;
    if (cached) console.log(`    and ${cached} from the browser's cache (0 bytes transferred)`);
  }
}

/** What the offender's steps click, in the language shown (the catalogues' own words). */
const LANGUAGES = {
  en: { name: 'English', catalogue: en, choose: null },
  es: { name: 'Spanish', catalogue: es, choose: 'Español' },
} as const;

/** The words before "{{name}}" in a catalogue's per-document button label ('Info {{name}}' → /^Info /). */
function namedButton(label: string): RegExp {
  return new RegExp(`^${label.split('{{name}}')[0].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
}

function offenderSteps(serverUrl: string, language: keyof typeof LANGUAGES) {
  const { catalogue, choose } = LANGUAGES[language];
  return [
    {
      label: '/login shown',
      run: async (page: Page) => {
        await page.goto(`${serverUrl}/login`);
        await waitForLoginForm(page);
        if (choose) {
          await page.getByRole('button', { name: choose }).click();
          await waitForLoginForm(page, catalogue.login);
        }
      },
    },
    {
      label: 'signed in, offender list shown',
      run: (page: Page) => signInThroughPage(page, 'offender', catalogue.login),
    },
    {
      label: 'Info modal open',
      run: async (page: Page) => {
        await page.getByRole('button', { name: namedButton(catalogue.list.infoNamed) }).first().click();
        await page.getByRole('dialog').locator('.info-receipt').waitFor();
      },
    },
    {
      label: 'viewer opened (on demand)',
      run: async (page: Page) => {
        await page.keyboard.press('Escape');
        const [viewer] = await Promise.all([
          page.context().waitForEvent('page'),
          page.getByRole('button', { name: namedButton(catalogue.list.viewNamed) }).first().click(),
        ]);
        await viewer.locator('.pdfViewer .page canvas').first().waitFor({ timeout: 60_000 });
        await viewer.waitForLoadState('networkidle');
      },
    },
  ];
}

const dist = distFromArgs(Deno.args);
const server = await startTestServer({ PWA_DIST: dist });
const browser = await launchBrowser();
let overBudget = false;
try {
  const login = {
    label: '/login shown',
    run: async (page: Page) => {
      await page.goto(`${server.url}/login`);
      await waitForLoginForm(page);
    },
  };
  const offender = await measure(browser, offenderSteps(server.url, 'en'));
  const spanish = await measure(browser, offenderSteps(server.url, 'es'));
  const attorney = await measure(browser, [
    login,
    { label: 'signed in, attorney list shown', run: (page) => signInThroughPage(page, 'attorney') },
  ]);

  console.log(`JavaScript transferred on the portal's routes, build ${dist}`);
  console.log(
    `Chromium ${browser.version()}, ${TABLET.viewport.width}x${TABLET.viewport.height} touch, service workers blocked`,
  );
  printSteps('offender (tablet)', offender.results);
  printChunks(offender.recorder);
  printSteps('offender (tablet), in Spanish', spanish.results);
  printChunks(spanish.recorder);
  printSteps('attorney (for information)', attorney.results);
  printChunks(attorney.recorder);

  const all = [...offender.recorder.transfers, ...spanish.recorder.transfers, ...attorney.recorder.transfers];
  const fromSw = all.filter((t) => t.fromServiceWorker).length;
  console.log(`\nanswered by a service worker: ${fromSw} of ${all.length} requests`);
  const uncompressed = all.filter((t) => t.kind === 'script' && t.encoding === 'identity' && t.body >= 1024);
  if (uncompressed.length) {
    console.log(
      `scripts of 1 KB or more sent uncompressed: ${uncompressed.map((t) => basename(t.url)).join(', ')}`,
    );
  }
  for (const [language, run] of [['en', offender], ['es', spanish]] as const) {
    const route = run.results.find((r) => r.label === 'Info modal open')!;
    const over = route.js > BUDGET_BYTES;
    overBudget ||= over;
    console.log(
      `offender route before the viewer, ${LANGUAGES[language].name}: ${
        kb(route.js, 0)
      } of JavaScript (budget ${kb(BUDGET_BYTES, 0)}): ${over ? 'OVER' : 'within'}`,
    );
  }
} finally {
  await browser.close();
  await server.stop();
}
if (overBudget) Deno.exit(1);
