/**
 * Every refusal the API can send has a text in each of the PWA's languages (pwa/src/i18n/<language>.json,
 * section `codes`), and the English one is the API's own message verbatim: the PWA shows a refusal by its code
 * (pwa/src/lib/api.ts failureMessage), so a code without a text would reach a Spanish screen in English.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { FAILURES } from '../../api/http/failures.ts';
import { MESSAGES } from '../../api/http/errors.ts';
import en from '../../pwa/src/i18n/en.json' with { type: 'json' };
import es from '../../pwa/src/i18n/es.json' with { type: 'json' };

const root = new URL('../..', import.meta.url).pathname;

/** The codes the HTTP layer writes itself (`new AppError(status, message, 'code')`, `failure(c, …, 'code')`). */
async function httpLayerCodes(): Promise<Set<string>> {
  const codes = new Set<string>();
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) await walk(path);
      else if (entry.name.endsWith('.ts')) {
        const text = await Deno.readTextFile(path);
        for (const m of text.matchAll(/new AppError\([^;]*?'([a-z_]+)'\s*[,)]/g)) codes.add(m[1]);
        for (const m of text.matchAll(/failure\(c,[^;]*?'([a-z_]+)'\s*\)/g)) codes.add(m[1]);
      }
    }
  };
  await walk(join(root, 'api'));
  return codes;
}

const catalogues: Record<string, Record<string, string>> = { en: en.codes, es: es.codes };

Deno.test('every refusal code of the API has a text in English and in Spanish', async () => {
  const codes = [...Object.keys(FAILURES), ...await httpLayerCodes()];
  assert.ok(codes.length > 60, 'the codes were found');
  for (const [language, texts] of Object.entries(catalogues)) {
    const missing = codes.filter((code) => typeof texts[code] !== 'string' || texts[code].trim() === '');
    assert.deepEqual(missing, [], `codes without a text in ${language}.json`);
  }
});

Deno.test("the English text of each code is the API's own message, verbatim", () => {
  for (const [reason, entry] of Object.entries(FAILURES)) {
    const expected = typeof entry.message === 'string'
      ? entry.message
      : reason === 'invalid_input'
      ? '{{message}}'
      : entry.message('{{detail}}');
    assert.equal(en.codes[reason as keyof typeof en.codes], expected, reason);
  }
  const http: Record<string, string> = {
    unauthenticated: MESSAGES.unauthenticated,
    forbidden: MESSAGES.forbidden,
    password_change_required: MESSAGES.passwordChangeRequired,
    bad_json: MESSAGES.malformedJson,
    too_large: MESSAGES.tooLarge,
    internal: MESSAGES.internal,
  };
  for (const [code, message] of Object.entries(http)) assert.equal(catalogues.en[code], message, code);
});

Deno.test('the catalogues name no code the API does not send', async () => {
  const codes = new Set([...Object.keys(FAILURES), ...await httpLayerCodes()]);
  // A plural form (`unlock_locked_one`) belongs to its code: the PWA picks it by the detail's count.
  const base = (code: string) => code.replace(/_(zero|one|two|few|many|other)$/, '');
  assert.deepEqual(Object.keys(en.codes).filter((code) => !codes.has(code) && !codes.has(base(code))), []);
});
