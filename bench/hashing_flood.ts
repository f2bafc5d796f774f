/**
 * A person's sign-in while strangers flood the routes that hash passwords: this checkout against a baseline
 * checkout, in one run. The legitimate user is the demo offender (`POST /api/auth/login`, DOC 100001 and PIN),
 * signing in one at a time from the facility's TABLETS tablets, first on a quiet server (so each tablet's address
 * has opened a session: a returning person's, api/domain/known_client.ts) and then while clients send, as fast as
 * the server answers:
 *
 *  - `reset` (FLOOD_CLIENTS, 8): `POST /api/auth/reset-password` with made-up codes and a strong new password, each request from
 *    another address (an attacker with many addresses, so the per-address budget alone is not what is measured);
 *  - `sign-in` (SIGN_IN_FLOOD_CLIENTS, 24): wrong passwords for unknown e-mail addresses, each from another address (every one costs a
 *    derivation, so this is what the hashing gate alone must hold); run twice, the person signing in from the
 *    tablets, then from addresses never seen (a first sign-in from a new network).
 *
 * The servers (api/main.ts on the embedded database, as `npm start` runs it) are measured one after the other,
 * each alone on the machine, so one's flood does not slow the other. Prints the median, p95 and worst of the
 * person's sign-ins, how many of them were refused, and what the flood got.
 *
 *   npm run bench:hashing-flood                  baseline: BASELINE_REF (default: one line at the gate), beside this one
 *   BASELINE_REF=<commit> FLOOD_CLIENTS=8 SIGN_IN_FLOOD_CLIENTS=24 FLOOD_SECONDS=10 npm run bench:hashing-flood
 */
import { type BenchServer, startBenchServer } from './support/server.ts';
import { checkOutBaseline, removeBaseline } from './support/baseline.ts';

const ROOT = new URL('../', import.meta.url).pathname;
/**
 * The last commit whose hashing gate had one line for everyone (no priority line for returning people). Earlier:
 * 0b7894d, whose set-password form hashed before it looked the code up, with no bound on the queue.
 */
const BASELINE_REF = Deno.env.get('BASELINE_REF') ?? '7f9fa04';
/** The set-password flood's clients: as many as the attack that was measured against it. */
const FLOOD_CLIENTS = Number(Deno.env.get('FLOOD_CLIENTS') ?? 8);
/** The sign-in flood's clients: more than a small server's hashing line (9 on 2 cores), so the gate must refuse. */
const SIGN_IN_FLOOD_CLIENTS = Number(Deno.env.get('SIGN_IN_FLOOD_CLIENTS') ?? 24);
const FLOOD_SECONDS = Number(Deno.env.get('FLOOD_SECONDS') ?? 10);
const QUIET_SIGN_INS = Number(Deno.env.get('QUIET_SIGN_INS') ?? 10);
/** The facility's tablets the person signs in from: each one signs in during the quiet part. */
const TABLETS = 4;
const OFFENDER = { username: '100001', password: '246810' };

async function start(root: string): Promise<{ server: BenchServer; dataDir: string }> {
  const dataDir = await Deno.makeTempDir({ prefix: 'lmp-bench-flood-' });
  const server = await startBenchServer(
    { DATA_DIR: dataDir, LOG_LEVEL: 'info', PWA_DIST: `${ROOT}pwa/dist`, TRUSTED_PROXIES: '127.0.0.1' },
    { root, ready: /Demo accounts:[\s\S]*135790/ },
  );
  return { server, dataDir };
}

let addressCount = 0;
/** A new client address each time (10.40.0.0/14: outside the demo facility's range). */
function nextAddress(): string {
  const n = addressCount++;
  return `10.${40 + ((n >> 16) & 3)}.${(n >> 8) & 255}.${n & 255}`;
}

async function post(server: BenchServer, path: string, body: unknown, from: string): Promise<number> {
  const response = await fetch(`${server.base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
    body: JSON.stringify(body),
  });
  await response.body?.cancel();
  return response.status;
}

let newcomers = 0;
/** An address no one has signed in from (10.9.128.0/17). */
function newcomerAddress(): string {
  const n = newcomers++;
  return `10.9.${128 + ((n >> 8) & 127)}.${n & 255}`;
}

/**
 * The person's sign-in from one of the facility's tablets (`tablet`, 10.9.0.1–TABLETS), or from an address never
 * seen before (`tablet` undefined): its time in ms and its status.
 */
async function personSignsIn(server: BenchServer, tablet?: number): Promise<{ ms: number; status: number }> {
  const from = tablet === undefined ? newcomerAddress() : `10.9.0.${tablet % TABLETS + 1}`;
  const started = performance.now();
  const status = await post(server, '/api/auth/login', OFFENDER, from);
  return { ms: performance.now() - started, status };
}

type Flood = 'reset' | 'sign-in';

/** One flooding client: requests back to back until `until`; answers the statuses it got. */
async function floodClient(server: BenchServer, kind: Flood, until: number): Promise<number[]> {
  const statuses: number[] = [];
  while (performance.now() < until) {
    const status = kind === 'reset'
      ? await post(server, '/api/auth/reset-password', {
        token: crypto.randomUUID(),
        newPassword: 'Copper-Meadow-Violin-41',
      }, nextAddress())
      : await post(server, '/api/auth/login', {
        username: `nobody-${crypto.randomUUID()}@example.test`,
        password: 'Copper-Meadow-Violin-41',
      }, nextAddress());
    statuses.push(status);
  }
  return statuses;
}

function figures(samples: number[]): string {
  if (samples.length === 0) return 'no sample';
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
  const ms = (v: number) => `${v.toFixed(0).padStart(5)} ms`;
  return `median ${ms(at(0.5))}   p95 ${ms(at(0.95))}   worst ${ms(sorted[sorted.length - 1])}`;
}

function tally(statuses: number[]): string {
  const counts = new Map<number, number>();
  for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts].sort(([a], [b]) => a - b).map(([s, n]) => `${n}×${s}`).join(', ');
}

function report(label: string, person: { ms: number; status: number }[]): void {
  const accepted = person.filter((p) => p.status === 200).map((p) => p.ms);
  console.log(
    `  ${label.padEnd(34)} ${figures(accepted)}   (${accepted.length} of ${person.length}: ${
      tally(person.map((p) => p.status))
    })`,
  );
}

/**
 * The person's sign-ins (one at a time) on a quiet server, then under each flood: from the tablets, and under the
 * sign-in flood once more from addresses never seen.
 */
async function measure(server: BenchServer, label: string): Promise<void> {
  let tablet = 0;
  const quiet: { ms: number; status: number }[] = [];
  for (let i = 0; i < Math.max(QUIET_SIGN_INS, TABLETS); i++) {
    quiet.push(await personSignsIn(server, tablet++));
  }
  console.log(`${label}`);
  report('quiet, from a tablet', quiet);
  const phases = [['reset', 'tablet'], ['sign-in', 'tablet'], ['sign-in', 'new address']] as const;
  for (const [kind, from] of phases) {
    const until = performance.now() + FLOOD_SECONDS * 1000;
    const clients = kind === 'reset' ? FLOOD_CLIENTS : SIGN_IN_FLOOD_CLIENTS;
    const flood = Promise.all(Array.from({ length: clients }, () => floodClient(server, kind, until)));
    const person: { ms: number; status: number }[] = [];
    while (performance.now() < until) {
      person.push(await personSignsIn(server, from === 'tablet' ? tablet++ : undefined));
    }
    const floodStatuses = (await flood).flat();
    report(`${kind} flood, from a ${from}`, person);
    console.log(`  ${'  the flood got'.padEnd(34)} ${tally(floodStatuses)}`);
  }
}

const baselineRoot = await checkOutBaseline(BASELINE_REF);
try {
  console.log(
    `hashing flood: ${FLOOD_SECONDS} s each, ${navigator.hardwareConcurrency} cores; ` +
      `baseline ${BASELINE_REF}, then this checkout\n`,
  );
  for (const [label, root] of [['baseline', baselineRoot], ['current', ROOT]] as const) {
    const { server, dataDir } = await start(root);
    try {
      await measure(server, label);
    } finally {
      await server.stop();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  }
} finally {
  await removeBaseline(baselineRoot);
}
