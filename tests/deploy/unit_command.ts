/**
 * The systemd unit's ExecStart and Environment lines, moved onto a test's folders: what the unit would
 * run, with exactly its Deno permissions, started without systemd (which is not PID 1 in CI's sandbox).
 */
import { ROOT } from './helpers.ts';

const INSTALL = '/opt/legal-mail-portal';
const STATE = '/var/lib/legal-mail-portal';

export interface UnitCommand {
  program: string;
  args: string[];
  env: Record<string, string>;
}

/** Parses deploy/legal-mail-portal.service; `app` stands for /opt/…, `state` for /var/lib/…. */
export async function unitCommand(app: string, state: string): Promise<UnitCommand> {
  const text = (await Deno.readTextFile(`${ROOT}deploy/legal-mail-portal.service`)).replace(/\\\n\s*/g, ' ');
  const move = (s: string) => s.replaceAll(INSTALL, app).replaceAll(STATE, state);
  const exec = /^ExecStart=(.+)$/m.exec(text);
  if (!exec) throw new Error('the unit has no ExecStart');
  const [program, ...args] = move(exec[1]).trim().split(/\s+/);
  const env: Record<string, string> = {};
  for (const [, key, value] of text.matchAll(/^Environment=([A-Z_]+)=(.*)$/gm)) env[key] = move(value.trim());
  return { program, args, env };
}
