/**
 * Exports the audit log as CSV through the real server and prints the time, the row count and the API's
 * memory, for 10,000 and for 100,000 rows: peak RSS must stay flat as the row count grows tenfold, because
 * the export streams keyset batches instead of building the file.
 *
 *   npm run bench:audit-export                       # embedded database (the default deployment)
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:audit-export
 *                                                    # a fresh database on that PostgreSQL server
 *
 *   BENCH_ROWS=1000000 npm run bench:audit-export     # a bigger large export (default 100,000)
 *   BENCH_V8_FLAGS=--max-old-space-size=40 …          # cap the API's JS heap: shows the live set is small
 *   SCALE_DATABASE_URL=postgres://…/lmp_scale SCALE_DATA_DIR=… PIN_PEPPER=… npm run bench:audit-export
 *                                                    # the 10,000,000 audit rows of a database seed:scale filled
 *                                                    #: a two-day range (about 11,000 rows), then the
 *                                                    # whole log; nothing is inserted or dropped
 *
 * The API process's VmRSS is sampled from /proc every 10 ms during each export; VmHWM is the kernel's
 * high-water mark for the whole run. With the embedded database the figures include PGlite (it runs inside
 * the API process); with PostgreSQL they are the API alone. V8 grows its heap lazily under a high
 * allocation rate, so the first big export raises RSS by some tens of MB; it then plateaus (a second export,
 * or ten times the rows, does not raise it further), which is what "constant memory" means here.
 */
import postgres from 'postgres';
import { loadConfig } from '../api/config.ts';
import { openDatabase } from '../api/db/open.ts';
import { startBenchServer } from './support/server.ts';
import { SCALE_ACCOUNTS, SCALE_DEFAULT_PEPPER } from './seed_scale.ts';

const ROOT = new URL('../', import.meta.url).pathname;
const TOTAL = Number(Deno.env.get('BENCH_ROWS') ?? 100_000);
const SMALL = 10_000;

const serverUrl = Deno.env.get('BENCH_DATABASE_URL');
const scaleUrl = Deno.env.get('SCALE_DATABASE_URL');
const v8Flags = Deno.env.get('BENCH_V8_FLAGS');
const dataDir = scaleUrl
  ? Deno.env.get('SCALE_DATA_DIR') ?? './data'
  : await Deno.makeTempDir({ prefix: 'lmp-bench-' });
let databaseUrl: string | undefined = scaleUrl;
let dropDatabase = async () => {};
if (serverUrl && !scaleUrl) {
  const name = `lmp_bench_${Date.now()}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  databaseUrl = url.toString();
  dropDatabase = async () => {
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
  };
}
const env = {
  DATA_DIR: dataDir,
  LOG_LEVEL: 'info',
  ...(scaleUrl ? { PIN_PEPPER: Deno.env.get('PIN_PEPPER') || SCALE_DEFAULT_PEPPER } : { DEMO_SEED: '1' }),
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  SESSION_SECRET: 'bench-secret-'.repeat(3),
};

// 1. Schema, demo accounts and the rows, in one statement: SMALL rows of one type, TOTAL of another.
if (scaleUrl) {
  console.log('Exporting the audit log of the seed:scale database (nothing inserted)…');
} else {
  console.log(
    `Preparing ${(TOTAL + SMALL).toLocaleString('en-US')} audit rows (${
      databaseUrl ? 'PostgreSQL' : 'embedded PGlite'
    })…`,
  );
  const { db } = await openDatabase(loadConfig(env));
  const started = performance.now();
  await db.sql`
    insert into audit_logs (created_at, user_id, event_type, resource_type, resource_id, ip_address, event_data)
    select now() - make_interval(secs => n), null,
           case when n <= ${SMALL} then 'bench_small' else 'bench_large' end,
           'document', n::text, '10.1.' || (n % 256) || '.' || (n % 200),
           jsonb_build_object('docNumber', 'A' || n || E'\n"x", y', 'title', 'Motion to compel, exhibit ' || n)
    from generate_series(1, ${TOTAL + SMALL}) n`;
  console.log(`  inserted in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  await db.close();
}

// 2. The real server, as `npm start` runs it.
const server = await startBenchServer(
  { ...env, PWA_DIST: `${ROOT}pwa/dist` },
  { denoArgs: v8Flags ? [`--v8-flags=${v8Flags}`] : [] },
);
const base = server.base;

function memory(field: 'VmRSS' | 'VmHWM'): number {
  const status = Deno.readTextFileSync(`/proc/${server.pid}/status`);
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
}

async function exportCsv(token: string, query: string) {
  let peak = memory('VmRSS');
  const before = peak;
  const sampler = setInterval(() => {
    peak = Math.max(peak, memory('VmRSS'));
  }, 10);
  const started = performance.now();
  const response = await fetch(`${base}/api/admin/audit-logs/export.csv${query}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (!response.ok) throw new Error(`export failed: ${response.status} ${await response.text()}`);
  let bytes = 0;
  let lines = 0;
  // The peak RSS so far at each million rows: flat memory shows as a curve that stops rising.
  const milestones: string[] = [];
  for await (const chunk of response.body!) {
    bytes += chunk.length;
    // Rows end with CRLF; a newline inside a quoted cell is a bare LF, so CR counts rows exactly.
    for (const b of chunk) {
      if (b !== 13) continue;
      lines++;
      if (lines % 1_000_000 === 0) milestones.push(`${lines / 1_000_000}M: ${peak.toFixed(0)}`);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  if (milestones.length) console.log(`  peak RSS (MB) by rows exported: ${milestones.join(', ')}`);
  return { rows: lines - 1, bytes, seconds, before, peak };
}

try {
  const [username, password] = scaleUrl
    ? [SCALE_ACCOUNTS.admin, SCALE_ACCOUNTS.staffPassword]
    : ['admin@demo.test', 'Demo-Admin-2026!'];
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password, entity: 'default' }),
  });
  const { token } = await login.json();
  const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86400_000).toISOString().slice(0, 10);
  // seed:scale spreads its rows over seven years: two days hold about 11,000.
  const smallQuery = scaleUrl ? `?startDate=${day(1000)}&endDate=${day(999)}` : '?eventType=bench_small';
  await exportCsv(token, smallQuery); // warm-up: JIT and caches, not measured
  const large = `${TOTAL.toLocaleString('en-US')} rows`;
  const results = scaleUrl
    ? [
      ['two days', await exportCsv(token, smallQuery)],
      ['whole log', await exportCsv(token, '')],
    ] as const
    : [
      ['10,000 rows', await exportCsv(token, '?eventType=bench_small')],
      [large, await exportCsv(token, '?eventType=bench_large')],
      [`${large} again`, await exportCsv(token, '?eventType=bench_large')],
      ['whole log', await exportCsv(token, '')],
    ] as const;
  console.log('\nexport                   rows      MB   seconds  rows/s   RSS before  peak RSS (MB)');
  for (const [label, r] of results) {
    console.log(
      `${label.padEnd(19)} ${String(r.rows).padStart(9)} ${(r.bytes / 1048576).toFixed(1).padStart(7)} ` +
        `${r.seconds.toFixed(2).padStart(8)} ${Math.round(r.rows / r.seconds).toString().padStart(7)} ` +
        `${r.before.toFixed(0).padStart(11)} ${r.peak.toFixed(0).padStart(10)}`,
    );
  }
  const growth = results[1][1].peak - results[0][1].peak;
  console.log(
    `\nPeak RSS ${results[1][0]} vs ${results[0][0]}: ${growth >= 0 ? '+' : ''}${
      growth.toFixed(0)
    } MB; VmHWM of the API process: ${memory('VmHWM').toFixed(0)} MB`,
  );
} finally {
  await server.stop();
  await dropDatabase();
  if (!scaleUrl) await Deno.remove(dataDir, { recursive: true }).catch(() => {});
}
