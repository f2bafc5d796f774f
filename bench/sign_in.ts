/**
 * How long a sign-in takes, this checkout against a baseline checkout, in one run: the demo offender's
 * `POST /api/auth/login` (DOC 100001, PIN) through the real server (api/main.ts on the embedded database, as
 * `npm start` runs it), one at a time and four at once (a housing unit's tablets after count time), and an unknown
 * DOC number, which must cost what a known one does. Prints the median and p95 of each, baseline beside current.
 *
 *   npm run bench:sign-in                       baseline: BASELINE_REF (default below), checked out beside this one
 *   BASELINE_REF=<commit> BENCH_SIGN_INS=30 npm run bench:sign-in
 *
 * The default baseline is the last commit whose sign-in also checked the password against a dummy temporary
 * password's hash (two full PBKDF2 derivations per sign-in, where one is needed). The two servers run on the
 * same machine at the same time and are measured in alternation, so the machine's other load falls on both.
 */
import { type BenchServer, startBenchServer } from './support/server.ts';
import { checkOutBaseline, removeBaseline } from './support/baseline.ts';

const ROOT = new URL('../', import.meta.url).pathname;
const BASELINE_REF = Deno.env.get('BASELINE_REF') ?? 'f3ea904';
const SIGN_INS = Number(Deno.env.get('BENCH_SIGN_INS') ?? 20);
const OFFENDER = { username: '100001', password: '246810' };
/**
 * The wrong PINs go to the other demo offender: an offender's account makes the next try wait after its third
 * failure in a row, so the case after would meet that wait (429) if they went to the offender it measures.
 */
const WRONG_PIN_OFFENDER = { username: '100002', password: '135790' };
/** Unknown DOC numbers, a new one each time, so no account lock answers in their place. */
let unknownCount = 0;
const unknown = () => ({ username: `99${String(unknownCount++).padStart(4, '0')}`, password: '246810' });

async function start(root: string): Promise<{ server: BenchServer; dataDir: string }> {
  const dataDir = await Deno.makeTempDir({ prefix: 'lmp-bench-signin-' });
  const server = await startBenchServer(
    { DATA_DIR: dataDir, LOG_LEVEL: 'info', PWA_DIST: `${ROOT}pwa/dist`, TRUSTED_PROXIES: '127.0.0.1' },
    { root, ready: /Demo accounts:[\s\S]*135790/ },
  );
  return { server, dataDir };
}

/** One sign-in's time in ms; a success for the demo offender, a refusal for the unknown one. */
type Who = 'offender' | 'wrong PIN' | 'unknown';

async function signIn(server: BenchServer, kind: Who | 'wrong PIN reset', from: number, tablet = 0) {
  const who = kind === 'offender'
    ? (tablet % 2 ? WRONG_PIN_OFFENDER : OFFENDER)
    : kind === 'wrong PIN reset'
    ? WRONG_PIN_OFFENDER
    : kind === 'wrong PIN'
    ? { username: WRONG_PIN_OFFENDER.username, password: '135791' }
    : unknown();
  const started = performance.now();
  const response = await fetch(`${server.base}/api/auth/login`, {
    method: 'POST',
    // A facility's tablets each have their own address on its network: one per simulated tablet, so the
    // address budget of the sign-in throttle is not what is measured.
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.9.0.${from}` },
    body: JSON.stringify(who),
  });
  const text = await response.text();
  const elapsed = performance.now() - started;
  const expected = kind === 'offender' || kind === 'wrong PIN reset' ? 200 : 401;
  if (response.status !== expected) {
    throw new Error(
      `${server.base}: ${who.username}'s sign-in (${kind}) answered ${response.status}, not ${expected}: ${text}`,
    );
  }
  return elapsed;
}

function figures(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
  return `median ${at(0.5).toFixed(0).padStart(5)} ms   p95 ${at(0.95).toFixed(0).padStart(5)} ms`;
}

const baselineRoot = await checkOutBaseline(BASELINE_REF);
const servers = await Promise.all([start(baselineRoot), start(ROOT)]);
const [baseline, current] = servers.map(({ server }) => server);
try {
  const scenarios: { name: string; kind: Who; parallel: number }[] = [
    { name: 'offender, one at a time', kind: 'offender', parallel: 1 },
    { name: 'offender, four at once', kind: 'offender', parallel: 4 },
    // A refusal costs the same whether the DOC number exists or not (a wrong PIN against an unknown number).
    { name: 'a wrong PIN for a known DOC number', kind: 'wrong PIN', parallel: 1 },
    { name: 'an unknown DOC number', kind: 'unknown', parallel: 1 },
  ];
  // Each demo offender signs in once on each server before anything is measured: the first sign-in re-hashes the
  // seeded PIN under the pepper, and two first sign-ins at once can read the hash the other is replacing (one
  // was refused as a wrong PIN here).
  for (const server of [baseline, current]) {
    await signIn(server, 'offender', 251, 0);
    await signIn(server, 'offender', 252, 1);
  }
  console.log(`sign-in: ${SIGN_INS} rounds each, baseline ${BASELINE_REF} against this checkout\n`);
  for (const scenario of scenarios) {
    const samples = { baseline: [] as number[], current: [] as number[] };
    let address = 1;
    for (let round = 0; round < SIGN_INS; round++) {
      for (const [which, server] of [['baseline', baseline], ['current', current]] as const) {
        const times = await Promise.all(
          // Four at once are two each of the two demo offenders: every sign-in counts as a failure until its PIN is
          // checked, so four at once for one account would meet the wait that follows a third failure (429).
          Array.from(
            { length: scenario.parallel },
            (_, i) => signIn(server, scenario.kind, address++ % 250 + 1, i),
          ),
        );
        samples[which].push(...times);
        // Two wrong PINs, then the right one (not counted): two failures cost nothing, and the right PIN starts
        // the count again, so no try meets the wait that follows a third failure.
        if (scenario.kind === 'wrong PIN' && round % 2 === 1) {
          await signIn(server, 'wrong PIN reset', address++ % 250 + 1);
        }
      }
    }
    console.log(scenario.name);
    console.log(`  baseline  ${figures(samples.baseline)}`);
    console.log(`  current   ${figures(samples.current)}`);
  }
} finally {
  await Promise.all([baseline.stop(), current.stop()]);
  await removeBaseline(baselineRoot);
  for (const { dataDir } of servers) await Deno.remove(dataDir, { recursive: true }).catch(() => {});
}
