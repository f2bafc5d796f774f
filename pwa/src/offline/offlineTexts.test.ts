import assert from 'node:assert/strict';
import { inLanguage } from '../i18n/testing.ts';
import { retryDelay } from './listRetry.ts';
import { listSavedText, wrongPinText } from './offlineTexts.ts';

Deno.test("the banner says when the list was saved, in the spec's US format", () => {
  const savedAt = new Date(2026, 10, 23, 10, 42).getTime();
  assert.equal(listSavedText(savedAt), 'You are offline — showing the list saved Nov 23, 2026, 10:42 AM');
});

Deno.test('a wrong PIN says how many are left before the PIN needs the network', () => {
  assert.equal(
    wrongPinText(4),
    'The PIN is not correct. 4 more wrong PINs and this tablet can be unlocked only with the network.',
  );
  assert.equal(
    wrongPinText(1),
    'The PIN is not correct. 1 more wrong PIN and this tablet can be unlocked only with the network.',
  );
});

Deno.test('in Spanish the banner and the wrong PIN speak Spanish, with a Spanish date', async () => {
  const savedAt = new Date(2026, 10, 23, 10, 42).getTime();
  await inLanguage('es', () => {
    assert.match(
      listSavedText(savedAt),
      /^Sin conexión\. Se muestra la lista guardada el 23 nov 2026, 10:42\sa\.\s?m\.$/,
    );
    assert.equal(
      wrongPinText(1),
      'El PIN no es correcto. Si se equivoca 1 vez más, esta tableta solo se abrirá cuando tenga conexión a internet.',
    );
    assert.match(wrongPinText(3), /3 veces más/);
  });
});

Deno.test('a list that does not answer is retried after 2 s, doubling to a minute at most', () => {
  assert.deepEqual([0, 1, 2, 3, 4, 5, 9].map(retryDelay), [2000, 4000, 8000, 16000, 32000, 60000, 60000]);
});
