/**
 * Lighthouse (the npm `lighthouse` package, its default mobile emulation and simulated throttling: a mid-range
 * phone on slow 4G) on /login, the offender's list and the attorney's list, against the real server on the
 * embedded database with the demo data, in Debian's Chromium. Prints the performance, accessibility and
 * best-practices scores, Largest Contentful Paint and Total Blocking Time of each page, then every audit that
 * kept a score below 100 with Lighthouse's own title for it. The aims, on all three pages (the lists
 * share one plain-markup table, mail/DocumentTable.tsx): performance ≥ 95, accessibility 100, best practices
 * 100. Exits 1 when a page misses one. The machine's load average is printed with the scores: the simulated
 * throttling multiplies the CPU time it observes, so a busy machine scores lower.
 *
 *   node_modules/.bin/vite build --config pwa/vite.config.ts --outDir /tmp/dist --emptyOutDir
 *   npm run bench:lighthouse -- /tmp/dist       # default: PWA_DIST, else pwa/dist; builds nothing itself
 *
 * One Chromium, started here with a DevTools port; Lighthouse connects to it (--port). /login is audited the
 * way Lighthouse always does (storage reset: a first visit). For a signed-in list the account signs in
 * through the page first (playwright-core over the same port, so localStorage and the offline state are what
 * a real sign-in leaves), then the service worker, Cache Storage and the HTTP cache are cleared and Lighthouse
 * runs with --disable-storage-reset: the session stays, but every byte of the page comes over the network.
 * The scores depend on the machine's CPU (simulated throttling scales what it measures): run it on a quiet one.
 * LIGHTHOUSE_REPORTS=<folder> keeps each page's full JSON report there (which element failed which audit).
 */
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../tests/support/browser.ts';
import { startTestServer } from '../tests/support/server.ts';
import { type DemoRole, distFromArgs, signInThroughPage } from './support/portal_pages.ts';

const ROOT = new URL('../', import.meta.url).pathname;
const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
/** The aims, per category (0..1 as Lighthouse scores). */
const AIMS: Record<typeof CATEGORIES[number], number> = {
  performance: 0.95,
  accessibility: 1,
  'best-practices': 1,
};

interface Audit {
  id: string;
  title: string;
  score: number | null;
  scoreDisplayMode: string;
  displayValue?: string;
  numericValue?: number;
}

interface Report {
  finalDisplayedUrl: string;
  runtimeError?: { code: string; message: string };
  runWarnings: string[];
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<string, Audit>;
}

/** A free TCP port for Chromium's DevTools endpoint. */
function freePort(): number {
  const listener = Deno.listen({ hostname: '127.0.0.1', port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** Debian's Chromium, headless, with the test suite's flags and a DevTools port Lighthouse can use. */
async function startChromium(): Promise<{ port: number; stop(): Promise<void> }> {
  const port = freePort();
  const profile = await Deno.makeTempDir({ prefix: 'lmp-lighthouse-' });
  const child = new Deno.Command(CHROMIUM_PATH, {
    args: [
      ...CHROMIUM_FLAGS,
      `--remote-debugging-port=${port}`,
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    stdout: 'null',
    stderr: 'null',
  }).spawn();
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/json/version`);
      if (response.ok) {
        await response.body?.cancel();
        break;
      }
    } catch { /* not listening yet */ }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    port,
    async stop() {
      try {
        child.kill('SIGTERM');
      } catch { /* gone */ }
      await child.status;
      await Deno.remove(profile, { recursive: true }).catch(() => {});
    },
  };
}

/** Signs `role` in through the page, then leaves only the session: no service worker, no cached bytes. */
async function signIn(port: number, origin: string, role: DemoRole): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0];
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    // Whoever was signed in before: gone, as on a fresh tablet.
    await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
    await page.goto(`${origin}/login`);
    await signInThroughPage(page, role);
    await page.waitForLoadState('networkidle');
    await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'service_workers,cache_storage' });
    await cdp.send('Network.clearBrowserCache');
    await page.close();
  } finally {
    // Disconnects playwright only; the browser goes on for Lighthouse.
    await browser.close();
  }
}

/** One Lighthouse run through its CLI (node), on the Chromium at `port`. */
async function lighthouse(url: string, port: number, keepStorage: boolean): Promise<Report> {
  const args = [
    `${ROOT}node_modules/lighthouse/cli/index.js`,
    url,
    `--port=${port}`,
    '--output=json',
    '--output-path=stdout',
    `--only-categories=${CATEGORIES.join(',')}`,
    '--quiet',
  ];
  if (keepStorage) args.push('--disable-storage-reset');
  const { code, stdout, stderr } = await new Deno.Command('node', { args, stdout: 'piped', stderr: 'piped' })
    .output();
  const text = new TextDecoder().decode(stdout);
  if (code !== 0 || !text.trim().startsWith('{')) {
    throw new Error(`lighthouse ${url} exited ${code}: ${new TextDecoder().decode(stderr).slice(-2000)}`);
  }
  return JSON.parse(text) as Report;
}

const score = (value: number | null | undefined) =>
  value === null || value === undefined ? '  –' : String(Math.round(value * 100)).padStart(3);
const ms = (audit: Audit | undefined) =>
  audit?.numericValue === undefined ? '–' : `${Math.round(audit.numericValue)} ms`;

/**
 * The audits of a category that did not score full marks: those that count towards the score, heaviest
 * first, then (performance only) the first few diagnostics that say where the time goes.
 */
function shortfalls(report: Report, category: typeof CATEGORIES[number]): string[] {
  const failed = report.categories[category].auditRefs
    .map((ref) => ({ ref, audit: report.audits[ref.id] }))
    .filter(({ audit }) =>
      audit && audit.score !== null && audit.score < 1 &&
      ['binary', 'numeric', 'metricSavings'].includes(audit.scoreDisplayMode)
    )
    .sort((a, b) => b.ref.weight - a.ref.weight || (a.audit.score ?? 0) - (b.audit.score ?? 0));
  const scored = failed.filter(({ ref }) => ref.weight > 0);
  const diagnostics = category === 'performance'
    ? failed.filter(({ ref }) => ref.weight === 0).slice(0, 6)
    : [];
  return [...scored, ...diagnostics]
    .map(({ audit }) =>
      `${score(audit.score)}  ${audit.title}${
        audit.displayValue ? ` (${audit.displayValue})` : ''
      } [${audit.id}]`
    );
}

const dist = distFromArgs(Deno.args);
const server = await startTestServer({ PWA_DIST: dist });
const browser = await startChromium();
/** `aimed`: judged by the aims (all three: the lists share one light table, mail/DocumentTable.tsx). */
const pages: { label: string; path: string; role?: DemoRole; aimed: boolean }[] = [
  { label: '/login', path: '/login', aimed: true },
  { label: 'offender list', path: '/portal/offender', role: 'offender', aimed: true },
  { label: 'attorney list', path: '/portal/attorney', role: 'attorney', aimed: true },
];
const reports: { label: string; report: Report; aimed: boolean }[] = [];
let missed = false;
try {
  const loadBefore = Deno.loadavg();
  for (const { label, path, role, aimed } of pages) {
    let report: Report | undefined;
    // A trace Lighthouse failed to record (NO_NAVSTART and the like, seen on a loaded machine) is its own
    // failure, not the page's: one more try, from a fresh sign-in.
    for (let attempt = 1; !report; attempt++) {
      if (role) await signIn(browser.port, server.url, role);
      try {
        const run = await lighthouse(`${server.url}${path}`, browser.port, Boolean(role));
        if (run.runtimeError) throw new Error(`${run.runtimeError.code} ${run.runtimeError.message}`);
        report = run;
      } catch (error) {
        if (attempt >= 2) throw new Error(`${label}: ${error instanceof Error ? error.message : error}`);
        console.log(`${label}: Lighthouse failed once, trying again (${error})`);
      }
    }
    if (new URL(report.finalDisplayedUrl).pathname !== path) {
      throw new Error(`${label}: Lighthouse ended on ${report.finalDisplayedUrl}, not ${path} (signed out?)`);
    }
    reports.push({ label, report, aimed });
    const keep = Deno.env.get('LIGHTHOUSE_REPORTS');
    if (keep) {
      await Deno.mkdir(keep, { recursive: true });
      await Deno.writeTextFile(
        `${keep}/${label.replace(/\W+/g, '_').replace(/^_/, '')}.json`,
        JSON.stringify(report),
      );
    }
  }
  const version = (await (await fetch(`http://127.0.0.1:${browser.port}/json/version`)).json()).Browser;
  console.log(
    `Lighthouse (mobile emulation, simulated slow 4G and 4x CPU slowdown), ${version}, build ${dist}`,
  );
  const load = (avg: number[]) => avg.map((n) => n.toFixed(2)).join(', ');
  console.log(`load average before ${load(loadBefore)}, after ${load(Deno.loadavg())} (1, 5, 15 min)`);
  console.log(`${'page'.padEnd(16)} perf a11y  b-p        FCP        LCP        TBT    CLS        TTI`);
  for (const { label, report, aimed } of reports) {
    const c = report.categories;
    console.log(
      `${label.padEnd(16)} ${score(c.performance.score)}  ${score(c.accessibility.score)}  ${
        score(c['best-practices'].score)
      } ${ms(report.audits['first-contentful-paint']).padStart(10)} ${
        ms(report.audits['largest-contentful-paint']).padStart(10)
      } ${ms(report.audits['total-blocking-time']).padStart(10)} ${
        (report.audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3).padStart(6)
      } ${ms(report.audits['interactive']).padStart(10)}${aimed ? '' : '  (for information)'}`,
    );
    for (const category of CATEGORIES) {
      if (aimed && (c[category].score ?? 0) < AIMS[category]) missed = true;
    }
  }
  for (const { label, report } of reports) {
    for (const category of CATEGORIES) {
      const below = shortfalls(report, category);
      if (below.length) console.log(`\n${label}, ${category}: below 100\n  ${below.join('\n  ')}`);
    }
    for (const warning of report.runWarnings) console.log(`${label}: warning: ${warning}`);
  }
  console.log(
    `\naims on /login, the offender list and the attorney list (performance ≥ 95, accessibility 100, best practices 100): ${
      missed ? 'NOT all met' : 'met'
    }`,
  );
} finally {
  await browser.stop();
  await server.stop();
}
if (missed) Deno.exit(1);
