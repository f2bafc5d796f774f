/**
 * The real server in a child process, as `npm start` runs it, on a free port
 * with a fresh embedded database (seeded with the demo data) in a temporary
 * folder. Used by the browser suite and by streaming tests.
 */
import assert from 'node:assert/strict';
import { copyMigratedPgliteDir } from './db.ts';

const ROOT = new URL('../../', import.meta.url).pathname;

/** The PWA build the server serves (PWA_DIST may point at another folder). */
export const PWA_DIST = Deno.env.get('PWA_DIST') ?? `${ROOT}pwa/dist`;

/** A browser test needs the built PWA; say how to build it rather than fail on a blank page. */
export function assertPwaBuilt(): void {
  let built = false;
  try {
    built = Deno.statSync(`${PWA_DIST}/index.html`).isFile;
  } catch { /* missing */ }
  assert.ok(
    built,
    `${PWA_DIST} is missing: run node_modules/.bin/vite build --config pwa/vite.config.ts first`,
  );
}

export interface TestServer {
  url: string;
  dataDir: string;
  /** The server process, to read its memory. */
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts the server; resolves once it listens. Extra environment variables may be given. On the embedded
 * database it starts on a copy of the tests' migrated template (tests/support/db.ts) rather than making and
 * migrating a cluster of its own, as a restarted installation does; it seeds the demo as on any first start.
 */
export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = await Deno.makeTempDir({ prefix: 'lmp-e2e-' });
  if (!(env.DATABASE_URL ?? Deno.env.get('DATABASE_URL'))) await copyMigratedPgliteDir(`${dataDir}/pgdata`);
  const child = new Deno.Command(`${ROOT}node_modules/.bin/deno`, {
    args: ['run', '-A', 'api/main.ts'],
    cwd: ROOT,
    env: { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, PWA_DIST, ...env },
    stdout: 'piped',
    stderr: 'inherit',
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = '';
  // A hang guard, not a speed check: the start hashes every demo account's secret, which on a loaded 2-core
  // machine has taken over a minute.
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    // A server that never prints must still fail at the deadline, not hang on read().
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<{ value: undefined; done: true }>((resolve) => {
      timer = setTimeout(() => resolve({ value: undefined, done: true }), Math.max(0, deadline - Date.now()));
    });
    const { value, done } = await Promise.race([reader.read(), timeout]);
    clearTimeout(timer);
    if (done) break;
    seen += value;
    const match = /http:\/\/localhost:(\d+)/.exec(seen);
    if (match && /Demo accounts:[\s\S]*135790/.test(seen)) {
      // Keep draining stdout so the child never blocks on a full pipe.
      (async () => {
        try {
          while (!(await reader.read()).done) { /* drain */ }
        } catch { /* closed */ }
      })();
      return {
        url: `http://localhost:${match[1]}`,
        dataDir,
        pid: child.pid,
        async stop() {
          try {
            child.kill('SIGTERM');
          } catch { /* already gone */ }
          await child.status;
          await Deno.remove(dataDir, { recursive: true }).catch(() => {});
        },
      };
    }
  }
  child.kill('SIGKILL');
  throw new Error(`server did not start; it printed:\n${seen}`);
}
