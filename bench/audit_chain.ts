/**
 * What the audit log's hash chain and signed checkpoints cost the requests that write audit rows: the demo
 * offender's sign-in and an attorney's upload (a 100 KB PDF), each one at a time, through the real server
 * (api/main.ts on the embedded database, as `npm start` runs it), this checkout against the commit before the
 * chain, measured in alternation on the same machine. This checkout checkpoints every second
 * (AUDIT_CHECKPOINT_SECONDS=1), sixty times the default, so the chain job runs while the requests are measured.
 * Prints each one's median and p95, baseline beside current, and the medians' ratio (aim: within 10 %).
 *
 *   npm run bench:audit-chain
 *   BASELINE_REF=<commit> BENCH_ROUNDS=40 npm run bench:audit-chain
 */
import { type BenchServer, startBenchServer } from './support/server.ts';
import { checkOutBaseline, removeBaseline } from './support/baseline.ts';
import { makePdf } from '../tests/support/pdfs.ts';

const ROOT = new URL('../', import.meta.url).pathname;
/** The last commit before the audit chain. */
const BASELINE_REF = Deno.env.get('BASELINE_REF') ?? 'fa945fa';
const ROUNDS = Number(Deno.env.get('BENCH_ROUNDS') ?? 30);
/** Rounds not counted: the first requests compile code paths and warm the database's caches. */
const WARM_UP = 3;

async function start(root: string, env: Record<string, string>) {
  const dataDir = await Deno.makeTempDir({ prefix: 'lmp-bench-audit-' });
  const server = await startBenchServer(
    {
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      PWA_DIST: `${ROOT}pwa/dist`,
      TRUSTED_PROXIES: '127.0.0.1',
      ...env,
    },
    { root, ready: /Demo accounts:[\s\S]*135790/ },
  );
  return { server, dataDir };
}

async function login(server: BenchServer, username: string, password: string, from: number) {
  const started = performance.now();
  const response = await fetch(`${server.base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.9.1.${from}` },
    body: JSON.stringify({ username, password }),
  });
  const body = await response.json();
  if (response.status !== 200) {
    throw new Error(`sign-in answered ${response.status}: ${JSON.stringify(body)}`);
  }
  return { ms: performance.now() - started, token: body.token as string };
}

async function upload(server: BenchServer, token: string, file: Uint8Array, title: string) {
  const form = new FormData();
  form.set('file', new File([file as BlobPart], 'bench.pdf', { type: 'application/pdf' }));
  form.set('recipient_doc_number', '100001');
  form.set('title', title);
  const started = performance.now();
  const response = await fetch(`${server.base}/api/documents/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  await response.body?.cancel();
  if (response.status !== 201) throw new Error(`upload answered ${response.status}`);
  return performance.now() - started;
}

const sorted = (samples: number[]) => [...samples].sort((a, b) => a - b);
const at = (samples: number[], p: number) => {
  const s = sorted(samples);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))];
};
const figures = (samples: number[]) =>
  `median ${at(samples, 0.5).toFixed(0).padStart(5)} ms   p95 ${at(samples, 0.95).toFixed(0).padStart(5)} ms`;

const baselineRoot = await checkOutBaseline(BASELINE_REF);
const servers = await Promise.all([
  start(baselineRoot, {}),
  start(ROOT, { AUDIT_CHECKPOINT_SECONDS: '1' }),
]);
const [baseline, current] = servers.map(({ server }) => server);
try {
  const attorneys = await Promise.all(
    [baseline, current].map(async (s) =>
      (await login(s, 'attorney@demo.test', 'Demo-Attorney-2026!', 250)).token
    ),
  );
  console.log(`audit chain: ${ROUNDS} rounds each, baseline ${BASELINE_REF} against this checkout\n`);
  const results: Record<string, { baseline: number[]; current: number[] }> = {
    'offender sign-in': { baseline: [], current: [] },
    'upload (100 KB PDF)': { baseline: [], current: [] },
  };
  for (let round = 0; round < ROUNDS + WARM_UP; round++) {
    // A new PDF each round: the same bytes would be one blob, stored once.
    const file = await makePdf({ title: `Bench ${round}`, padTo: 100 * 1024 });
    const order = round % 2 ? [[1, current], [0, baseline]] as const : [[0, baseline], [1, current]] as const;
    for (const [index, server] of order) {
      const which = index === 0 ? 'baseline' : 'current';
      const signIn = (await login(server, '100001', '246810', (round % 200) + 1)).ms;
      const sent = await upload(server, attorneys[index], file, `Bench ${round}`);
      if (round < WARM_UP) continue;
      results['offender sign-in'][which].push(signIn);
      results['upload (100 KB PDF)'][which].push(sent);
    }
  }
  for (const [name, samples] of Object.entries(results)) {
    const ratio = at(samples.current, 0.5) / at(samples.baseline, 0.5);
    console.log(name);
    console.log(`  baseline  ${figures(samples.baseline)}`);
    console.log(`  current   ${figures(samples.current)}`);
    console.log(`  median current/baseline ${(ratio * 100).toFixed(0)} % (aim: at most 110 %)`);
  }
} finally {
  await Promise.all([baseline.stop(), current.stop()]);
  await removeBaseline(baselineRoot);
  for (const { dataDir } of servers) await Deno.remove(dataDir, { recursive: true }).catch(() => {});
}
