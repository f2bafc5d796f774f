/**
 * Latency of the list and search endpoints on a department-sized database against the small demo database, in
 * one run (issue 12): p50, p99 and requests/s from a Deno load loop (N workers, each one request at a time over
 * keep-alive connections) through the real server (api/main.ts), as `npm start` runs it. PostgreSQL only.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:latency
 *       seeds a fresh database with seed:scale (SCALE, default 1: about two minutes) and a demo one, drops both
 *   SCALE_DATABASE_URL=postgres://…/lmp_scale SCALE_DATA_DIR=/path PIN_PEPPER=… npm run bench:latency
 *       uses a database seed:scale already filled (with the DATA_DIR and PIN_PEPPER it printed)
 *   BENCH_SECONDS=5 (per endpoint), BENCH_CONNECTIONS=64
 *
 * The whole-list endpoints of the busiest sender (20,000 documents, about 9 MB of JSON) and of the admin's user
 * list (every user, about 26 MB) run with BENCH_BIG_CONNECTIONS (default 4): 64 clients each holding such a
 * response would measure the machine's memory, not the endpoint. The load loop shares the machine's cores with
 * the server, so absolute figures are pessimistic; the small/large ratio on the same run is the point.
 * The JSON endpoints are also run against bench/bare_handler.ts (the same api/db query, nothing else) on the
 * large database: the API's throughput as a fraction of that floor.
 */
import postgres from 'postgres';
import { DEMO_ACCOUNTS } from '../api/cli/demo_seed.ts';
import { connectPostgres } from '../api/db/client.ts';
import { migrate } from '../api/db/migrate.ts';
import { hashPin, loadPinPepper } from '../api/domain/passwords.ts';
import { insert_user } from '../api/db/users.ts';
import { SCALE_ACCOUNTS, SCALE_DEFAULT_PEPPER, scaleCounts, seedScale } from './seed_scale.ts';

const ROOT = new URL('../', import.meta.url).pathname;
const SECONDS = Number(Deno.env.get('BENCH_SECONDS') ?? 5);
const CONNECTIONS = Number(Deno.env.get('BENCH_CONNECTIONS') ?? 64);
const BIG_CONNECTIONS = Number(Deno.env.get('BENCH_BIG_CONNECTIONS') ?? 4);
const SESSION_SECRET = 'bench-latency-session-secret-0123456789';

interface Figures {
  n: number;
  errors: number;
  p50: number;
  p99: number;
  rps: number;
  bytes: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] : NaN;
}

/** `connections` workers request `url` back to back for `seconds`; latencies of every answer. */
async function load(url: string, token: string | undefined, connections: number, seconds: number) {
  const latencies: number[] = [];
  let errors = 0;
  let bytes = 0;
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(Array.from({ length: connections }, async () => {
    while (performance.now() < end) {
      const t0 = performance.now();
      const r = await fetch(url, { headers });
      const body = await r.arrayBuffer();
      latencies.push(performance.now() - t0);
      bytes = body.byteLength;
      if (!r.ok) errors++;
    }
  }));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    n: latencies.length,
    errors,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    rps: latencies.length / elapsed,
    bytes,
  } satisfies Figures;
}

interface Server {
  base: string;
  stop(): Promise<void>;
}

async function startServer(env: Record<string, string>, script = 'api/main.ts'): Promise<Server> {
  const child = new Deno.Command(`${ROOT}node_modules/.bin/deno`, {
    args: ['run', '-A', script],
    cwd: ROOT,
    env: { ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', TRUSTED_PROXIES: '127.0.0.1' },
    stdout: 'piped',
    stderr: 'inherit',
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = '';
  let base = '';
  while (!base) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`server did not start:\n${seen}`);
    seen += value;
    const match = /http:\/\/localhost:(\d+)/.exec(seen);
    if (match) base = `http://127.0.0.1:${match[1]}`;
  }
  const drained = (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })();
  return {
    base,
    async stop() {
      child.kill('SIGTERM');
      await child.status;
      await drained.catch(() => {});
    },
  };
}

/** `from`: the client address to send as X-Forwarded-For (the server trusts 127.0.0.1 as its proxy). */
async function signIn(
  base: string,
  username: string,
  password: string,
  from = '10.250.0.1',
): Promise<string> {
  const r = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
    body: JSON.stringify({ username, password, entity: 'default' }),
  });
  const body = await r.json();
  if (r.status !== 200) throw new Error(`sign-in of ${username}: ${r.status} ${JSON.stringify(body)}`);
  return body.token;
}

interface Target {
  label: string;
  server: Server;
  offender: [string, string];
  attorneys: [string, string, string][];
  admin: [string, string];
  burst: [string, string][];
}

type Row = { endpoint: string; connections: number } & Figures;

/** Every endpoint of one database. */
async function measure(t: Target): Promise<Row[]> {
  const { base } = t.server;
  const rows: Row[] = [];
  const run = async (
    endpoint: string,
    path: string,
    token: string | undefined,
    connections = CONNECTIONS,
  ) => {
    await load(`${base}${path}`, token, Math.min(4, connections), 1); // warm-up
    const f = await load(`${base}${path}`, token, connections, SECONDS);
    rows.push({ endpoint, connections, ...f });
    console.log(
      `  ${t.label.padEnd(6)} ${endpoint.padEnd(34)} c=${String(connections).padStart(2)}  p50 ${
        f.p50.toFixed(1).padStart(7)
      } ms  p99 ${f.p99.toFixed(1).padStart(7)} ms  ${f.rps.toFixed(0).padStart(5)} req/s  ${
        (f.bytes / 1024).toFixed(0).padStart(6)
      } KB${f.errors ? `  ${f.errors} errors` : ''}`,
    );
  };
  const offender = await signIn(base, ...t.offender);
  const admin = await signIn(base, ...t.admin);
  await run('health (baseline)', '/api/health', undefined);
  await run("offender's list", `/api/documents/offender/${t.offender[0]}`, offender);
  for (const [label, username, password] of t.attorneys) {
    const token = await signIn(base, username, password);
    const big = label.includes('busiest');
    await run(
      `attorney's list (${label})`,
      '/api/documents/attorney',
      token,
      big ? BIG_CONNECTIONS : CONNECTIONS,
    );
  }
  await run("admin's user list (all users)", '/api/admin/users', admin, BIG_CONNECTIONS);
  await run('audit log by event type', '/api/admin/audit-logs?eventType=document_deleted', admin);
  const day = new Date(Date.now() - 3 * 365 * 86400_000).toISOString().slice(0, 10);
  const month = new Date(Date.now() - (3 * 365 - 30) * 86400_000).toISOString().slice(0, 10);
  await run('audit log by date range', `/api/admin/audit-logs?startDate=${day}&endDate=${month}`, admin);

  // 50 sign-ins at once (full PBKDF2 each) while 64 clients read the offender's list.
  const listLoad = load(`${base}/api/documents/offender/${t.offender[0]}`, offender, CONNECTIONS, SECONDS);
  await new Promise((r) => setTimeout(r, 500));
  const burstStarted = performance.now();
  // From 50 addresses: one address may have only a few sign-ins in flight (api/domain/sign_in_throttle.ts).
  const signIns = await Promise.all(t.burst.map(async ([u, p], i) => {
    const t0 = performance.now();
    await signIn(base, u, p, `10.251.0.${i + 1}`);
    return performance.now() - t0;
  }));
  const burstMs = performance.now() - burstStarted;
  const during = await listLoad;
  signIns.sort((a, b) => a - b);
  console.log(
    `  ${t.label.padEnd(6)} sign-in burst of ${t.burst.length}: all done in ${burstMs.toFixed(0)} ms (p50 ${
      percentile(signIns, 0.5).toFixed(0)
    } ms, p99 ${percentile(signIns, 0.99).toFixed(0)} ms); offender's list meanwhile p99 ${
      during.p99.toFixed(1)
    } ms`,
  );
  rows.push({ endpoint: "offender's list during 50 sign-ins", connections: CONNECTIONS, ...during });
  return rows;
}

const serverUrl = Deno.env.get('BENCH_DATABASE_URL');
if (!serverUrl || !/^postgres(ql)?:\/\//.test(serverUrl)) {
  console.error(
    'bench:latency needs BENCH_DATABASE_URL=postgres://user@host:port/database (PostgreSQL only).',
  );
  Deno.exit(1);
}
const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
const created: string[] = [];
async function freshDatabase(prefix: string): Promise<string> {
  const name = `${prefix}_${Date.now()}`;
  await admin.unsafe(`create database "${name}"`);
  created.push(name);
  const url = new URL(serverUrl!);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Fifty more offenders in the demo database (400001…400050, the seed's PIN), for the sign-in burst: fifty
 * sign-ins of one account at once are not what a facility sees.
 */
async function addBurstOffenders(url: string, pinPepper: Uint8Array): Promise<void> {
  const db = connectPostgres(url, { max: 1 });
  try {
    const passwordHash = await hashPin(SCALE_ACCOUNTS.offenderPin, { pepper: pinPepper });
    const [entity] = await db.sql<{ id: string }[]>`select id from entities where slug = 'default'`;
    for (let i = 1; i <= 50; i++) {
      await insert_user(db.sql, {
        entityId: entity.id,
        role: 'offender',
        docNumber: String(400000 + i),
        firstName: 'Burst',
        lastName: `Offender ${i}`,
        passwordHash,
      });
    }
  } finally {
    await db.close();
  }
}

const pepper = Deno.env.get('PIN_PEPPER') || SCALE_DEFAULT_PEPPER;
const servers: Server[] = [];
const tempDirs: string[] = [];
try {
  // The small demo database, as a fresh deployment has it.
  const smallDir = await Deno.makeTempDir({ prefix: 'lmp-latency-small-' });
  tempDirs.push(smallDir);
  const smallUrl = await freshDatabase('lmp_latency_small');
  const small = await startServer({
    DATABASE_URL: smallUrl,
    DATA_DIR: smallDir,
    DEMO_SEED: '1',
    SESSION_SECRET,
    PIN_PEPPER: pepper,
  });
  servers.push(small);
  await addBurstOffenders(smallUrl, await loadPinPepper(pepper, smallDir));

  // The department-sized one: given, or seeded now.
  let largeUrl = Deno.env.get('SCALE_DATABASE_URL');
  let largeDir = Deno.env.get('SCALE_DATA_DIR') ?? './data';
  if (!largeUrl) {
    largeUrl = await freshDatabase('lmp_latency_large');
    largeDir = await Deno.makeTempDir({ prefix: 'lmp-latency-large-' });
    tempDirs.push(largeDir);
    const scale = Number(Deno.env.get('SCALE') ?? 1);
    console.log(`Seeding the large database (SCALE=${scale})…`);
    const db = connectPostgres(largeUrl, { max: 1 });
    await migrate(db.sql);
    await seedScale(db, {
      counts: scaleCounts(scale),
      pepper: await loadPinPepper(pepper, largeDir),
      blobStore: 'fs',
      dataDir: largeDir,
      log: (line) => console.log(line),
    });
    await db.close();
  }
  const large = await startServer({
    DATABASE_URL: largeUrl,
    DATA_DIR: largeDir,
    SESSION_SECRET,
    PIN_PEPPER: pepper,
  });
  servers.push(large);

  const demo = (role: string) => DEMO_ACCOUNTS.find((a) => a.role === role)!;
  const staff = SCALE_ACCOUNTS.staffPassword;
  const offenders = Array.from({ length: 51 }, (_, i) => String(300001 + i)).filter((d) =>
    Number(d) % 50 !== 0
  );
  console.log(
    `Latency, ${SECONDS} s per endpoint, ${CONNECTIONS} connections (${BIG_CONNECTIONS} for the whole-list ones):`,
  );
  const smallRows = await measure({
    label: 'small',
    server: small,
    offender: [demo('offender').username, demo('offender').secret],
    attorneys: [['demo attorney', demo('attorney').username, demo('attorney').secret]],
    admin: [demo('admin').username, demo('admin').secret],
    burst: Array.from({ length: 50 }, (_, i) => [String(400001 + i), SCALE_ACCOUNTS.offenderPin]),
  });
  const largeRows = await measure({
    label: 'large',
    server: large,
    offender: [SCALE_ACCOUNTS.firstOffender, SCALE_ACCOUNTS.offenderPin],
    attorneys: [
      ['typical, ~500 documents', 'attorney1@scale.test', staff],
      ['busiest sender, 20,000', SCALE_ACCOUNTS.busiestSender, staff],
    ],
    admin: [SCALE_ACCOUNTS.admin, staff],
    burst: offenders.slice(0, 50).map((d) => [d, SCALE_ACCOUNTS.offenderPin]),
  });

  // The floor: the same queries behind a bare Deno.serve + postgres.js (bench/bare_handler.ts).
  const bare = await startServer({ DATABASE_URL: largeUrl }, 'bench/bare_handler.ts');
  servers.push(bare);
  const largeDb = connectPostgres(largeUrl, { max: 1 });
  const [offenderRow] = await largeDb.sql<{ id: string }[]>`
    select id from users where doc_number = ${SCALE_ACCOUNTS.firstOffender}`;
  await largeDb.close();
  console.log(
    'The API against a bare Deno.serve + postgres.js handler running the same query (large database):',
  );
  for (
    const [endpoint, path] of [
      ["offender's list", `/offender-list?id=${offenderRow.id}`],
      ['audit log by event type', '/audit-by-type?type=document_deleted'],
    ]
  ) {
    await load(`${bare.base}${path}`, undefined, 4, 1);
    const f = await load(`${bare.base}${path}`, undefined, CONNECTIONS, SECONDS);
    const api = largeRows.find((r) => r.endpoint === endpoint)!;
    console.log(
      `  bare   ${endpoint.padEnd(34)} c=${CONNECTIONS}  p50 ${f.p50.toFixed(1).padStart(7)} ms  p99 ${
        f.p99.toFixed(1).padStart(7)
      } ms  ${f.rps.toFixed(0).padStart(5)} req/s;  API/bare throughput ${(api.rps / f.rps).toFixed(2)}×`,
    );
  }
  console.log('p99 large / small (same endpoint):');
  for (const l of largeRows) {
    const s = smallRows.find((r) => r.endpoint === l.endpoint) ??
      (l.endpoint.startsWith("attorney's list")
        ? smallRows.find((r) => r.endpoint.startsWith("attorney's"))
        : undefined);
    if (s) console.log(`  ${l.endpoint.padEnd(40)} ${(l.p99 / s.p99).toFixed(2)}×`);
  }
} finally {
  for (const s of servers) await s.stop();
  for (const name of created) await admin.unsafe(`drop database if exists "${name}" with (force)`);
  await admin.end();
  for (const d of tempDirs) await Deno.remove(d, { recursive: true }).catch(() => {});
}
