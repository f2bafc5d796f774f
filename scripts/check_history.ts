/**
 * Documents and code comments say how things are and why, in the product's terms; the history of how they came
 * to be belongs to git. This check finds the words that tell history instead: a numbered session or issue, or
 * what reviewers found. Run by `npm test` through tests/checks/history.test.ts.
 */
import { join, relative } from 'node:path';

/** What a diary line looks like (the brackets keep this file from matching itself). */
export const HISTORY_PATTERN = /sess[i]on [0-9]+|iss[u]e [0-9]+|a rev[i]ew found/i;

const CHECKED = /\.(md|ts|tsx|mjs|js|sql|css|html|ya?ml|conf|sh|service|toml)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git', 'data', 'release']);

export interface HistoryLine {
  file: string;
  line: number;
  text: string;
}

/** Every line under `root` that tells history, with its file (relative) and line number. */
export async function findHistory(root: string): Promise<HistoryLine[]> {
  const found: HistoryLine[] = [];
  async function walk(dir: string) {
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) {
        if (!SKIPPED_DIRS.has(entry.name)) await walk(path);
        continue;
      }
      const file = relative(root, path);
      if (!entry.isFile || !CHECKED.test(entry.name)) continue;
      const lines = (await Deno.readTextFile(path)).split('\n');
      lines.forEach((text, i) => {
        if (HISTORY_PATTERN.test(text)) found.push({ file, line: i + 1, text: text.trim() });
      });
    }
  }
  await walk(root);
  return found;
}

if (import.meta.main) {
  const found = await findHistory(new URL('..', import.meta.url).pathname);
  for (const f of found) console.log(`${f.file}:${f.line}: ${f.text}`);
  Deno.exit(found.length ? 1 : 0);
}
