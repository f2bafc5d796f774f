/**
 * The boundaries between the two halves, checked on every `npm test`:
 * - `contract/` (what the API and the PWA share) imports nothing outside itself, npm packages included;
 * - `pwa/` imports nothing from `api/` (what both need lives in `contract/`);
 * - `api/domain/` does not import Hono and names no HTTP status (api/http/failures.ts maps reasons to them).
 * Run: `deno run -R scripts/check_boundaries.ts [root]`; exits 1 and lists each violation.
 */
import { join, normalize, relative, resolve } from 'node:path';

export interface Violation {
  file: string;
  line: number;
  rule: string;
}

const SOURCE = /\.(ts|tsx|mts|js|mjs)$/;
/** `import … from 'x'`, `export … from 'x'`, `import 'x'`, `import('x')`. */
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g;
/** A status number where a domain function would choose one: `status: 404`, `new AppError(409`, `c.json(x, 400)`. */
const HTTP_STATUS = /\bstatus\s*:\s*[1-5]\d\d\b|AppError\(\s*[1-5]\d\d|HTTPException\(\s*[1-5]\d\d/;

async function* sourceFiles(dir: string): AsyncGenerator<string> {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* sourceFiles(path);
    else if (entry.isFile && SOURCE.test(entry.name)) yield path;
  }
}

/** The imports of a source text with their line numbers (comments are skipped line by line). */
function importsOf(text: string): { specifier: string; line: number }[] {
  const found: { specifier: string; line: number }[] = [];
  text.split('\n').forEach((lineText, index) => {
    const trimmed = lineText.trim();
    if (trimmed.startsWith('//') || trimmed.startsWith('*') || trimmed.startsWith('/*')) return;
    for (const match of lineText.matchAll(IMPORT)) found.push({ specifier: match[1], line: index + 1 });
  });
  return found;
}

function inside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith('/'));
}

/** Every violation of the three rules under `root` (a repository checkout). */
export async function findViolations(root: string): Promise<Violation[]> {
  root = resolve(root);
  const contract = join(root, 'contract');
  const api = join(root, 'api');
  const domain = join(root, 'api', 'domain');
  const violations: Violation[] = [];
  const check = async (dir: string, rules: (file: string, text: string) => void) => {
    for await (const file of sourceFiles(dir)) rules(file, await Deno.readTextFile(file));
  };
  const report = (file: string, line: number, rule: string) =>
    violations.push({ file: relative(root, file), line, rule });

  await check(contract, (file, text) => {
    for (const { specifier, line } of importsOf(text)) {
      const local = specifier.startsWith('.') && inside(normalize(join(file, '..', specifier)), contract);
      if (!local) report(file, line, `contract/ imports only contract/ files, not '${specifier}'`);
    }
  });
  await check(join(root, 'pwa'), (file, text) => {
    for (const { specifier, line } of importsOf(text)) {
      if (specifier.startsWith('.') && inside(normalize(join(file, '..', specifier)), api)) {
        report(
          file,
          line,
          `pwa/ must not import from api/ ('${specifier}'); shared code belongs in contract/`,
        );
      }
    }
  });
  await check(domain, (file, text) => {
    for (const { specifier, line } of importsOf(text)) {
      if (specifier === 'hono' || specifier.startsWith('hono/') || specifier.startsWith('npm:hono')) {
        report(
          file,
          line,
          `api/domain/ must not import Hono ('${specifier}'); HTTP lives in api/http and api/routes`,
        );
      }
    }
    text.split('\n').forEach((lineText, index) => {
      if (HTTP_STATUS.test(lineText)) {
        report(file, index + 1, 'api/domain/ names no HTTP status; return a reason (api/domain/outcome.ts)');
      }
    });
  });
  return violations;
}

if (import.meta.main) {
  const root = Deno.args[0] ?? new URL('..', import.meta.url).pathname;
  const violations = await findViolations(root);
  for (const v of violations) console.log(`${v.file}:${v.line}: ${v.rule}`);
  console.log(violations.length ? `${violations.length} boundary violation(s)` : 'boundaries: no violation');
  Deno.exit(violations.length ? 1 : 0);
}
