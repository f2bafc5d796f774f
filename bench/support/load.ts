/**
 * The load generator of bench/latency.ts: `wrk` (Debian's package) when it is installed, else a Deno loop.
 *
 * wrk is the default because the machine is small: a Deno fetch loop at 64 connections takes most of a core
 * for itself, which the server then lacks, and its own event loop adds to every latency it records. wrk's
 * two threads cost a fraction of that. `BENCH_LOAD=deno` forces the loop (e.g. where wrk is missing).
 */
import { percentiles } from './statistics.ts';

/** What one load run measured. */
export interface Figures {
  n: number;
  errors: number;
  p50: number;
  p99: number;
  rps: number;
  bytes: number;
}

export interface LoadOptions {
  token?: string;
  connections: number;
  /** How long the load runs; with `until`, the longest it may run. */
  seconds: number;
  /** Stops the load when this settles instead (the sign-in burst: the list is loaded until the last sign-in). */
  until?: Promise<unknown>;
  /**
   * 'deno' for the whole-list endpoints: wrk counts only the answers that finish inside its duration, so a
   * 5-second answer at 4 connections would report nothing; the loop waits for the requests in flight.
   */
  generator?: 'deno';
}

/** Which generator runs: wrk when found on PATH, unless BENCH_LOAD=deno. */
export async function loadGenerator(): Promise<'wrk' | 'deno'> {
  if (Deno.env.get('BENCH_LOAD') === 'deno') return 'deno';
  try {
    // wrk --version exits 1 after printing its version: that it ran at all is the answer.
    await new Deno.Command('wrk', { args: ['--version'], stdout: 'null', stderr: 'null' }).output();
    return 'wrk';
  } catch {
    return 'deno';
  }
}

/** The body size of one answer, and that it is a success (wrk counts non-2xx, not bytes per answer). */
async function probe(url: string, token: string | undefined): Promise<{ bytes: number; ok: boolean }> {
  const r = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const body = await r.arrayBuffer();
  return { bytes: body.byteLength, ok: r.ok };
}

/** `connections` clients request `url` back to back over keep-alive connections for `seconds`. */
export async function load(url: string, options: LoadOptions): Promise<Figures> {
  const { bytes, ok } = await probe(url, options.token);
  if (!ok) throw new Error(`${url} does not answer 2xx before the load`);
  const generator = options.generator ?? (await loadGenerator());
  const f = generator === 'wrk' ? await wrkLoad(url, options) : await denoLoad(url, options);
  return { ...f, bytes };
}

/** wrk's time units to milliseconds. */
function ms(value: string, unit: string): number {
  const n = Number(value);
  return unit === 'us'
    ? n / 1000
    : unit === 'ms'
    ? n
    : unit === 's'
    ? n * 1000
    : unit === 'm'
    ? n * 60_000
    : NaN;
}

async function wrkLoad(url: string, options: LoadOptions): Promise<Omit<Figures, 'bytes'>> {
  const threads = Math.max(1, Math.min(2, options.connections));
  const args = [
    `-t${threads}`,
    `-c${options.connections}`,
    `-d${options.seconds}s`,
    '--latency',
    '--timeout',
    '30s',
    ...(options.token ? ['-H', `Authorization: Bearer ${options.token}`] : []),
    url,
  ];
  const child = new Deno.Command('wrk', { args, stdout: 'piped', stderr: 'piped' }).spawn();
  // wrk prints its figures for the time it ran when interrupted.
  options.until?.finally(() => child.kill('SIGINT'));
  const out = await child.output();
  const text = new TextDecoder().decode(out.stdout);
  if (!/requests in/.test(text)) {
    throw new Error(`wrk failed: ${new TextDecoder().decode(out.stderr)}\n${text}`);
  }
  const latency = (p: string) => {
    const m = new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(text);
    if (!m) throw new Error(`no ${p}% line in wrk's output:\n${text}`);
    return ms(m[1], m[2]);
  };
  const n = Number(/(\d+) requests in/.exec(text)?.[1] ?? NaN);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  const socketErrors = socket ? socket.slice(1).reduce((a, b) => a + Number(b), 0) : 0;
  return {
    n,
    errors: non2xx + socketErrors,
    p50: latency('50'),
    p99: latency('99'),
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1] ?? NaN),
  };
}

async function denoLoad(url: string, options: LoadOptions): Promise<Omit<Figures, 'bytes'>> {
  const latencies: number[] = [];
  let errors = 0;
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  const started = performance.now();
  const end = started + options.seconds * 1000;
  let stopped = false;
  options.until?.finally(() => stopped = true);
  await Promise.all(Array.from({ length: options.connections }, async () => {
    while (performance.now() < end && !stopped) {
      const t0 = performance.now();
      const r = await fetch(url, { headers });
      await r.arrayBuffer();
      latencies.push(performance.now() - t0);
      if (!r.ok) errors++;
    }
  }));
  const elapsed = (performance.now() - started) / 1000;
  return { n: latencies.length, errors, ...percentiles(latencies), rps: latencies.length / elapsed };
}
