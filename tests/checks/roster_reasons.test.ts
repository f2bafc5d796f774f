/**
 * Every reason a roster row can be rejected for has its words in each of the PWA's languages
 * (`users.import.reasons`, by the report row's `code`), the English being the API's own reason: the import's
 * report shows a rejected row by its code, so a code without words would leave a Spanish report in English.
 */
import assert from 'node:assert/strict';
import { ROSTER_MESSAGES, ROSTER_REJECTIONS } from '../../contract/rules/roster.ts';
import en from '../../pwa/src/i18n/en.json' with { type: 'json' };
import es from '../../pwa/src/i18n/es.json' with { type: 'json' };

Deno.test('each rejection code has words in English and Spanish, and nothing else is there', () => {
  for (const catalogue of [en, es]) {
    assert.deepEqual(Object.keys(catalogue.users.import.reasons).sort(), [...ROSTER_REJECTIONS].sort());
  }
});

Deno.test("the English of each fixed reason is the API's own", () => {
  const reasons: Record<string, string> = en.users.import.reasons;
  for (const code of ROSTER_REJECTIONS) {
    if (code === 'pin') {
      assert.equal(reasons.pin.replace('{{min}}', '6').replace('{{max}}', '12'), ROSTER_MESSAGES.pin);
    } else if (code in ROSTER_MESSAGES) {
      assert.equal(reasons[code], ROSTER_MESSAGES[code as keyof typeof ROSTER_MESSAGES]);
    }
  }
});
