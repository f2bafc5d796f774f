/**
 * Latency of the list and search endpoints on a department-sized database against the small demo database, in
 * one run: p50, p99 and requests/s at 64 connections through the real server (api/main.ts), as
 * `npm start` runs it. PostgreSQL only. The load comes from wrk when it is installed (Debian's `wrk`), else
 * from a Deno loop (bench/support/load.ts; BENCH_LOAD=deno forces it).
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:latency
 *       seeds a fresh database with seed:scale (SCALE, default 1: about two minutes) and a demo one, drops both
 *   SCALE_DATABASE_URL=postgres://…/lmp_scale SCALE_DATA_DIR=/path PIN_PEPPER=… npm run bench:latency
 *       uses a database seed:scale already filled (with the DATA_DIR and PIN_PEPPER it printed)
 *   BENCH_SECONDS=5 (per endpoint), BENCH_CONNECTIONS=64, BENCH_ROUNDS=3 (API/bare pairs)
 *
 * What it prints:
 *   1. every endpoint on the small and the large database, and the large/small p99 ratio;
 *   2. the offender's list while 50 offenders sign in at once (two full PBKDF2 derivations each), from 50 addresses;
 *   3. the API against bench/bare_handler.ts (the same api/db functions, nothing else) on the large database,
 *      in API/bare pairs run back to back (BENCH_ROUNDS), so each ratio compares two runs under the same load
 *      of this shared machine; the bare handler runs with the pool size that served it fastest;
 *   4. EXPLAIN (ANALYZE, BUFFERS, TIMING OFF) of each endpoint's SQL on the large database, taken from what api/db really
 *      sends (bench/support/explain.ts): one line each, the whole plan for any slower than 5 ms in the database
 *      or with a sequential scan of a big table.
 *
 * The attorney's list is measured as the PWA asks for it: the first page of 10, sorted by name
 * (ATTORNEY_PAGE_PATH), for the demo attorney, a typical one (~500 documents) and the busiest sender (20,000). The
 * busiest sender's whole list (the answer without paging parameters, which old clients still get: about 9 MB of
 * JSON) and the admin's user list (every user, about 25 MB) run with BENCH_BIG_CONNECTIONS (default 4): 64 clients
 * each holding such a response would measure the machine's memory, not the endpoint.
 */
import postgres from 'postgres';
import { type BenchServer, startBenchServer } from './support/server.ts';
import { DEMO_ACCOUNTS } from '../api/cli/demo_seed.ts';
import { list_audit_event_types, list_audit_logs } from '../api/db/audit_search.ts';
import { connectPostgres, type Sql } from '../api/db/client.ts';
import {
  count_sender_documents,
  list_documents_for_attorney,
  list_documents_for_recipient,
  list_sender_documents_page,
} from '../api/db/documents.ts';
import { find_entity_whitelist } from '../api/db/ip_whitelist.ts';
import { migrate } from '../api/db/migrate.ts';
import { find_active_session } from '../api/db/sessions.ts';
import {
  count_users_for_admin,
  find_login_candidate,
  insert_user,
  list_users_for_admin,
  list_users_page_for_admin,
} from '../api/db/users.ts';
import { hashPin, loadPinPepper } from '../api/domain/passwords.ts';
import { explainLast } from './support/explain.ts';
import { type Figures, load, loadGenerator } from './support/load.ts';
import { percentiles } from './support/statistics.ts';
import { SCALE_ACCOUNTS, SCALE_DEFAULT_PEPPER, scaleCounts, seedScale } from './seed_scale.ts';

const SECONDS = Number(Deno.env.get('BENCH_SECONDS') ?? 5);
const CONNECTIONS = Number(Deno.env.get('BENCH_CONNECTIONS') ?? 64);
const BIG_CONNECTIONS = Number(Deno.env.get('BENCH_BIG_CONNECTIONS') ?? 4);
const ROUNDS = Number(Deno.env.get('BENCH_ROUNDS') ?? 3);
const SESSION_SECRET = 'bench-latency-session-secret-0123456789';
/** seed:scale's names come from a list of common ones; 366709 is one offender's DOC number there. */
const SEARCH_COMMON = 'thompson';
const SEARCH_RARE = '366709';
/** The attorney's list as the PWA first asks for it (pwa/src/mail/useSenderPage.ts): page 1 of 10 by name. */
const ATTORNEY_PAGE_PATH = '/api/documents/attorney?sort=name&order=asc&pageSize=10';

const ms = (v: number) => `${v.toFixed(1).padStart(7)} ms`;
const loadNow = () => Deno.readTextFileSync('/proc/loadavg').split(' ')[0];

function line(label: string, endpoint: string, connections: number, f: Figures): string {
  return `  ${label.padEnd(6)} ${endpoint.padEnd(44)} c=${String(connections).padStart(2)}  p50 ${
    ms(f.p50)
  }  p99 ${ms(f.p99)}  ${f.rps.toFixed(0).padStart(5)} req/s  ${
    (f.bytes / 1024).toFixed(0).padStart(6)
  } KB  load ${loadNow()}${f.errors ? `  ${f.errors} ERRORS` : ''}`;
}

/** The API (or the bare handler) with the bench's own log level and proxy trust. */
function startServer(env: Record<string, string>, script = 'api/main.ts'): Promise<BenchServer> {
  return startBenchServer({ ...env, LOG_LEVEL: 'info', TRUSTED_PROXIES: '127.0.0.1' }, { script });
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
  server: BenchServer;
  offender: [string, string];
  attorneys: [string, string, string][];
  admin: [string, string];
  burst: [string, string][];
}

type Row = { endpoint: string; connections: number; path: string; token?: string } & Figures;

/** The audit log's date-range filter: a month three years back (index range scan, not the newest rows). */
function auditRange() {
  const start = new Date(Date.now() - 3 * 365 * 86400_000).toISOString().slice(0, 10);
  const end = new Date(Date.now() - (3 * 365 - 30) * 86400_000).toISOString().slice(0, 10);
  const before = new Date(Date.parse(end) + 86400_000).toISOString().slice(0, 10);
  return { start, end, before };
}

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
    const generator = connections === BIG_CONNECTIONS ? 'deno' as const : undefined;
    await load(`${base}${path}`, { token, connections: Math.min(4, connections), seconds: 1, generator }); // warm-up
    const f = await load(`${base}${path}`, { token, connections, seconds: SECONDS, generator });
    rows.push({ endpoint, connections, path, token, ...f });
    console.log(line(t.label, endpoint, connections, f));
  };
  const offender = await signIn(base, ...t.offender);
  const admin = await signIn(base, ...t.admin);
  await run('health (baseline)', '/api/health', undefined);
  await run("offender's list", `/api/documents/offender/${t.offender[0]}`, offender);
  for (const [label, username, password] of t.attorneys) {
    const token = await signIn(base, username, password);
    await run(`attorney's list (${label})`, ATTORNEY_PAGE_PATH, token);
    if (label.includes('busiest')) {
      // One attorney opening their list on a quiet server: the wait a person sees, without 63 others queued.
      await run("attorney's list (busiest, one client)", ATTORNEY_PAGE_PATH, token, 1);
      // The unpaged answer old clients still get, for comparison: the whole list.
      await run(
        "attorney's whole list (busiest, unpaged)",
        '/api/documents/attorney',
        token,
        BIG_CONNECTIONS,
      );
    }
  }
  await run("admin's user list (all users)", '/api/admin/users', admin, BIG_CONNECTIONS);
  // The server-side search (GET /api/admin/users?q=…&limit=50): a name many users share (the first page fills
  // at once) and one DOC number (the whole index is walked to find it: the worst case).
  await run("admin's user search (common name)", `/api/admin/users?q=${SEARCH_COMMON}&limit=50`, admin);
  await run("admin's user search (one DOC number)", `/api/admin/users?q=${SEARCH_RARE}&limit=50`, admin);
  await run('audit log by event type', '/api/admin/audit-logs?eventType=document_deleted', admin);
  const { start, end } = auditRange();
  await run('audit log by date range', `/api/admin/audit-logs?startDate=${start}&endDate=${end}`, admin);

  // 50 sign-ins at once (full PBKDF2 each) while 64 clients read the offender's list, from a second before the
  // burst until its last sign-in has answered.
  const listPath = `/api/documents/offender/${t.offender[0]}`;
  let burstDone!: () => void;
  const burstOver = new Promise<void>((resolve) => burstDone = resolve);
  const listLoad = load(`${base}${listPath}`, {
    token: offender,
    connections: CONNECTIONS,
    seconds: 600,
    until: burstOver,
  });
  await new Promise((r) => setTimeout(r, 1000));
  const burstStarted = performance.now();
  // From 50 addresses: one address may have only a few sign-ins in flight (api/domain/sign_in_throttle.ts).
  const signIns = await Promise.all(t.burst.map(async ([u, p], i) => {
    const t0 = performance.now();
    await signIn(base, u, p, `10.251.0.${i + 1}`);
    return performance.now() - t0;
  })).finally(() => burstDone());
  const burstMs = performance.now() - burstStarted;
  const during = await listLoad;
  const s = percentiles(signIns);
  console.log(
    `  ${t.label.padEnd(6)} sign-in burst of ${t.burst.length}: all done in ${burstMs.toFixed(0)} ms (p50 ${
      s.p50.toFixed(0)
    } ms, p99 ${s.p99.toFixed(0)} ms); offender's list meanwhile (c=${CONNECTIONS}): p50 ${
      during.p50.toFixed(1)
    } ms, p99 ${during.p99.toFixed(1)} ms, ${during.rps.toFixed(0)} req/s${
      during.errors ? `, ${during.errors} ERRORS` : ''
    }`,
  );
  rows.push({
    endpoint: "offender's list during 50 sign-ins",
    connections: CONNECTIONS,
    path: listPath,
    ...during,
  });
  return rows;
}

/** One line of EXPLAIN per query, the whole plan when it is slow or scans a big table sequentially. */
async function explainAll(url: string, ids: { offender: string; attorney: string; busiest: string }) {
  const { start, before } = auditRange();
  const [session] = await withSql(
    url,
    (sql) =>
      sql<{ id: string }[]>`select s.id from sessions s where s.user_id = ${ids.offender}
      and s.revoked_at is null order by s.created_at desc limit 1`,
  );
  const [offender] = await withSql(
    url,
    (sql) => sql<{ entity_id: string }[]>`select entity_id from users where id = ${ids.offender}`,
  );
  // The department administrator's view of the log: their entity's rows and the unattributed ones.
  const scope = { entityId: offender.entity_id, unattributed: true };
  const queries: [string, (sql: Sql) => Promise<unknown>][] = [
    ['session check (find_active_session)', (sql) => find_active_session(sql, session.id)],
    ['whitelist (sign-in only now)', (sql) => find_entity_whitelist(sql, offender.entity_id)],
    [
      'sign-in lookup (find_login_candidate)',
      (sql) => find_login_candidate(sql, offender.entity_id, '300002'),
    ],
    ["offender's list", (sql) => list_documents_for_recipient(sql, ids.offender)],
    ...[['typical', ids.attorney], ['busiest sender', ids.busiest]].flatMap(([label, id]) => {
      // The two statements of the PWA's first page (api/domain/documents.ts listSenderPage): the count, the rows.
      const list = { sort: 'name', order: 'asc' } as const;
      const scope = { attorneyId: id };
      return [
        [`attorney's page 1, count (${label})`, (sql: Sql) => count_sender_documents(sql, scope, list)],
        [
          `attorney's page 1, rows (${label})`,
          (sql: Sql) => list_sender_documents_page(sql, scope, { ...list, limit: 10 }),
        ],
        [
          `attorney's page 1, search '3' (${label})`,
          (sql: Sql) => list_sender_documents_page(sql, scope, { ...list, search: '3', limit: 10 }),
        ],
        [
          `attorney's page 1, by DOC# (${label})`,
          (sql: Sql) =>
            list_sender_documents_page(sql, scope, { ...list, sort: 'offenderdocnumber', limit: 10 }),
        ],
      ] as [string, (sql: Sql) => Promise<unknown>][];
    }),
    ["attorney's whole list (busiest, unpaged)", (sql) => list_documents_for_attorney(sql, ids.busiest)],
    ["admin's user list (all users)", (sql) => list_users_for_admin(sql, offender.entity_id)],
    [
      "admin's user search (common name)",
      (sql) =>
        list_users_page_for_admin(sql, { entityId: offender.entity_id, search: SEARCH_COMMON, limit: 51 }),
    ],
    [
      "admin's user search (one DOC number)",
      (sql) =>
        list_users_page_for_admin(sql, { entityId: offender.entity_id, search: SEARCH_RARE, limit: 51 }),
    ],
    [
      "admin's user search count (common name)",
      (sql) => count_users_for_admin(sql, { entityId: offender.entity_id, search: SEARCH_COMMON }),
    ],
    [
      'audit log by event type',
      (sql) => list_audit_logs(sql, { scope, eventType: 'document_deleted' }, { limit: 51 }),
    ],
    [
      'audit log by date range',
      (sql) =>
        list_audit_logs(sql, { scope, from: new Date(start), before: new Date(before) }, { limit: 51 }),
    ],
    ['audit event types (every audit page)', (sql) => list_audit_event_types(sql)],
  ];
  const BIG = /on (users|documents|audit_logs|sessions)\b/;
  console.log("EXPLAIN (ANALYZE) of each endpoint's SQL on the large database (time in the database):");
  for (const [label, call] of queries) {
    const plan = await explainLast(url, call);
    const bigSeq = plan.seqScans.filter((s) => BIG.test(s));
    const indexes = [
      ...new Set(plan.scans.filter((s) => !s.includes('Seq Scan')).map((s) => s.replace(/ on .*/, ''))),
    ];
    console.log(
      `  ${label.padEnd(40)} ${plan.executionMs.toFixed(2).padStart(8)} ms  ${
        bigSeq.length ? `SEQ SCAN: ${bigSeq.join('; ')}` : `${indexes.length} index scans`
      }`,
    );
    if (plan.executionMs > 5 || bigSeq.length) {
      for (const l of plan.lines) if (!/^\s*Buffers:/.test(l)) console.log(`      ${l}`);
    }
  }
}

async function withSql<T>(url: string, f: (sql: Sql) => Promise<T>): Promise<T> {
  const db = connectPostgres(url, { max: 1 });
  try {
    return await f(db.sql);
  } finally {
    await db.close();
  }
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
const servers: BenchServer[] = [];
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
    `Latency, ${SECONDS} s per endpoint, ${CONNECTIONS} connections (${BIG_CONNECTIONS} for the whole-list ones), ` +
      `load from ${await loadGenerator()}, ${navigator.hardwareConcurrency} cores, load average ${loadNow()} at the start:`,
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

  // The floor: each endpoint's database work behind a bare Deno.serve + postgres.js (bench/bare_handler.ts).
  const ids = await withSql(largeUrl, async (sql) => {
    const [o] = await sql<
      { id: string }[]
    >`select id from users where doc_number = ${SCALE_ACCOUNTS.firstOffender}`;
    const [a] = await sql<{ id: string }[]>`select id from users where email = 'attorney1@scale.test'`;
    const [b] = await sql<
      { id: string }[]
    >`select id from users where email = ${SCALE_ACCOUNTS.busiestSender}`;
    return { offender: o.id, attorney: a.id, busiest: b.id };
  });
  console.log("The bare handler's pool size, on the offender's list (the fastest is kept):");
  let bare: BenchServer | undefined;
  let bestRps = 0;
  for (const pool of [4, 10, 20]) {
    const candidate = await startServer(
      { DATABASE_URL: largeUrl, BARE_POOL: String(pool) },
      'bench/bare_handler.ts',
    );
    const url = `${candidate.base}/offender-list?id=${ids.offender}`;
    await load(url, { connections: 4, seconds: 1 });
    const f = await load(url, { connections: CONNECTIONS, seconds: SECONDS });
    console.log(line('bare', `offender's list, pool ${pool}`, CONNECTIONS, f));
    if (f.rps > bestRps) {
      await bare?.stop();
      bare = candidate;
      bestRps = f.rps;
    } else await candidate.stop();
  }
  servers.push(bare!);
  const { start, before } = auditRange();
  const pairs: [string, string][] = [
    ["offender's list", `/offender-list?id=${ids.offender}`],
    ["attorney's list (typical, ~500 documents)", `/attorney-page?id=${ids.attorney}`],
    ["attorney's list (busiest sender, 20,000)", `/attorney-page?id=${ids.busiest}`],
    ["attorney's whole list (busiest, unpaged)", `/attorney-list?id=${ids.busiest}`],
    ["admin's user list (all users)", '/users'],
    ["admin's user search (common name)", `/users?q=${SEARCH_COMMON}&limit=50`],
    ["admin's user search (one DOC number)", `/users?q=${SEARCH_RARE}&limit=50`],
    ['audit log by event type', '/audit?type=document_deleted'],
    ['audit log by date range', `/audit?from=${start}&before=${before}`],
  ];
  console.log(`The API against the bare handler (large database), ${ROUNDS} API/bare pairs back to back:`);
  const ratios: [string, number[]][] = [];
  for (const [endpoint, barePath] of pairs) {
    const api = largeRows.find((r) => r.endpoint === endpoint)!;
    const each: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const generator = api.connections === BIG_CONNECTIONS ? 'deno' as const : undefined;
      const a = await load(`${large.base}${api.path}`, {
        token: api.token,
        connections: api.connections,
        seconds: SECONDS,
        generator,
      });
      console.log(line('API', endpoint, api.connections, a));
      const b = await load(`${bare!.base}${barePath}`, {
        connections: api.connections,
        seconds: SECONDS,
        generator,
      });
      console.log(line('bare', endpoint, api.connections, b));
      each.push(a.rps / b.rps);
    }
    ratios.push([endpoint, each]);
  }
  console.log('API/bare throughput (each pair; the aim is at least 0.75):');
  for (const [endpoint, each] of ratios) {
    console.log(`  ${endpoint.padEnd(44)} ${each.map((r) => `${r.toFixed(2)}×`).join('  ')}`);
  }
  await explainAll(largeUrl, ids);
  console.log('p99 large / small (same endpoint):');
  for (const l of largeRows) {
    const s = smallRows.find((r) => r.endpoint === l.endpoint) ??
      (l.endpoint.startsWith("attorney's list") && l.connections === CONNECTIONS
        ? smallRows.find((r) => r.endpoint.startsWith("attorney's list"))
        : undefined);
    if (s) console.log(`  ${l.endpoint.padEnd(40)} ${(l.p99 / s.p99).toFixed(2)}×`);
  }
} finally {
  for (const s of servers) await s.stop();
  for (const name of created) await admin.unsafe(`drop database if exists "${name}" with (force)`);
  await admin.end();
  for (const d of tempDirs) await Deno.remove(d, { recursive: true }).catch(() => {});
}
