/**
 * A server process for the benches (the API as `npm start` runs it, or bench/bare_handler.ts): started on a free
 * port of 127.0.0.1, ready once it prints its address (and `ready`, when given), its output drained so it never
 * blocks on a full pipe. `root`: another checkout of the portal (a baseline to compare with).
 */
const ROOT = new URL('../../', import.meta.url).pathname;

export interface BenchServer {
  /** http://127.0.0.1:PORT */
  base: string;
  /** The process, to read its memory from /proc. */
  pid: number;
  stop(): Promise<void>;
}

export async function startBenchServer(
  env: Record<string, string>,
  options: { script?: string; denoArgs?: string[]; root?: string; ready?: RegExp } = {},
): Promise<BenchServer> {
  const root = options.root ?? ROOT;
  const child = new Deno.Command(`${root}node_modules/.bin/deno`, {
    args: ['run', '-A', ...(options.denoArgs ?? []), options.script ?? 'api/main.ts'],
    cwd: root,
    env: { ...env, PORT: '0', HOST: '127.0.0.1' },
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
    if (match && (!options.ready || options.ready.test(seen))) base = `http://127.0.0.1:${match[1]}`;
  }
  const drained = (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })();
  return {
    base,
    pid: child.pid,
    async stop() {
      child.kill('SIGTERM');
      await child.status;
      await drained.catch(() => {});
    },
  };
}
