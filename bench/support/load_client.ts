/**
 * The benches' own load generator, for a machine without wrk: `connections` loops, each sending one GET after
 * another and reading every answer to its end, for `seconds`; the requests rotate over the bearer tokens of a wrk
 * Lua script written by writeSessionsScript (and its proxied headers), as wrk would send them. It prints wrk's
 * summary lines (Requests/sec, Transfer/sec, Non-2xx or 3xx responses), so the caller reads it as it reads wrk.
 * Deno's fetch reads faster than one wrk thread on small answers and slower on large ones: compare modes within
 * one run, never with figures wrk measured.
 *
 *   deno run -A bench/support/load_client.ts URL SECONDS CONNECTIONS [SCRIPT]
 */
const [url, secondsArg, connectionsArg, script] = Deno.args;
const seconds = Number(secondsArg);
const connections = Number(connectionsArg);

const lua = script ? await Deno.readTextFile(script) : '';
const tokens = [...(/local tokens = \{([^}]*)\}/.exec(lua)?.[1] ?? '').matchAll(/"([^"]+)"/g)].map((m) =>
  m[1]
);
const proxied = lua.includes('X-Forwarded-For');

let requests = 0;
let bytes = 0;
let non2xx = 0;
let n = 0;
const end = performance.now() + seconds * 1000;

async function loop(): Promise<void> {
  // One client per loop: its own keep-alive connection, as one of wrk's connections.
  const client = Deno.createHttpClient({ poolMaxIdlePerHost: 1 });
  try {
    while (performance.now() < end) {
      n++;
      const headers: Record<string, string> = {};
      if (tokens.length) headers.authorization = `Bearer ${tokens[n % tokens.length]}`;
      if (proxied) {
        headers['x-forwarded-for'] = '127.0.0.1';
        headers['x-request-id'] = `bench${n.toString(16).padStart(16, '0')}`;
      }
      const r = await fetch(url, { headers, client });
      if (r.status < 200 || r.status >= 400) non2xx++;
      const reader = r.body?.getReader();
      if (reader) {
        while (true) {
          const { done, value } = await reader.read();
          if (done) break;
          bytes += value.length;
        }
      }
      requests++;
    }
  } finally {
    client.close();
  }
}

const started = performance.now();
await Promise.all(Array.from({ length: connections }, loop));
const elapsed = (performance.now() - started) / 1000;
console.log(`Requests/sec: ${(requests / elapsed).toFixed(2)}`);
console.log(`Transfer/sec: ${(bytes / elapsed / 1048576).toFixed(2)}MB`);
if (non2xx) console.log(`Non-2xx or 3xx responses: ${non2xx}`);
