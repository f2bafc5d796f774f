/**
 * One API process as an operator runs it (`deno run -A api/main.ts`) with the environment given, for the
 * tests of several instances, shutdown and backup. Keeps its stdout lines (the banner and the JSON log).
 */
import postgres from 'postgres';

export const ROOT = new URL('../../', import.meta.url).pathname;
export const DENO = `${ROOT}node_modules/.bin/deno`;

export interface Instance {
  port: number;
  url: string;
  lines: string[];
  /** Its stderr lines: the log's warnings and errors. */
  errors: string[];
  child: Deno.ChildProcess;
  /** Sends the signal and waits for the exit code. */
  stop(signal?: Deno.Signal): Promise<number>;
}

/** Starts the API; resolves once it listens (PORT=0: a free port, read from its banner). */
export async function startInstance(env: Record<string, string>): Promise<Instance> {
  const child = new Deno.Command(DENO, {
    args: ['run', '-A', 'api/main.ts'],
    cwd: ROOT,
    env: { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', NO_COLOR: '1', ...env },
    stdout: 'piped',
    stderr: 'piped',
  }).spawn();
  const lines: string[] = [];
  const errors: string[] = [];
  const { promise: listening, resolve } = Promise.withResolvers<number>();
  const pump = async (stream: ReadableStream<Uint8Array<ArrayBuffer>>, into: string[]) => {
    let buffer = '';
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      buffer += chunk;
      let eol;
      while ((eol = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 1);
        into.push(line);
        const match = /http:\/\/localhost:(\d+)/.exec(line);
        if (match) resolve(Number(match[1]));
      }
    }
  };
  const pumped = Promise.all([pump(child.stdout, lines), pump(child.stderr, errors)]);
  const exited = child.status.then(async (s) => {
    await pumped;
    throw new Error(
      `the API exited (${s.code}) before listening:\n${[...lines, ...errors].join('\n').slice(-3000)}`,
    );
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the API did not listen within 90 s:\n${lines.join('\n')}`)),
      90_000,
    );
  });
  try {
    const port = await Promise.race([listening, exited, timeout]);
    exited.catch(() => {/* reported through stop() */});
    return {
      port,
      url: `http://127.0.0.1:${port}`,
      lines,
      errors,
      child,
      async stop(signal: Deno.Signal = 'SIGTERM') {
        try {
          child.kill(signal);
        } catch { /* already gone */ }
        const { code } = await child.status;
        await pumped.catch(() => {});
        return code;
      },
    };
  } catch (error) {
    try {
      child.kill('SIGKILL');
    } catch { /* gone */ }
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** A fresh, empty database on the server of TEST_DATABASE_URL, and a way to drop it. */
export async function freshDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `lmp_ops_${Date.now()}_${crypto.randomUUID().slice(0, 8)}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

/** A free TCP port on 127.0.0.1 (for nginx, which cannot be told to pick one). */
export function freePort(): number {
  const listener = Deno.listen({ hostname: '127.0.0.1', port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** Signs in through `base` and returns the token; throws with the answer when it fails. */
export async function signInAt(base: string, username: string, password: string): Promise<string> {
  const r = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password, entity: 'default' }),
  });
  const body = await r.json();
  if (r.status !== 200) {
    throw new Error(`sign-in of ${username} at ${base}: ${r.status} ${JSON.stringify(body)}`);
  }
  return body.token;
}
