/**
 * Both catalogues hold the same keys, with the same placeholders, and nothing empty: a screen never shows a key
 * or another language's text. (Which keys the code uses, and that no text is left in a component, is
 * tests/checks/i18n.test.ts: it reads the source.)
 */
import assert from 'node:assert/strict';
import en from './en.json' with { type: 'json' };
import es from './es.json' with { type: 'json' };

function leaves(catalogue: unknown, prefix = ''): Map<string, unknown> {
  const found = new Map<string, unknown>();
  if (typeof catalogue !== 'object' || catalogue === null) return found.set(prefix, catalogue);
  for (const [key, value] of Object.entries(catalogue)) {
    for (const [k, v] of leaves(value, prefix ? `${prefix}.${key}` : key)) found.set(k, v);
  }
  return found;
}

const CATALOGUES = { en: leaves(en), es: leaves(es) };
/** i18next's plural forms: Spanish may have forms English has not (CLDR), never fewer. */
const PLURAL = /_(zero|one|two|few|many|other)$/;

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((m) => m[1]).sort();
}

Deno.test('the English and Spanish catalogues hold the same keys', () => {
  const missing = (from: Map<string, unknown>, to: Map<string, unknown>) =>
    [...from.keys()].filter((key) => !to.has(key) && !(PLURAL.test(key) && !key.endsWith('_other')));
  assert.deepEqual(missing(CATALOGUES.en, CATALOGUES.es), [], 'keys missing from es.json');
  assert.deepEqual(missing(CATALOGUES.es, CATALOGUES.en), [], 'keys missing from en.json');
});

Deno.test('every text is a non-empty string', () => {
  for (const [language, catalogue] of Object.entries(CATALOGUES)) {
    for (const [key, value] of catalogue) {
      assert.ok(typeof value === 'string' && value.trim() !== '', `${language}: ${key} is empty or not text`);
    }
  }
});

Deno.test('a text and its translation use the same placeholders', () => {
  for (const [key, value] of CATALOGUES.en) {
    const other = CATALOGUES.es.get(key);
    if (typeof other !== 'string' || typeof value !== 'string') continue;
    // A plural form may leave its count unsaid ('1 more wrong PIN'); a refusal's text in another language leaves
    // out `message`, the server's own English words (lib/api.ts codeText).
    const unsaid = (name: string) => (PLURAL.test(key) && name === 'count') || name === 'message';
    const names = (text: string) => placeholders(text).filter((name) => !unsaid(name));
    assert.deepEqual(names(other), names(value), key);
  }
});

Deno.test('Spanish speaks to the reader as usted, never tú', () => {
  // The informal second person's common forms; the catalogue is written in the formal register throughout.
  const informal = /\b(tú|tu|tus|puedes|tienes|quieres|debes|escribe|revisa|inténtalo|vuelve|elige)\b/i;
  for (const [key, value] of CATALOGUES.es) {
    assert.ok(typeof value !== 'string' || !informal.test(value), `${key}: '${value}'`);
  }
});
