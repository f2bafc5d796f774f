/**
 * One timed `wrk` run (Debian's package) with the CPU each server process spent meanwhile, per request: how
 * bench:stream tells where a machine's time went, not only how fast the answers came.
 */
import { cpuDuring, type Parties } from './cpu.ts';

/** Whether Debian's wrk is installed; without it the benches load with bench/support/load_client.ts. */
export const HAVE_WRK = (() => {
  try {
    return Deno.statSync('/usr/bin/wrk').isFile;
  } catch {
    return false;
  }
})();
const LOAD_CLIENT = new URL('./load_client.ts', import.meta.url).pathname;

export interface WrkResult {
  mbPerSec: number;
  requestsPerSec: number;
  non2xx: number;
  /** CPU microseconds per request of each server party, and of the client (wrk) itself. */
  cpuPerRequest: Record<string, number>;
  raw: string;
}

export interface WrkOptions {
  seconds: number;
  /** A Lua script of wrk's (the requests' headers). */
  script?: string;
  /** Open connections (default 32) over wrk's two threads, or over one up to 8. */
  connections?: number;
}

/**
 * One timed wrk run against `url`, with the CPU each of `parties` used meanwhile. wrk runs under bash so that
 * bash's `times` can tell the client's own CPU time (its last line).
 */
export async function wrk(url: string, parties: Parties, options: WrkOptions): Promise<WrkResult> {
  const { seconds, script, connections = 32 } = options;
  const args = [connections <= 8 ? '-t1' : '-t2', `-c${connections}`, `-d${seconds}s`, '--timeout', '30s'];
  if (script) args.push('-s', script);
  args.push(url);
  // Without wrk, the benches' own generator (load_client.ts), read the same way; its figures compare within a run.
  const command = HAVE_WRK ? ['-c', '/usr/bin/wrk "$@"; times', 'wrk', ...args] : [
    '-c',
    `"${Deno.execPath()}" run -A "${LOAD_CLIENT}" "$@"; times`,
    'load',
    url,
    String(seconds),
    String(connections),
    ...(script ? [script] : []),
  ];
  const [out, used] = await cpuDuring(
    parties,
    () => new Deno.Command('/bin/bash', { args: command, stdout: 'piped', stderr: 'piped' }).output(),
  );
  const raw = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  const transfer = /Transfer\/sec:\s+([\d.]+)([KMG]?B)/.exec(raw);
  const units: Record<string, number> = { B: 1 / 1048576, KB: 1 / 1024, MB: 1, GB: 1024 };
  const requestsPerSec = Number(/Requests\/sec:\s+([\d.]+)/.exec(raw)?.[1] ?? 0);
  // `times`: the shell's user and system time, then its children's (wrk's), as 0m1.234s.
  const client = /(\d+)m([\d.]+)s (\d+)m([\d.]+)s\s*$/.exec(raw.trim());
  const clientSeconds = client
    ? Number(client[1]) * 60 + Number(client[2]) + Number(client[3]) * 60 + Number(client[4])
    : 0;
  const requests = requestsPerSec * seconds;
  const perRequest = (cpuSeconds: number) => requests ? (cpuSeconds / requests) * 1e6 : 0;
  return {
    mbPerSec: transfer ? Number(transfer[1]) * units[transfer[2]] : 0,
    requestsPerSec,
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(raw)?.[1] ?? 0),
    cpuPerRequest: {
      ...Object.fromEntries(Object.entries(used).map(([name, cpuSeconds]) => [name, perRequest(cpuSeconds)])),
      [HAVE_WRK ? 'client (wrk)' : 'client (load_client.ts)']: perRequest(clientSeconds),
    },
    raw,
  };
}

/**
 * Writes a wrk Lua script at `path` whose requests rotate over `tokens` as bearer tokens (one reader session per
 * token), and answers `path`. `proxied`: each request also carries what nginx sends the API from in front of it
 * (X-Forwarded-For and a request id of its own), for runs straight at the API.
 */
export async function writeSessionsScript(
  path: string,
  tokens: readonly string[],
  options: { proxied?: boolean } = {},
): Promise<string> {
  const proxied = options.proxied
    ? `
    ["X-Forwarded-For"] = "127.0.0.1",
    ["X-Request-Id"] = string.format("bench%016x", n),`
    : '';
  await Deno.writeTextFile(
    path,
    `local tokens = { ${tokens.map((t) => `"${t}"`).join(', ')} }
local n = 0
function request()
  n = n + 1
  return wrk.format(nil, nil, {
    ["Authorization"] = "Bearer " .. tokens[(n % #tokens) + 1],${proxied}
  })
end
`,
  );
  return path;
}
