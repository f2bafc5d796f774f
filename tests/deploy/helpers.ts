/** What the deployment tests share: running a command with its output kept for the failure message. */

export const ROOT = new URL('../../', import.meta.url).pathname;

export interface Ran {
  code: number;
  output: string;
}

/** Runs a command to the end; stdout and stderr together, so a failure shows what the tool said. */
export async function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; stdin?: Uint8Array } = {},
): Promise<Ran> {
  const child = new Deno.Command(command, {
    args,
    cwd: options.cwd ?? ROOT,
    env: { NO_COLOR: '1', ...options.env },
    stdin: options.stdin ? 'piped' : 'null',
    stdout: 'piped',
    stderr: 'piped',
  }).spawn();
  if (options.stdin) {
    const writer = child.stdin.getWriter();
    await writer.write(options.stdin);
    await writer.close();
  }
  const { code, stdout, stderr } = await child.output();
  const text = new TextDecoder();
  return { code, output: text.decode(stdout) + text.decode(stderr) };
}

/** Runs a command that must succeed; throws with its output otherwise. */
export async function must(
  command: string,
  args: string[],
  options: Parameters<typeof run>[2] = {},
): Promise<string> {
  const result = await run(command, args, options);
  if (result.code !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited ${result.code}:\n${result.output.slice(-4000)}`);
  }
  return result.output;
}

/** Whether a program is on PATH (the deployment tests need Debian's tools). */
export async function have(program: string): Promise<boolean> {
  return (await run('sh', ['-c', `command -v ${program}`])).code === 0;
}

/** Polls until `probe` resolves true or the deadline passes. */
export async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
}
