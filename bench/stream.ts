/**
 * Streams one 10 MB document to 32 concurrent clients (`wrk -t2 -c32 -d10s`, bearer header) in one run:
 *   - nginx serving the file itself (the baseline);
 *   - BLOB_OFFLOAD=nginx: the API (fs store) behind nginx with the shipped deploy/nginx/portal-proxy.conf and
 *     portal-blobs.conf; the API authorizes and audits each request, nginx sends the file (X-Accel-Redirect);
 *   - the offload mode's references, each a bare Deno.serve behind a front like the API's replaying the API's answer
 *     to one reading (its X-Accel-Redirect and headers; bench/support/redirect_handler.ts): checking nothing, what
 *     the front and the redirect cost by themselves (the ceiling); and, on PostgreSQL, after running the reading's
 *     one statement (session check and document) as the API does, what asking the database on every reading costs
 *     (the floor of any design that checks each reading), so the gap to the API is the API's own work;
 *   - the API sending the bytes itself, once per blob backend (BLOB_STORE=fs, then postgres, then s3: an S3 bucket,
 *     the operator's own when S3_* is set, else a Ceph gateway on this machine; bench/support/s3_target.ts): a
 *     sealed document (every upload is), and on PostgreSQL, in the same rounds of the same API, a plaintext blob of
 *     an installation from before sealing, so the cost of opening the seal is its ratio to the plain run beside it;
 * and prints each throughput, its ratio to nginx, the API's RSS growth and peak during the run, and the CPU time
 * each process spent per request (nginx's workers, the API, PostgreSQL, and the client, wrk, which on this machine
 * shares the cores: its copy of every byte read is most of the machine's work). nginx is
 * measured before each round of each mode and once after its last, and each round's ratio is over the mean of the
 * nginx runs on either side of it: on a machine others share, a load that rises or falls during the round then
 * weighs on both sides of the ratio alike, and the ratio is what stays comparable. Before
 * each timed run one request's body is checked against the file's SHA-256: every mode sends identical bytes.
 *
 *   npm run bench:stream
 *   BENCH_SECONDS=30 npm run bench:stream          # longer runs (default 10 s each)
 *   BENCH_MODES=nginx,offload npm run bench:stream # some of nginx, offload, fs, postgres, s3 (default all)
 *   BENCH_ROUNDS=5 npm run bench:stream            # rounds per mode, nginx on either side of each (default 7); medians
 *   BENCH_SESSIONS=1 npm run bench:stream          # every request on one session (default: 32 sessions)
 *   BENCH_WARMUP=0 npm run bench:stream            # untimed seconds of load before a mode's rounds (default 10)
 *   BENCH_HANDLING=5 npm run bench:stream          # and, in the offload mode on PostgreSQL, rounds of that many
 *                                                  # seconds straight at the API and at the floor's handler
 *                                                  # (bench/support/handling.ts; default 0: none)
 *
 * Both nginx instances (the baseline and the front of the offload mode) have the same http settings, the best
 * this machine gives a static file: one worker per core (`worker_processes auto`), sendfile, tcp_nopush,
 * open_file_cache, no access log, keep-alive to the clients; the front keeps 32 idle connections to the API
 * (upstream keepalive) as compose's does. The API runs on one thread.
 *
 * Every API request that starts at byte 0 is a reading: it runs the read-audit claim in its own transaction,
 * exactly as in production (one audit row per session, document and window), so the API figures include that
 * cost. The API's VmRSS is sampled from /proc every 50 ms; VmHWM is the kernel's high-water mark. With the
 * embedded database the figures include PGlite (same process).
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:stream
 *
 * runs the API as in production instead, on a PostgreSQL server (a fresh database per run, dropped after).
 */
import postgres from 'postgres';
import { createBlobStore } from '../api/blobs/store.ts';
import { loadConfig } from '../api/config.ts';
import { connectPostgres } from '../api/db/client.ts';
import { makePdf } from '../tests/support/pdfs.ts';
import { type Parties, processes } from './support/cpu.ts';
import { handlingFigures, type HandlingRuns, measureHandling } from './support/handling.ts';
import { replayableHeaders } from './support/replay.ts';
import { type S3Target, s3Target } from './support/s3_target.ts';
import { startBenchServer } from './support/server.ts';
import { median } from './support/statistics.ts';
import { HAVE_WRK, writeSessionsScript, wrk, type WrkResult } from './support/wrk.ts';

const ROOT = new URL('../', import.meta.url).pathname;
const SECONDS = Number(Deno.env.get('BENCH_SECONDS') ?? 10);
const SIZE = 10 * 1024 * 1024;
const SERVER_URL = Deno.env.get('BENCH_DATABASE_URL');
/** Reader sessions the requests rotate over (BENCH_SESSIONS=1: every request on one token). */
const SESSIONS = Math.max(1, Number(Deno.env.get('BENCH_SESSIONS') ?? 32));
/**
 * Rounds per mode: on this shared 2-core machine one pair of runs moves by ±0.1 from one round to the next (the
 * ceiling row's spread), so a single round cannot tell 0.85 from 0.95. Seven rounds of 10 s (rather than three
 * of 5 s) give each mode's median nearly five times the load to stand on (a full run takes
 * about 11 minutes instead of 4.5). Separate runs' medians still differ by as much (0.86–0.94 in the offload mode,
 * against 0.85–0.93 with the shorter rounds): from one run to the next it is the machine that moves.
 */
const ROUNDS = Math.max(1, Number(Deno.env.get('BENCH_ROUNDS') ?? 7));
/**
 * Seconds of the same load, untimed, before a mode's first round, against the mode and each of its references. A
 * server runs for days; a fresh API process is not yet at that steady state (V8 compiles the reading path's code
 * with its optimizing tier and grows its young generation over thousands of requests). Without it, one run's offload
 * rounds rose round after round (0.84, 0.84, 0.88, 0.88, 0.90) while its references' stayed flat; with 15 s of it
 * the next run's API spent 548 µs of CPU a reading where that one's spent 609 µs, at about the same ratio (0.87).
 */
const WARMUP = Math.max(0, Number(Deno.env.get('BENCH_WARMUP') ?? 10));
/** Seconds of each round straight at the API and the floor's handler (bench/support/handling.ts); 0: none. */
const HANDLING = Math.max(0, Number(Deno.env.get('BENCH_HANDLING') ?? 0));
const MODES = (Deno.env.get('BENCH_MODES') ?? 'nginx,offload,fs,postgres,s3').split(',').map((m) => m.trim());
const SHIPPED_BLOBS = '/var/lib/legal-mail-portal/blobs/';

/** A fresh database on the PostgreSQL server, for one API run; undefined runs the embedded one. */
async function freshDatabase(name: string): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  if (!SERVER_URL) return undefined;
  const admin = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

function freePort(): number {
  const listener = Deno.listen({ hostname: '127.0.0.1', port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

function status(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const text = Deno.readTextFileSync(`/proc/${pid}/status`);
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
  return match ? Number(match[1]) * 1024 : 0;
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** The baseline's parties: nginx's workers. */
const nginxParties = (master: number): Parties => () => ({ nginx: processes({ parent: master }) });

/** nginx with the bench's settings (the same for the baseline and the offload front) around `servers`. */
async function startNginx(
  dir: string,
  port: number,
  servers: string,
): Promise<{ pid: number; stop(): Promise<void> }> {
  await Deno.writeTextFile(
    `${dir}/nginx.conf`,
    `
user root;
worker_processes auto;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  keepalive_requests 100000;
  open_file_cache max=64 inactive=60s;
  client_body_temp_path ${dir}/tmp_body;
  proxy_temp_path ${dir}/tmp_proxy;
  fastcgi_temp_path ${dir}/tmp_fastcgi;
  uwsgi_temp_path ${dir}/tmp_uwsgi;
  scgi_temp_path ${dir}/tmp_scgi;
  types { application/pdf pdf; }
${servers}
}
`,
  );
  const child = new Deno.Command('/usr/sbin/nginx', {
    args: ['-c', `${dir}/nginx.conf`, '-p', dir],
    stdout: 'null',
    stderr: 'inherit',
  }).spawn();
  for (let i = 0; i < 50; i++) {
    try {
      (await Deno.connect({ hostname: '127.0.0.1', port })).close();
      break;
    } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    pid: child.pid,
    async stop() {
      child.kill('SIGQUIT');
      await child.status;
    },
  };
}

/** The baseline: nginx serving the document as a static file. */
async function startStaticNginx(dir: string, file: Uint8Array) {
  await Deno.mkdir(`${dir}/www`, { recursive: true });
  await Deno.writeFile(`${dir}/www/doc.pdf`, file);
  const port = freePort();
  const nginx = await startNginx(dir, port, `  server { listen 127.0.0.1:${port}; root ${dir}/www; }`);
  return { ...nginx, url: `http://127.0.0.1:${port}/doc.pdf` };
}

/** The offload mode's front: the shipped proxy settings and internal /_blobs/ location on the API's DATA_DIR. */
async function startOffloadFront(dir: string, dataDir: string, apiPort: number) {
  const blobs = await Deno.readTextFile(`${ROOT}deploy/nginx/portal-blobs.conf`);
  if (!blobs.includes(SHIPPED_BLOBS)) throw new Error(`portal-blobs.conf no longer aliases ${SHIPPED_BLOBS}`);
  await Deno.writeTextFile(`${dir}/portal-blobs.conf`, blobs.replace(SHIPPED_BLOBS, `${dataDir}/blobs/`));
  await Deno.copyFile(`${ROOT}deploy/nginx/portal-proxy.conf`, `${dir}/portal-proxy.conf`);
  const port = freePort();
  const nginx = await startNginx(
    dir,
    port,
    `  upstream portal_api { server 127.0.0.1:${apiPort}; keepalive 32; }
  server {
    listen 127.0.0.1:${port};
    include ${dir}/portal-blobs.conf;
    location / { include ${dir}/portal-proxy.conf; proxy_pass http://portal_api; }
  }`,
  );
  return { ...nginx, base: `http://127.0.0.1:${port}` };
}

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as BufferSource);
  return Array.from(new Uint8Array(digest)).map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** One request's body must be the document's bytes exactly (before its mode is timed). */
async function checkBytes(mode: string, url: string, headers: Record<string, string>, want: string) {
  const r = await fetch(url, { headers });
  const got = await sha256Hex(new Uint8Array(await r.arrayBuffer()));
  if (r.status !== 200 || got !== want) {
    throw new Error(`${mode}: answered ${r.status} with SHA-256 ${got}, not the document's ${want}`);
  }
}

/**
 * Run in each round right after the API. Offload: a bare handler replaying the API's answer behind a front of its
 * own (bench/support/redirect_handler.ts). s3: the object store sending the object itself (a presigned GET).
 */
interface Reference {
  label: string;
  /** What its figure shows. */
  shows: string;
  url: string;
  /** The bare handler itself, without its front. */
  handler: { base: string; pid: number };
  /** Requested without the readers' bearer headers (a presigned URL carries its own signature). */
  bare?: boolean;
  parties: Parties;
  runs: WrkResult[];
  stop(): Promise<void>;
}

/** Starts the redirect handler with `env` and a front for it; `checking` adds PostgreSQL's CPU to its parties. */
async function startReference(
  label: string,
  shows: string,
  env: Record<string, string>,
  documentPath: string,
  dataDir: string,
  checking: boolean,
): Promise<Reference> {
  const handler = await startBenchServer(env, { script: 'bench/support/redirect_handler.ts' });
  const dir = await Deno.makeTempDir({ prefix: 'lmp-bench-reference-' });
  const front = await startOffloadFront(dir, dataDir, Number(new URL(handler.base).port)).catch(
    async (error) => {
      await handler.stop();
      throw error;
    },
  );
  return {
    label,
    shows,
    url: `${front.base}${documentPath}`,
    handler: { base: handler.base, pid: handler.pid },
    parties: () => ({
      nginx: processes({ parent: front.pid }),
      'bare handler': [handler.pid],
      ...(checking ? { PostgreSQL: processes({ name: 'postgres' }) } : {}),
    }),
    runs: [],
    async stop() {
      await front.stop();
      await handler.stop();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

interface ApiRun {
  mode: string;
  /** The mode's run in each round; `baseline[i]` and `baseline[i + 1]` are nginx's runs before and after it. */
  results: WrkResult[];
  baseline: WrkResult[];
  references: Reference[];
  rssBefore: number;
  rssPeakSampled: number;
  hwm: number;
  /** BENCH_HANDLING's rounds straight at the API and the floor's handler (offload on PostgreSQL only). */
  handling?: HandlingRuns;
  /**
   * The same API, in the same rounds, sending a plaintext blob of an installation from before sealing (the fs,
   * postgres and s3 modes on PostgreSQL): what sealing costs, each round's sealed run over the plain run beside it.
   */
  plain?: WrkResult[];
}

/**
 * Stores `file` as an installation from before sealing did (a plaintext blob under its SHA-256, no sealed blob), in
 * the API's own store and database, for the plain reads the sealed ones are compared with.
 */
async function storeAsBefore(
  options: { backend: 'fs' | 'postgres' | 's3'; dataDir: string; databaseUrl: string; s3?: S3Target },
  file: Uint8Array,
): Promise<void> {
  const config = loadConfig({
    BLOB_STORE: options.backend,
    DATA_DIR: options.dataDir,
    DATABASE_URL: options.databaseUrl,
    ...options.s3?.env,
  });
  const db = connectPostgres(options.databaseUrl, { max: 2 });
  try {
    const raw = createBlobStore(config, db);
    const stored = await raw.put(new Blob([file as BlobPart]).stream());
    const rows = await db.sql<{ name: string }[]>`
      delete from sealed_blobs where sha256 = ${stored.sha256} returning name`;
    for (const row of rows) await raw.delete(row.name);
  } finally {
    await db.close();
  }
}

async function runApi(
  mode: 'fs' | 'postgres' | 's3' | 'offload',
  file: Uint8Array,
  sha: string,
  plainFile: { bytes: Uint8Array; sha: string },
  nginx: { url: string; pid: number } | undefined,
  s3?: S3Target,
): Promise<ApiRun> {
  const backend = mode === 'offload' ? 'fs' : mode;
  const dataDir = await Deno.makeTempDir({ prefix: `lmp-bench-stream-${mode}-` });
  const frontDir = await Deno.makeTempDir({ prefix: 'lmp-bench-front-' });
  let front: Awaited<ReturnType<typeof startOffloadFront>> | undefined;
  const references: Reference[] = [];
  /** The reference that runs the reading's statement (on PostgreSQL only). */
  let floor: Reference | undefined;
  const port = freePort();
  const database = await freshDatabase(`lmp_bench_${mode}_${Date.now()}`);
  const sessionSecret = crypto.randomUUID().repeat(2);
  const databaseEnv: Record<string, string> = database
    ? { DATABASE_URL: database.url, DEMO_SEED: '1', SESSION_SECRET: sessionSecret }
    : {};
  const child = new Deno.Command(Deno.execPath(), {
    args: ['run', '-A', 'api/main.ts'],
    cwd: ROOT,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      BLOB_STORE: backend,
      BLOB_OFFLOAD: mode === 'offload' ? 'nginx' : 'off',
      TRUSTED_PROXIES: '127.0.0.1',
      PWA_DIST: `${ROOT}pwa/dist`,
      ...databaseEnv,
      ...s3?.env,
    },
    stdout: 'piped',
    stderr: 'inherit',
  }).spawn();
  try {
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let seen = '';
    while (!/135790/.test(seen)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the API did not start:\n${seen}`);
      seen += value;
    }
    (async () => {
      while (!(await reader.read()).done) { /* drain */ }
    })().catch(() => {});
    const base = `http://127.0.0.1:${port}`;
    const login = async (username: string, password: string) => {
      const r = await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password, entity: 'default' }),
      });
      return (await r.json()).token as string;
    };
    const attorney = await login('attorney@demo.test', 'Demo-Attorney-2026!');
    const offender = await login('100001', '246810');
    // One session per connection, as 32 readers would have: a session's every request touches its row
    // (last_seen_at) and its read-audit claim, so 32 connections on one token queue on those row locks and
    // measure that queue (about 85 req/s here on either database), not the sending of the bytes.
    const tokens = [offender];
    while (tokens.length < SESSIONS) tokens.push(await login('100001', '246810'));
    if (tokens.some((t) => !t)) throw new Error('a bench sign-in failed');
    const script = await writeSessionsScript(`${dataDir}/sessions.lua`, tokens);
    const form = new FormData();
    form.set('file', new File([file as BlobPart], 'bench.pdf', { type: 'application/pdf' }));
    form.set('recipient_doc_number', '100001');
    form.set('title', 'Bench 10 MB');
    const up = await fetch(`${base}/api/documents/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${attorney}` },
      body: form,
    });
    const uploaded = await up.json();
    if (up.status !== 201) throw new Error(`upload failed: ${up.status} ${JSON.stringify(uploaded)}`);
    if (mode === 'offload') front = await startOffloadFront(frontDir, dataDir, port);
    const documentPath = `/api/documents/view/${uploaded.document.documentid}`;
    const url = `${front?.base ?? base}${documentPath}`;
    const asReader = { authorization: `Bearer ${offender}` };
    await checkBytes(mode, url, asReader, sha);
    // A second document of the same size, stored as an installation from before sealing stored it.
    let plainUrl: string | undefined;
    if (mode !== 'offload' && database) {
      const second = new FormData();
      second.set('file', new File([plainFile.bytes as BlobPart], 'plain.pdf', { type: 'application/pdf' }));
      second.set('recipient_doc_number', '100001');
      second.set('title', 'Bench 10 MB, plaintext');
      const upPlain = await fetch(`${base}/api/documents/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${attorney}` },
        body: second,
      });
      const plainDoc = await upPlain.json();
      if (upPlain.status !== 201) {
        throw new Error(`upload failed: ${upPlain.status} ${JSON.stringify(plainDoc)}`);
      }
      await storeAsBefore({ backend: mode, dataDir, databaseUrl: database.url, s3 }, plainFile.bytes);
      plainUrl = `${base}/api/documents/view/${plainDoc.document.documentid}`;
      await checkBytes(`${mode}, plaintext blob`, plainUrl, asReader, plainFile.sha);
    }
    if (s3) {
      const direct = await s3.presignedUrl(sha);
      await checkBytes('the bucket alone', direct, {}, sha);
      references.push({
        label: 'the bucket alone (presigned)',
        shows: "the object store sending the object, no API: the store's own cost",
        url: direct,
        handler: { base: '', pid: 0 },
        bare: true,
        parties: () => s3.pids(),
        runs: [],
        stop: () => Promise.resolve(),
      });
    }
    if (mode === 'offload') {
      // The API's own answer to a reading (asked of it directly, not through the front), replayed by bare handlers:
      // the same redirect and headers through a front like the API's.
      const { status, headers: replayed } = await replayableHeaders(`${base}${documentPath}`, asReader);
      if (!replayed['x-accel-redirect']) throw new Error(`the API answered ${status} without a redirect`);
      const env = { REDIRECT_HEADERS: JSON.stringify(replayed) };
      references.push(
        await startReference(
          'nginx + bare redirect handler',
          "the API's answer replayed, nothing checked: the front's own cost",
          env,
          documentPath,
          dataDir,
          false,
        ),
      );
      // The embedded database lives inside the API's process: no other process can ask it.
      if (database) {
        references.push(
          floor = await startReference(
            'nginx + bare handler, statement',
            "the same after the reading's one statement, as the API runs it: a check per reading's own cost",
            { ...env, READING_DATABASE_URL: database.url, SESSION_SECRET: sessionSecret, DATA_DIR: dataDir },
            documentPath,
            dataDir,
            true,
          ),
        );
      }
      for (const reference of references) await checkBytes(reference.label, reference.url, asReader, sha);
    }

    // Whose CPU each run counts: the front's workers, the API, and with a server every PostgreSQL process (the
    // embedded database is inside the API's).
    const apiParties: Parties = () => ({
      ...(front ? { nginx: processes({ parent: front.pid }) } : {}),
      API: [child.pid],
      ...(SERVER_URL ? { PostgreSQL: processes({ name: 'postgres' }) } : {}),
      ...s3?.pids(),
    });

    const rssBefore = status(child.pid, 'VmRSS');
    let rssPeakSampled = rssBefore;
    const sampler = setInterval(() => {
      try {
        rssPeakSampled = Math.max(rssPeakSampled, status(child.pid, 'VmRSS'));
      } catch { /* exited */ }
    }, 50);
    // After the RSS sampler starts: the growth counts what the warm-up allocates too.
    if (WARMUP > 0) {
      await wrk(url, apiParties, { script, seconds: WARMUP });
      if (plainUrl) await wrk(plainUrl, apiParties, { script, seconds: WARMUP });
      for (const reference of references) {
        await wrk(reference.url, reference.parties, {
          script: reference.bare ? undefined : script,
          seconds: WARMUP,
        });
      }
    }
    const results: WrkResult[] = [];
    const baseline: WrkResult[] = [];
    const plain: WrkResult[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // nginx on either side of each round, on the same machine load: what a busy machine can still tell.
      if (nginx) baseline.push(await wrk(nginx.url, nginxParties(nginx.pid), { seconds: SECONDS }));
      results.push(await wrk(url, apiParties, { script, seconds: SECONDS }));
      if (plainUrl) plain.push(await wrk(plainUrl, apiParties, { script, seconds: SECONDS }));
      for (const reference of references) {
        const headers = reference.bare ? undefined : script;
        reference.runs.push(
          await wrk(reference.url, reference.parties, { script: headers, seconds: SECONDS }),
        );
      }
    }
    if (nginx) baseline.push(await wrk(nginx.url, nginxParties(nginx.pid), { seconds: SECONDS }));
    clearInterval(sampler);
    const hwm = status(child.pid, 'VmHWM');
    // After the RSS figures: these runs are not the mode's.
    const handling = HANDLING > 0 && floor
      ? await measureHandling({
        api: { base, pid: child.pid },
        floor: floor.handler,
        documentPath,
        tokens,
        dir: dataDir,
        rounds: ROUNDS,
        seconds: HANDLING,
      })
      : undefined;
    return {
      mode,
      results,
      baseline,
      references,
      rssBefore,
      rssPeakSampled,
      hwm,
      handling,
      plain: plainUrl ? plain : undefined,
    };
  } finally {
    for (const reference of references) await reference.stop();
    await front?.stop();
    await Deno.remove(frontDir, { recursive: true }).catch(() => {});
    child.kill('SIGTERM');
    await child.status;
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    await database?.drop();
  }
}

const file = await makePdf({ pages: 3, title: 'Bench', padTo: SIZE - 4096 });
const sha = await sha256Hex(file);
const plainBytes = await makePdf({ pages: 3, title: 'Bench, plain', padTo: SIZE - 4096 });
const plainFile = { bytes: plainBytes, sha: await sha256Hex(plainBytes) };
const cores = navigator.hardwareConcurrency;
console.log(
  `Document: ${mb(file.length)} MB (SHA-256 ${sha.slice(0, 16)}…); ${
    HAVE_WRK ? 'wrk -t2 -c32' : 'no wrk here: bench/support/load_client.ts, 32 connections,'
  } -d${SECONDS}s over ${SESSIONS} sessions; Deno ${Deno.version.deno} ` +
    `on ${cores} cores; nginx: ${cores} workers (auto), sendfile, tcp_nopush, open_file_cache; database: ${
      SERVER_URL ? 'PostgreSQL (BENCH_DATABASE_URL)' : 'embedded (PGlite, in the API process)'
    }`,
);

const figures = (runs: WrkResult[]) =>
  `${median(runs.map((r) => r.mbPerSec)).toFixed(0).padStart(6)} MB/s  ${
    median(runs.map((r) => r.requestsPerSec)).toFixed(1)
  } req/s`;

/** Each round's throughput over the mean of nginx's runs before and after it: the median, and every round's. */
const ratioToNginx = (runs: WrkResult[], baseline: WrkResult[]) => {
  if (!baseline.length) return 'ratio to nginx n/a';
  const ratios = runs.map((r, i) => r.mbPerSec / ((baseline[i].mbPerSec + baseline[i + 1].mbPerSec) / 2));
  return `ratio to nginx ${median(ratios).toFixed(2)}${
    ROUNDS > 1 ? ` (median of ${ratios.map((r) => r.toFixed(2)).join(', ')})` : ''
  }`;
};

/** The CPU each party spent per request, the median over the runs, by party. */
const cpuPerParty = (runs: WrkResult[]) =>
  Object.keys(runs[0]?.cpuPerRequest ?? {}).map((name) =>
    [name, median(runs.map((r) => r.cpuPerRequest[name]))] as const
  );

/** What the servers (every party but the client) spent per request together. */
const serversCpu = (runs: WrkResult[]) =>
  cpuPerParty(runs).filter(([name]) => !name.startsWith('client (')).reduce((sum, [, us]) => sum + us, 0);

/**
 * The CPU each party spent per request, the servers' sum apart from the client's: on this machine wrk copies every
 * byte it reads on the same cores, where a tablet's reads cost the server nothing. With `baseline`, also nginx's
 * servers' CPU per request over this mode's: about the throughput ratio the mode would have if the clients ran
 * elsewhere and the servers' cores were the limit. On these two shared cores wrk's copying, about the same per
 * answer in every mode, is most of each answer's cost and lifts every throughput ratio toward 1.
 */
const cpuFigures = (runs: WrkResult[], baseline?: WrkResult[]) => {
  const servers = serversCpu(runs);
  const us = (n: number) => `${Math.round(n).toLocaleString('en-US')} µs`;
  const against = baseline?.length
    ? `; nginx's servers' CPU over these: ${(serversCpu(baseline) / servers).toFixed(2)}`
    : '';
  const parties = cpuPerParty(runs).map(([name, n]) => `${name} ${us(n)}`).join(', ');
  return `${''.padEnd(31)} CPU per request: ${parties}; servers ${us(servers)}${against}`;
};

// The baseline stays up for the whole run: each mode's rounds alternate with a round of it.
let nginx: Awaited<ReturnType<typeof startStaticNginx>> | undefined;
const nginxDir = await Deno.makeTempDir({ prefix: 'lmp-bench-nginx-' });
if (MODES.includes('nginx')) {
  nginx = await startStaticNginx(nginxDir, file);
  await checkBytes('nginx', nginx.url, {}, sha);
}

/** A document's bytes must pass through the API without its memory growing by more than this under the load. */
const RSS_GROWTH_BOUND = 100 * 1024 * 1024;
const growthBound = (growth: number) =>
  growth < RSS_GROWTH_BOUND ? 'under the 100 MB bound' : 'OVER the 100 MB bound';

const LABELS = {
  offload: 'API + nginx, BLOB_OFFLOAD=nginx',
  fs: 'API alone, fs, sealed',
  postgres: 'API alone, postgres, sealed',
  s3: 'API alone, s3, sealed',
} as const;
try {
  for (const mode of ['offload', 'fs', 'postgres', 's3'] as const) {
    if (!MODES.includes(mode)) continue;
    let s3: S3Target | undefined;
    if (mode === 's3') {
      const target = await s3Target();
      if ('skipped' in target) {
        console.log(`${LABELS.s3.padEnd(31)} skipped: ${target.skipped}`);
        continue;
      }
      s3 = target;
      console.log(`${''.padEnd(31)} the bucket: ${s3.label}`);
    }
    const run = await runApi(mode, file, sha, plainFile, nginx, s3).finally(() => s3?.stop());
    if (run.baseline.length) {
      console.log(`${'nginx, static file'.padEnd(31)} ${figures(run.baseline)}`);
      console.log(cpuFigures(run.baseline));
    }
    const non2xx = run.results.reduce((n, r) => n + r.non2xx, 0);
    console.log(
      `${LABELS[mode].padEnd(31)} ${figures(run.results)}  bytes identical  ${
        ratioToNginx(run.results, run.baseline)
      }  API RSS before ${mb(run.rssBefore)} MB, peak ${mb(run.rssPeakSampled)} MB (growth ${
        mb(run.rssPeakSampled - run.rssBefore)
      } MB, ${growthBound(run.rssPeakSampled - run.rssBefore)}), VmHWM ${mb(run.hwm)} MB` +
        (non2xx ? `  [${non2xx} non-2xx answers]` : ''),
    );
    console.log(cpuFigures(run.results, run.baseline));
    if (run.plain) {
      const over = run.results.map((r, i) => r.mbPerSec / run.plain![i].mbPerSec);
      console.log(
        `${LABELS[mode].replace('sealed', 'plaintext').padEnd(31)} ${figures(run.plain)}  bytes identical  ${
          ratioToNginx(run.plain, run.baseline)
        }  sealed over plain ${median(over).toFixed(2)}${
          ROUNDS > 1 ? ` (median of ${over.map((r) => r.toFixed(2)).join(', ')})` : ''
        }`,
      );
      console.log(cpuFigures(run.plain, run.baseline));
    } else if (mode !== 'offload') {
      console.log(`${''.padEnd(31)} (the plaintext comparison needs BENCH_DATABASE_URL)`);
    }
    for (const reference of run.references) {
      console.log(
        `${reference.label.padEnd(31)} ${figures(reference.runs)}  bytes identical  ${
          ratioToNginx(reference.runs, run.baseline)
        }  (${reference.shows})`,
      );
      console.log(cpuFigures(reference.runs, run.baseline));
    }
    if (run.handling) { for (const line of handlingFigures(run.handling)) console.log(line); }
    if (run.results.some((r) => r.mbPerSec === 0)) console.log(run.results.map((r) => r.raw).join('\n'));
  }
} finally {
  await nginx?.stop();
  await Deno.remove(nginxDir, { recursive: true }).catch(() => {});
}
