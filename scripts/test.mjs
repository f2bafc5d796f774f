// npm test: type-checks and lints both halves, runs every suite, prints where the time went (each step's wall
// time, the slowest test files), and ends with exactly one line `tests: N passed, M failed` summing them all
// (CI reads it).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const bin = (name) => join(root, 'node_modules/.bin', name);
const ci = process.env.CI === 'true' || process.env.CI === '1';
/**
 * `npm run test:quick`: the daily loop. The Deno type check, lint and format check, the PWA unit tests and the
 * API tests on PGlite in two processes; no PWA build, no Ceph gateway (the s3 tests skip), no PostgreSQL,
 * deployment or browser suite. `npm test` runs everything.
 */
const quick = process.argv.includes('--quick');
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const runStarted = performance.now();
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
/** Each step's wall time, in the order they ran: { name, seconds }. */
const stepTimes = [];
/** Each test file's time in its tests, from Deno's JUnit report: { suite, file, seconds }. */
const fileTimes = [];
const reportDir = mkdtempSync(join(tmpdir(), 'lmp-test-reports-'));
process.on('exit', () => rmSync(reportDir, { recursive: true, force: true }));

/**
 * Runs a command; resolves with its exit code and output, and records its wall time as a step unless told not
 * to (a file of a suite that runs its files one process each). Steps run side by side, so each one's output is
 * printed whole when it ends, under its name.
 */
function run(name, command, args, env = {}, { step = true } = {}) {
  const started = performance.now();
  if (step) console.log(`-- started: ${name}`);
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env: { ...process.env, NO_COLOR: '1', ...env } });
    let output = '';
    for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => output += chunk);
    child.on('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      if (step) stepTimes.push({ name, seconds });
      process.stdout.write(`\n== ${name}\n${output}`);
      console.log(`${name}: ${seconds.toFixed(1)} s`);
      resolve({ code: code ?? 1, output });
    });
  });
}

/**
 * Runs the tasks (functions returning promises) at most `limit` at a time, in the order given; resolves with
 * their results in that order.
 */
async function pool(limit, tasks) {
  const results = new Array(tasks.length);
  let next = 0;
  const lane = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, lane));
  return results;
}

/**
 * The time each test file of a suite spent in its tests: the sum of its tests' times (steps excluded, being
 * inside their tests) in Deno's JUnit report; a file's module loading is not in it, its setup tests are.
 * Robust to the order Deno prints in, files running side by side included.
 */
function readFileTimes(suite, reportPath) {
  let xml;
  try {
    xml = readFileSync(reportPath, 'utf8');
  } catch {
    return; // the suite died before writing its report; its failure is counted elsewhere
  }
  for (const [, file, body] of xml.matchAll(/<testsuite name="([^"]*)"[^>]*>([\s\S]*?)<\/testsuite>/g)) {
    const cases = [...body.matchAll(/<testcase name="([^"]*)"[^>]*\btime="([\d.]+)"/g)]
      .map(([, testName, time]) => ({ testName, seconds: Number(time) }));
    // A step is reported as a case of its own, `test &gt; step`, and its time is in its test's already.
    const names = new Set(cases.map((c) => c.testName));
    const isStep = (testName) =>
      [...testName.matchAll(/ &gt; /g)].some((m) => names.has(testName.slice(0, m.index)));
    let seconds = 0;
    for (const c of cases) if (!isStep(c.testName)) seconds += c.seconds;
    fileTimes.push({ suite, file: file.replace(/^\.\//, ''), seconds });
  }
}

/** A check that is one test: passes when the command exits 0. */
async function check(name, command, args, env) {
  const { code } = await run(name, command, args, env);
  if (code === 0) totals.passed++;
  else {
    totals.failed++;
    failures.push(name);
  }
  return code === 0;
}

/**
 * The API suites' niceness: they keep a core busy each and wait on nothing but themselves, while the browser files
 * wait on Chromium and their server, whose answers a test waits for with a timeout. At 10 the kernel gives a
 * process about a tenth of the share of one at 0, so a browser test gets a core when it asks for one and the API
 * suites take what is left, which is most of it.
 */
const NICENESS = 10;

/**
 * A Deno test suite: its own counts, or one failure when it dies before counting. `nice`: run at NICENESS.
 */
let reports = 0;
async function denoSuite(name, args, env, { step = true, nice = false } = {}) {
  const reportPath = join(reportDir, `${reports++}.xml`);
  const test = [bin('deno'), 'test', '--no-check', `--junit-path=${reportPath}`, ...args];
  const { code, output } = nice
    ? await run(name, 'nice', ['-n', String(NICENESS), ...test], env, { step })
    : await run(name, test[0], test.slice(1), env, { step });
  readFileTimes(name.replace(/: tests\/.*$/, ''), reportPath);
  const summary = [...output.matchAll(/(?:ok|FAILED) \| (\d+) passed(?: \(\d+ steps?\))? \| (\d+) failed/g)]
    .pop();
  if (summary) {
    totals.passed += Number(summary[1]);
    totals.failed += Number(summary[2]);
    if (Number(summary[2]) > 0 || code !== 0) failures.push(name);
    if (Number(summary[2]) === 0 && code !== 0) totals.failed++;
  } else if (/No test modules found/.test(output)) {
    console.log(`${name}: no tests`);
  } else {
    totals.failed++;
    failures.push(`${name} (did not run)`);
  }
}

/**
 * Each file's time in its tests at the last run, kept beside the test databases' templates (delete it freely),
 * so that a suite's longest files start first; a file the last run did not time is estimated (below).
 */
const timesPath = join(tmpdir(), 'lmp-test-file-times.json');
let lastTimes = {};
try {
  lastTimes = JSON.parse(readFileSync(timesPath, 'utf8'));
} catch { /* no earlier run on this machine */ }
/**
 * Without an earlier run: the long files' times in quiet fresh-clone runs (28 November 2026), and for the rest
 * 0.12 s a line (those files took between 0.08 and 0.3 s a line).
 */
const KNOWN_TIMES = {
  'tests/deploy/container.test.ts': 198,
  'tests/e2e/pdf_viewer.test.ts': 143,
  'tests/e2e/accessibility_axe.test.ts': 107,
  'tests/deploy/release.test.ts': 80,
  'tests/e2e/auth_flow.test.ts': 73,
  'tests/e2e/documents.test.ts': 68,
  'tests/e2e/viewer_layout.test.ts': 66,
  'tests/e2e/offline_tablet.test.ts': 51,
  'tests/e2e/admin_backoffice.test.ts': 49,
  'tests/e2e/keyboard_flows.test.ts': 49,
  'tests/e2e/viewer_exit.test.ts': 43,
  'tests/e2e/offline_lock.test.ts': 42,
  'tests/e2e/offender_tablet.test.ts': 40,
  'tests/deploy/backup.test.ts': 36,
};
const estimate = (file) =>
  lastTimes[file] ?? KNOWN_TIMES[file] ?? readFileSync(join(root, file), 'utf8').split('\n').length * 0.12;
/** A folder's test files (Deno's own pattern), the longest first. */
const testFiles = (dir) =>
  readdirSync(join(root, dir), { recursive: true })
    .filter((file) => /(^|[/._])test\.(ts|tsx|mts|js|mjs|jsx)$/.test(file))
    .map((file) => join(dir, file))
    .sort((a, b) => estimate(b) - estimate(a) || a.localeCompare(b));

/**
 * A suite whose files each run in a `deno test` of their own, `lanes` at a time from one queue, longest first:
 * a lane takes the next file when its last one ends, so the lanes end close together however long each file
 * is. One process per file costs about a second of a core (loading its modules) and keeps a file that dies
 * from taking the others with it. Counted and timed as one step, from its first file's start to its last's end.
 */
async function laneSuite(name, files, lanes, env) {
  const started = performance.now();
  console.log(`-- started: ${name}, ${files.length} files, ${lanes} at a time`);
  await pool(
    lanes,
    files.map((file) => () => denoSuite(`${name}: ${file}`, ['-A', file], env, { step: false })),
  );
  const seconds = (performance.now() - started) / 1000;
  stepTimes.push({ name, seconds });
  console.log(`${name}: ${seconds.toFixed(1)} s`);
}

/**
 * A suite split into `parts` `deno test` processes run side by side, its files dealt out longest first, each to
 * the part with the least time so far: a suite that keeps one core busy (PGlite runs in the test process's own
 * thread) then keeps both busy. Counted and timed as one step.
 */
async function splitSuite(name, files, parts, env, { nice = false } = {}) {
  const started = performance.now();
  const groups = Array.from({ length: parts }, () => ({ files: [], seconds: 0 }));
  for (const file of files) {
    const least = groups.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    least.files.push(file);
    least.seconds += estimate(file);
  }
  console.log(`-- started: ${name}, ${files.length} files in ${parts} processes`);
  await Promise.all(
    groups.filter((g) => g.files.length).map((g, i) =>
      denoSuite(`${name}: tests/ part ${i + 1}`, ['-A', ...g.files], env, { step: false, nice })
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  stepTimes.push({ name, seconds });
  console.log(`${name}: ${seconds.toFixed(1)} s`);
}

const pgUrl = process.env.TEST_DATABASE_URL;

/**
 * The s3 suites' object store: one Ceph gateway for the whole run (tests/support/ceph/gateway.ts), started here so
 * that its few seconds pass while the type checks run, handed to the API and deployment suites as TEST_S3_*, and
 * stopped at the end (gateway, OSD, monitor). Missing under CI: a failure; elsewhere those tests are skipped.
 */
const gatewayScript = join(root, 'tests/support/ceph/gateway.ts');
const gatewayDir = mkdtempSync(join(tmpdir(), 'lmp-ceph-'));
let gatewayRunning = false;
const stopGateway = () => {
  if (gatewayRunning) {
    spawnSync(bin('deno'), ['run', '-A', gatewayScript, 'stop', gatewayDir], { cwd: root, stdio: 'ignore' });
  }
  gatewayRunning = false;
  rmSync(gatewayDir, { recursive: true, force: true });
};
process.on('exit', stopGateway);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopGateway();
    process.exit(130);
  });
}
const gateway = quick
  ? Promise.resolve({ quick: true })
  : existsSync('/usr/bin/radosgw') && existsSync('/usr/bin/ceph-osd') && existsSync('/usr/bin/ceph-mon')
  ? new Promise((resolve) => {
    const child = spawn(bin('deno'), ['run', '-A', gatewayScript, 'start', gatewayDir], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1', GATEWAY_OWNER_PID: String(process.pid) },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => out += chunk);
    child.stderr.on('data', (chunk) => err += chunk);
    child.on('close', (code) => {
      if (code === 0) {
        gatewayRunning = true;
        resolve({ env: JSON.parse(out.trim().split('\n').pop()) });
      } else {resolve({
          missing: `the Ceph gateway did not start: ${err.trim().split('\n').slice(-5).join(' ')}`,
        });}
    });
  })
  : Promise.resolve({
    missing: "Ceph's gateway is not installed (apt-get install radosgw ceph-mon ceph-osd ceph-common)",
  });

const denoDirs = ['api/', 'contract/', 'tests/', 'db/', 'bench/'].filter((dir) =>
  existsSync(join(root, dir))
);
// The PWA's unit tests run in Deno, so Deno checks them (with deno.json's settings, as `deno test` would): tsc's
// check of the PWA leaves them out. Deno's own test-file pattern picks them.
const pwaTests = readdirSync(join(root, 'pwa/src'), { recursive: true })
  .filter((file) => /(^|[/._])test\.(ts|tsx|mts|js|mjs|jsx)$/.test(file))
  .sort()
  .map((file) => join('pwa/src', file));
// The checks, two at a time; meanwhile the test databases' templates are made (tests/support/db.ts), so that
// the suites' first files do not each start making them. A template that fails here is made by the tests, which
// then fail with the reason.
// Every file the suites below load is checked here once; so they run with --no-check (a cold cache checks a suite's
// modules again otherwise: about 12 s of a core for tests/api alone).
const checks = await pool(2, [
  () =>
    check('type-check API, tests and the PWA unit tests', bin('deno'), ['check', ...denoDirs, ...pwaTests]),
  ...(quick ? [] : [
    () => check('build PWA', bin('vite'), ['build', '--config', 'pwa/vite.config.ts', '--logLevel', 'warn']),
    () => check('type-check PWA', bin('tsc'), ['-p', 'pwa/tsconfig.json']),
  ]),
  () => run("the test databases' templates", bin('deno'), ['run', '-A', 'tests/support/db.ts']),
  () => check('lint both halves (deno lint, React hooks rules included)', bin('deno'), ['lint']),
  () => check('format check both halves (deno fmt)', bin('deno'), ['fmt', '--check']),
]);
const built = !quick && checks[1];

if (quick) {
  await Promise.all([
    splitSuite('API tests on the embedded Postgres (PGlite)', testFiles('tests/api'), 2, {
      TEST_BACKEND: 'pglite',
    }),
    denoSuite('PWA unit tests', ['pwa/src']),
  ]);
  finish();
}

// The suites share no state (each test file has its own database, bucket, ports and folders), so they run side
// by side, the longest first. The s3 suites wait for the gateway, which stops when the last of them ends.
// All four suites at once, the browser files two at a time (docs/benchmarks.md, the test run): a browser file
// mostly waits on Chromium, its server and pdf.js (pdf_viewer kept a quarter of a core busy), the deployment suite
// on podman and nginx, while the API suites keep about a core busy each; they run at NICENESS, so that whatever
// the browser files and the deployment suite need of the two cores comes first and the API suites take the rest.
const SUITES_AT_ONCE = 4;
const BROWSER_LANES = 2;
const { env: s3Env = {}, missing: noGateway } = await gateway;
if (noGateway) {
  if (ci) {
    console.log(`\nS3 tests: FAILED, ${noGateway} (CI requires it)`);
    totals.failed++;
    failures.push('S3 tests (no Ceph gateway)');
  } else {
    console.log(`\nS3 tests: skipped, ${noGateway}`);
    totals.skipped++;
  }
}
let s3Suites = pgUrl ? 3 : 2;
const s3Suite = (name, args, env, options) => async () => {
  try {
    await denoSuite(name, args, { ...env, ...s3Env }, options);
  } finally {
    if (--s3Suites === 0) stopGateway();
  }
};
const browserSuite = async () => {
  if (!existsSync(chromium)) {
    if (ci) {
      console.log(`\nBrowser tests: FAILED, Chromium is missing at ${chromium} (CI requires it)`);
      totals.failed++;
      failures.push('browser tests (no Chromium)');
    } else {
      console.log(
        `\nBrowser tests: skipped, Chromium is not installed at ${chromium} (apt-get install chromium)`,
      );
      totals.skipped++;
    }
  } else if (!built) {
    console.log('\nBrowser tests: not run, the PWA did not build');
    totals.failed++;
    failures.push('browser tests (no PWA build)');
  } else {
    await laneSuite('Browser end-to-end tests (Chromium)', testFiles('tests/e2e'), BROWSER_LANES, {});
  }
};
if (!pgUrl) console.log('\nAPI tests on PostgreSQL: skipped (set TEST_DATABASE_URL to run them)');
await pool(SUITES_AT_ONCE, [
  browserSuite,
  s3Suite('API tests on the embedded Postgres (PGlite)', ['-A', 'tests/api'], { TEST_BACKEND: 'pglite' }, {
    nice: true,
  }),
  ...(pgUrl
    ? [
      s3Suite('API tests on PostgreSQL (TEST_DATABASE_URL)', ['-A', 'tests/api'], {
        TEST_BACKEND: 'postgres',
      }, { nice: true }),
    ]
    : []),
  // The ways to run it: release tarball, systemd unit, nginx front, Deno Deploy guard, container + compose; one
  // file after another (they share podman's images and the host's nginx), the longest first.
  s3Suite('Deployment tests', ['-A', ...testFiles('tests/deploy')], {}),
  () => denoSuite('Boundary checks (contract/, pwa/ → api/, api/domain/)', ['-A', 'tests/checks']),
  () => denoSuite('PWA unit tests', ['pwa/src']),
]);
stopGateway();

finish();

/** Prints where the time went and the one closing line, and exits with the run's outcome. */
function finish() {
  console.log('\n== Where the time went');
  console.log('each step, wall time:');
  for (const { name, seconds } of stepTimes) console.log(`  ${seconds.toFixed(1).padStart(7)} s  ${name}`);
  console.log('the 15 slowest test files (time in their tests):');
  for (const { suite, file, seconds } of [...fileTimes].sort((a, b) => b.seconds - a.seconds).slice(0, 15)) {
    console.log(`  ${seconds.toFixed(1).padStart(7)} s  ${file}  (${suite})`);
  }
  console.log(`total: ${((performance.now() - runStarted) / 1000).toFixed(1)} s`);
  // This run's time of each file (the longer of an API file's two backends) over the last run's.
  const thisRun = {};
  for (const { file, seconds } of fileTimes) thisRun[file] = Math.max(seconds, thisRun[file] ?? 0);
  const times = { ...lastTimes, ...thisRun };
  try {
    writeFileSync(timesPath, JSON.stringify(times));
  } catch { /* the order is only a help */ }

  if (failures.length) console.log(`\nFailed: ${failures.join('; ')}`);
  const skipped = totals.skipped ? `, ${totals.skipped} skipped` : '';
  console.log(`tests: ${totals.passed} passed, ${totals.failed} failed${skipped}`);
  process.exit(totals.failed > 0 ? 1 : 0);
}
