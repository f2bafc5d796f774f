/**
 * The commands an operator's document gives, read from the document itself so that a test runs them as written:
 * the `sh` blocks of one section (a heading and everything up to the next heading of its level or above), one
 * command a line, comments and blank lines left out.
 */
import { ROOT } from './instance.ts';

/** The `sh` blocks under `heading` (`## First administrator`) in `file` (relative to the repository), as lines. */
export async function docCommands(file: string, heading: string): Promise<string[][]> {
  const text = await Deno.readTextFile(`${ROOT}${file}`);
  const level = /^#+/.exec(heading)![0].length;
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.trim() === heading);
  if (start < 0) throw new Error(`${file} has no heading "${heading}"`);
  const end = lines.findIndex((l, i) => i > start && /^#+ /.test(l) && /^#+/.exec(l)![0].length <= level);
  const section = lines.slice(start + 1, end < 0 ? undefined : end);
  const blocks: string[][] = [];
  let block: string[] | undefined;
  for (const line of section) {
    const fence = line.trim();
    if (!block && fence === '```sh') block = [];
    else if (block && fence === '```') {
      blocks.push(block);
      block = undefined;
    } else if (block) {
      const command = line.replace(/(^|\s)#\s.*$/, '').trim();
      if (command) block.push(command);
    }
  }
  if (!blocks.length) throw new Error(`${file}, "${heading}": no sh block`);
  return blocks;
}
