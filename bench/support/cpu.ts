/**
 * CPU time of processes, from /proc (Linux): what a bench run cost each party, so a throughput ratio comes with
 * where the machine's time went (bench:stream's CPU per reading).
 */
const TICKS_PER_SECOND = 100; // USER_HZ: 100 on every Linux this runs on

/** Fields of /proc/PID/stat after the command name (which may hold spaces and parentheses). */
function statFields(pid: number): string[] | undefined {
  try {
    const text = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined; // exited
  }
}

/** User plus system seconds the processes have used so far (an exited one counts 0). */
export function cpuSeconds(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    const fields = statFields(pid);
    // utime and stime are the stat file's 14th and 15th fields; the 3rd is the first after the name.
    if (fields) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / TICKS_PER_SECOND;
}

/** Every process whose parent is `pid` (nginx's workers under its master), or whose command name is `name`. */
export function processes(match: { parent: number } | { name: string }): number[] {
  const found: number[] = [];
  for (const entry of Deno.readDirSync('/proc')) {
    if (!/^\d+$/.test(entry.name)) continue;
    const pid = Number(entry.name);
    if ('parent' in match) {
      if (Number(statFields(pid)?.[1]) === match.parent) found.push(pid);
      continue;
    }
    try {
      if (Deno.readTextFileSync(`/proc/${pid}/comm`).trim() === match.name) found.push(pid);
    } catch { /* exited */ }
  }
  return found;
}

/** The processes of each party of a run, by the name to print; listed again at its end (new backends count). */
export type Parties = () => Record<string, number[]>;

/** CPU seconds each party used while `run` ran. */
export async function cpuDuring<T>(
  parties: Parties,
  run: () => Promise<T>,
): Promise<[T, Record<string, number>]> {
  const before = new Map<number, number>();
  for (const pids of Object.values(parties())) for (const pid of pids) before.set(pid, cpuSeconds([pid]));
  const result = await run();
  const used = Object.fromEntries(
    Object.entries(parties()).map(([name, pids]) => [
      name,
      pids.reduce((sum, pid) => sum + cpuSeconds([pid]) - (before.get(pid) ?? 0), 0),
    ]),
  );
  return [result, used];
}
