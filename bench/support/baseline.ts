/**
 * A baseline commit's source checked out beside this one (a detached git worktree sharing this checkout's
 * node_modules), so a bench runs both in the same run on the same machine; removed again when it is done.
 */
const ROOT = new URL('../../', import.meta.url).pathname;

async function git(...args: string[]): Promise<void> {
  const { success, stderr } = await new Deno.Command('git', {
    args,
    cwd: ROOT,
    stdout: 'null',
    stderr: 'piped',
  }).output();
  if (!success) throw new Error(`git ${args.join(' ')}: ${new TextDecoder().decode(stderr)}`);
}

/** Checks `ref` out beside this checkout; answers its root, ending with a slash. */
export async function checkOutBaseline(ref: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: 'lmp-bench-baseline-' });
  await git('worktree', 'add', '--detach', dir, ref);
  await Deno.symlink(`${ROOT}node_modules`, `${dir}/node_modules`);
  return `${dir}/`;
}

/** Removes a checkout made by checkOutBaseline. */
export async function removeBaseline(root: string): Promise<void> {
  await git('worktree', 'remove', '--force', root);
}
