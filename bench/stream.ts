/**
 * Streams one 10 MB document to 32 concurrent clients (`wrk -t2 -c32 -d10s`, bearer header) from the
 * API, once per blob backend (BLOB_STORE=fs, then postgres, both on the embedded database), and in the
 * same run the same bytes from Debian's nginx (a temporary config on a free port), then prints each
 * throughput, its ratio to nginx, and the API's peak RSS and RSS growth during the run.
 *
 *   npm run bench:stream
 *   BENCH_SECONDS=30 npm run bench:stream          # a longer run (default 10 s)
 *
 * Every API request that starts at byte 0 is a reading: it writes an audit row in its own transaction,
 * exactly as in production, so the API figures include that cost. nginx runs with one worker process,
 * as the API runs on one thread. The API's VmRSS is sampled from /proc every 50 ms; VmHWM is the
 * kernel's high-water mark. With the embedded database the figures include PGlite (same process).
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:stream
 *
 * runs the API as in production instead, on a PostgreSQL server (a fresh database per backend, dropped after).
 */
import postgres from 'postgres';
import { makePdf } from '../tests/support/pdfs.ts';

const ROOT = new URL('../', import.meta.url).pathname;
const SECONDS = Number(Deno.env.get('BENCH_SECONDS') ?? 10);
const SIZE = 10 * 1024 * 1024;
const SERVER_URL = Deno.env.get('BENCH_DATABASE_URL');

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

interface WrkResult {
  mbPerSec: number;
  requestsPerSec: number;
  non2xx: number;
  raw: string;
}

async function wrk(url: string, headers: string[] = []): Promise<WrkResult> {
  const args = ['-t2', '-c32', `-d${SECONDS}s`, '--timeout', '30s'];
  for (const h of headers) args.push('-H', h);
  args.push(url);
  const out = await new Deno.Command('/usr/bin/wrk', { args, stdout: 'piped', stderr: 'piped' }).output();
  const raw = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  const transfer = /Transfer\/sec:\s+([\d.]+)([KMG]?B)/.exec(raw);
  const units: Record<string, number> = { B: 1 / 1048576, KB: 1 / 1024, MB: 1, GB: 1024 };
  return {
    mbPerSec: transfer ? Number(transfer[1]) * units[transfer[2]] : 0,
    requestsPerSec: Number(/Requests\/sec:\s+([\d.]+)/.exec(raw)?.[1] ?? 0),
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(raw)?.[1] ?? 0),
    raw,
  };
}

async function startNginx(dir: string, file: Uint8Array): Promise<{ url: string; stop(): Promise<void> }> {
  await Deno.mkdir(`${dir}/www`, { recursive: true });
  await Deno.writeFile(`${dir}/www/doc.pdf`, file);
  const port = freePort();
  await Deno.writeTextFile(
    `${dir}/nginx.conf`,
    `
user root;
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  client_body_temp_path ${dir}/tmp_body;
  proxy_temp_path ${dir}/tmp_proxy;
  fastcgi_temp_path ${dir}/tmp_fastcgi;
  uwsgi_temp_path ${dir}/tmp_uwsgi;
  scgi_temp_path ${dir}/tmp_scgi;
  types { application/pdf pdf; }
  server { listen 127.0.0.1:${port}; root ${dir}/www; }
}
`,
  );
  const child = new Deno.Command('/usr/sbin/nginx', {
    args: ['-c', `${dir}/nginx.conf`, '-p', dir],
    stdout: 'null',
    stderr: 'inherit',
  }).spawn();
  const url = `http://127.0.0.1:${port}/doc.pdf`;
  for (let i = 0; i < 50; i++) {
    try {
      const r = await fetch(url);
      await r.body?.cancel();
      if (r.ok) break;
    } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    async stop() {
      child.kill('SIGQUIT');
      await child.status;
    },
  };
}

interface ApiRun {
  backend: string;
  result: WrkResult;
  rssBefore: number;
  rssPeakSampled: number;
  hwm: number;
}

async function runApi(backend: 'fs' | 'postgres', file: Uint8Array): Promise<ApiRun> {
  const dataDir = await Deno.makeTempDir({ prefix: `lmp-bench-stream-${backend}-` });
  const port = freePort();
  const database = await freshDatabase(`lmp_bench_${backend}_${Date.now()}`);
  const databaseEnv: Record<string, string> = database
    ? { DATABASE_URL: database.url, DEMO_SEED: '1', SESSION_SECRET: crypto.randomUUID().repeat(2) }
    : {};
  const child = new Deno.Command(Deno.execPath(), {
    args: ['run', '-A', 'api/main.ts'],
    cwd: ROOT,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      BLOB_STORE: backend,
      PWA_DIST: `${ROOT}pwa/dist`,
      ...databaseEnv,
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
    const url = `${base}/api/documents/view/${uploaded.document.documentid}`;
    const warm = await fetch(url, { headers: { authorization: `Bearer ${offender}` } });
    await warm.arrayBuffer();

    const rssBefore = status(child.pid, 'VmRSS');
    let rssPeakSampled = rssBefore;
    const sampler = setInterval(() => {
      try {
        rssPeakSampled = Math.max(rssPeakSampled, status(child.pid, 'VmRSS'));
      } catch { /* exited */ }
    }, 50);
    const result = await wrk(url, [`Authorization: Bearer ${offender}`]);
    clearInterval(sampler);
    const hwm = status(child.pid, 'VmHWM');
    return { backend, result, rssBefore, rssPeakSampled, hwm };
  } finally {
    child.kill('SIGTERM');
    await child.status;
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    await database?.drop();
  }
}

const file = await makePdf({ pages: 3, title: 'Bench', padTo: SIZE - 4096 });
console.log(
  `Document: ${
    mb(file.length)
  } MB; wrk -t2 -c32 -d${SECONDS}s; Deno ${Deno.version.deno} on ${navigator.hardwareConcurrency} cores; ` +
    `database: ${SERVER_URL ? 'PostgreSQL (BENCH_DATABASE_URL)' : 'embedded (PGlite, in the API process)'}`,
);

const nginxDir = await Deno.makeTempDir({ prefix: 'lmp-bench-nginx-' });
const nginx = await startNginx(nginxDir, file);
const base = await wrk(nginx.url);
await nginx.stop();
await Deno.remove(nginxDir, { recursive: true }).catch(() => {});
console.log(
  `nginx (1 worker)     ${base.mbPerSec.toFixed(0).padStart(6)} MB/s  ${
    base.requestsPerSec.toFixed(1)
  } req/s`,
);

for (const backend of ['fs', 'postgres'] as const) {
  const run = await runApi(backend, file);
  const r = run.result;
  const ratio = base.mbPerSec ? r.mbPerSec / base.mbPerSec : 0;
  console.log(
    `API BLOB_STORE=${backend.padEnd(8)} ${r.mbPerSec.toFixed(0).padStart(6)} MB/s  ${
      r.requestsPerSec.toFixed(1)
    } req/s  ` +
      `ratio to nginx ${ratio.toFixed(2)}  RSS before ${mb(run.rssBefore)} MB, peak ${
        mb(run.rssPeakSampled)
      } MB ` +
      `(growth ${mb(run.rssPeakSampled - run.rssBefore)} MB), VmHWM ${mb(run.hwm)} MB` +
      (r.non2xx ? `  [${r.non2xx} non-2xx answers]` : ''),
  );
  if (r.mbPerSec === 0) console.log(r.raw);
}
