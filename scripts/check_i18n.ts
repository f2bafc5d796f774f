/**
 * The PWA's text lives in its catalogues (pwa/src/i18n/<language>.json), checked on every `npm test`:
 * - no user-facing text written in a component: JSX text, a text-bearing prop (placeholder, title, aria-label,
 *   alt, label, antd's okText…), a text-bearing property of an object (a column's `title`, a modal's
 *   `content`), or a toast's or message's text, given as a string literal with a letter in it;
 * - every catalogue key is used: its full name appears as a string literal in the source (`t('list.view')`,
 *   a column's `title: 'columns.name'`), or it sits under a section the code reaches by a value
 *   (DYNAMIC_SECTIONS: a refusal's code, a state's postal code), or it is a plural form of a used key (`lock.wrongPin_one`).
 * The source is parsed with TypeScript's own parser, so comments, imports and class names never count.
 * Run: `deno run -R scripts/check_i18n.ts [root]`; exits 1 and lists each problem.
 */
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

export interface Problem {
  file: string;
  line: number;
  rule: string;
}

/** Props whose string is read or heard by a person. */
const TEXT_PROPS = new Set([
  'placeholder',
  'title',
  'aria-label',
  'aria-description',
  'aria-placeholder',
  'aria-roledescription',
  'aria-valuetext',
  'alt',
  'label',
  'okText',
  'cancelText',
  'content',
  'description',
  'message',
  'tooltip',
  'emptyText',
  'extra',
  'help',
  'subtitle',
  'heading',
  'text',
  'addonBefore',
  'addonAfter',
  'checkedChildren',
  'unCheckedChildren',
]);

/** Objects' properties whose string is shown (antd's columns, Modal.confirm, notification, form rules). */
const TEXT_PROPERTIES = new Set([
  'title',
  'label',
  'placeholder',
  'content',
  'okText',
  'cancelText',
  'description',
  'message',
  'tooltip',
  'emptyText',
  'text',
]);

/** `toast.error('…')`, `message.success('…')`: the methods whose first argument is shown. */
const TOAST_METHODS = new Set(['success', 'error', 'info', 'warning', 'loading']);
const TOAST_OBJECTS = /^(toast|message|messageApi|notification)$/;

/**
 * Strings with a letter that are not text to translate: none yet. A symbol without a letter ('×', '…', '#')
 * is never reported, so it needs no entry.
 */
export const ALLOWED_TEXTS: ReadonlySet<string> = new Set([]);

/**
 * Files whose screens still hold English literals, each converted screen by screen; the check fails on a file
 * listed here that has none left, so the list only shrinks.
 */
export const PENDING_FILES: ReadonlySet<string> = new Set([]);

/**
 * Catalogue sections whose keys the code builds from a value: a refusal's `code` (lib/api.ts codeText), a
 * setting's key (admin/settings/settingsLogic.ts; tests/checks/i18n.test.ts holds the section to the settings
 * catalogue, key for key, so none is unused), a state's USPS code (auth/registrationForm.ts stateName; the
 * registration test holds the section to contract/rules/registration.ts's list).
 */
export const DYNAMIC_SECTIONS = [
  'codes.',
  'settingItems.',
  'usStates.',
  'audit.events.',
  'audit.resources.',
  'users.import.reasons.',
];

const LETTER = /\p{L}/u;
/** A catalogue key given as a value (`title: 'columns.name'`) is not text: the screen translates it. */
const KEY = /^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)+$/;

function sourceFiles(dir: string): string[] {
  const found: string[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory) found.push(...sourceFiles(path));
    else if (entry.isFile && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$|\.d\.ts$/.test(entry.name)) {
      found.push(path);
    }
  }
  return found.sort();
}

function isText(value: string): boolean {
  return LETTER.test(value) && !KEY.test(value) && !ALLOWED_TEXTS.has(value.trim());
}

/** The string literals an expression can evaluate to (not those it passes to a call, e.g. `t('key')`). */
function shownStrings(node: ts.Expression): ts.Node[] {
  if (ts.isParenthesizedExpression(node)) return shownStrings(node.expression);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node];
  if (ts.isTemplateExpression(node)) {
    const parts = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)];
    return parts.some(isText) ? [node] : [];
  }
  if (ts.isConditionalExpression(node)) {
    return [...shownStrings(node.whenTrue), ...shownStrings(node.whenFalse)];
  }
  if (ts.isBinaryExpression(node)) {
    const kind = node.operatorToken.kind;
    if (kind === ts.SyntaxKind.BarBarToken || kind === ts.SyntaxKind.QuestionQuestionToken) {
      return [...shownStrings(node.left), ...shownStrings(node.right)];
    }
    if (kind === ts.SyntaxKind.AmpersandAmpersandToken) return shownStrings(node.right);
    if (kind === ts.SyntaxKind.PlusToken) return [...shownStrings(node.left), ...shownStrings(node.right)];
  }
  return [];
}

function literalText(node: ts.Node): string {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) {
    return [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join('…');
  }
  return node.getText();
}

function propertyName(name: ts.PropertyName | ts.JsxAttributeName): string {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name)) return name.text;
  if (ts.isJsxNamespacedName(name)) return `${name.namespace.text}:${name.name.text}`;
  return name.getText();
}

/** The user-facing literals of one source file. */
export function literalsIn(path: string, text: string): { line: number; text: string; where: string }[] {
  const source = ts.createSourceFile(
    path,
    text,
    ts.ScriptTarget.Latest,
    true,
    path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: { line: number; text: string; where: string }[] = [];
  const report = (node: ts.Node, where: string, value = literalText(node)) => {
    if (!isText(value)) return;
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    found.push({ line: line + 1, text: value.trim(), where });
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) {
      report(node, 'JSX text', node.text);
    } else if (ts.isJsxExpression(node) && node.expression && !ts.isJsxAttribute(node.parent)) {
      for (const literal of shownStrings(node.expression)) report(literal, 'JSX child');
    } else if (ts.isJsxAttribute(node) && node.initializer) {
      const name = propertyName(node.name);
      if (TEXT_PROPS.has(name)) {
        const init = node.initializer;
        if (ts.isStringLiteral(init)) report(init, `${name}=`);
        else if (ts.isJsxExpression(init) && init.expression) {
          for (const literal of shownStrings(init.expression)) report(literal, `${name}=`);
        }
      }
    } else if (ts.isPropertyAssignment(node) && TEXT_PROPERTIES.has(propertyName(node.name))) {
      for (const literal of shownStrings(node.initializer)) report(literal, `${propertyName(node.name)}:`);
    } else if (
      ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) &&
      TOAST_METHODS.has(node.expression.name.text) &&
      TOAST_OBJECTS.test(node.expression.expression.getText(source).split('.').pop() ?? '') &&
      node.arguments.length > 0
    ) {
      for (const literal of shownStrings(node.arguments[0])) {
        report(literal, `${node.expression.getText(source)}()`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every leaf key of a catalogue, dotted. */
export function catalogueKeys(catalogue: unknown, prefix = ''): string[] {
  if (typeof catalogue !== 'object' || catalogue === null) return [prefix];
  return Object.entries(catalogue).flatMap(([key, value]) =>
    catalogueKeys(value, prefix ? `${prefix}.${key}` : key)
  );
}

/** i18next's plural suffixes (CLDR categories): `wrongPin_one` is a form of `wrongPin`. */
const PLURAL = /_(zero|one|two|few|many|other)$/;

/** The catalogue keys no source file names. */
export function unusedKeys(keys: readonly string[], sources: readonly string[]): string[] {
  const literals = new Set<string>();
  for (const text of sources) {
    for (const match of text.matchAll(/['"`]([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)+)['"`]/g)) {
      literals.add(match[1]);
    }
  }
  return keys.filter((key) =>
    !DYNAMIC_SECTIONS.some((section) => key.startsWith(section)) &&
    !literals.has(key) && !literals.has(key.replace(PLURAL, ''))
  );
}

/** Every problem under `root` (a repository checkout). */
export async function findProblems(root: string): Promise<Problem[]> {
  root = resolve(root);
  const src = join(root, 'pwa', 'src');
  const problems: Problem[] = [];
  const texts: string[] = [];
  const files = sourceFiles(src);
  const pendingSeen = new Set<string>();
  for (const file of files) {
    const text = await Deno.readTextFile(file);
    texts.push(text);
    const name = relative(root, file);
    const literals = literalsIn(file, text);
    if (PENDING_FILES.has(name)) {
      if (literals.length) pendingSeen.add(name);
      continue;
    }
    for (const literal of literals) {
      problems.push({
        file: name,
        line: literal.line,
        rule: `text belongs in the catalogues (pwa/src/i18n/), not in the component (${literal.where} '${
          literal.text.slice(0, 60)
        }')`,
      });
    }
  }
  for (const name of PENDING_FILES) {
    if (!pendingSeen.has(name)) {
      problems.push({
        file: name,
        line: 0,
        rule:
          'listed in PENDING_FILES (scripts/check_i18n.ts) but holds no literal text: take it off the list',
      });
    }
  }
  const english = JSON.parse(await Deno.readTextFile(join(src, 'i18n', 'en.json')));
  for (const key of unusedKeys(catalogueKeys(english), texts)) {
    problems.push({ file: 'pwa/src/i18n/en.json', line: 0, rule: `key '${key}' is used nowhere` });
  }
  return problems;
}

if (import.meta.main) {
  const root = Deno.args[0] ?? new URL('..', import.meta.url).pathname;
  const problems = await findProblems(root);
  for (const p of problems) console.log(`${p.file}:${p.line}: ${p.rule}`);
  console.log(problems.length ? `${problems.length} i18n problem(s)` : 'i18n: no problem');
  Deno.exit(problems.length ? 1 : 0);
}
