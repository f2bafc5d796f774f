import assert from 'node:assert/strict';
import { chooseVoice, normalizeLanguage, pageText, readingLanguage, splitSentences } from './speech.ts';

Deno.test('a page is read as pdf.js extracts it: line ends become spaces, a hyphenated word is joined', () => {
  const text = pageText([
    { str: 'Your hearing is set for', hasEOL: true },
    { str: 'March 3. Bring this let-', hasEOL: true },
    {},
    { str: 'ter with you.', hasEOL: false },
    { str: '  ', hasEOL: true },
  ]);
  assert.equal(text, 'Your hearing is set for March 3. Bring this letter with you.');
});

Deno.test('a page with no text, or only spaces, has no sentences', () => {
  assert.deepEqual(splitSentences(pageText([]), 'en'), []);
  assert.deepEqual(splitSentences(pageText([{ str: ' ', hasEOL: true }, { str: '' }]), 'en'), []);
  assert.deepEqual(splitSentences(' - . ', 'en'), []);
});

Deno.test('sentences end at a full stop, a question or an exclamation, in English and in Spanish', () => {
  assert.deepEqual(
    splitSentences('Your case was heard. Did you get the order? Call your attorney!', 'en'),
    ['Your case was heard.', 'Did you get the order?', 'Call your attorney!'],
  );
  assert.deepEqual(
    splitSentences('Su audiencia es el lunes. ¿Tiene preguntas? Llame a su abogado.', 'es'),
    ['Su audiencia es el lunes.', '¿Tiene preguntas?', 'Llame a su abogado.'],
  );
});

Deno.test('a decimal number does not end a sentence', () => {
  assert.deepEqual(splitSentences('The fee is 12.50 dollars. Pay it soon.', 'en'), [
    'The fee is 12.50 dollars.',
    'Pay it soon.',
  ]);
});

Deno.test('a very long sentence is cut at its semicolons so the reader can follow it', () => {
  const clause = 'the party of the first part agrees to the terms set out below in full';
  const long = `${clause}; ${clause}; ${clause}; ${clause}; ${clause}.`;
  const parts = splitSentences(long, 'en');
  assert.equal(parts.length, 5);
  assert.ok(parts.every((part) => part.length <= 300));
  assert.equal(parts.join(' '), long);
});

Deno.test("the PDF's declared language wins; without one, the reader's", () => {
  assert.equal(readingLanguage('es-MX', 'en'), 'es-MX');
  assert.equal(readingLanguage('en_us', 'es'), 'en-US');
  assert.equal(readingLanguage(null, 'es'), 'es');
  assert.equal(readingLanguage('', 'en'), 'en');
  assert.equal(readingLanguage('not a language', 'es'), 'es');
  assert.equal(normalizeLanguage('ES-es'), 'es-ES');
  assert.equal(normalizeLanguage('12'), null);
});

Deno.test('the voice: the exact language first, then the same language elsewhere; a local voice before a network one', () => {
  const voices = [
    { name: 'English', lang: 'en-US', localService: true, default: true },
    { name: 'Mexico online', lang: 'es-MX', localService: false },
    { name: 'Mexico', lang: 'es-MX', localService: true },
    { name: 'Spain', lang: 'es_ES', localService: true },
  ];
  assert.equal(chooseVoice(voices, 'es-ES')?.name, 'Spain');
  assert.equal(chooseVoice(voices, 'es-US')?.name, 'Mexico');
  assert.equal(chooseVoice(voices, 'es')?.name, 'Mexico');
  assert.equal(chooseVoice(voices, 'en')?.name, 'English');
});

Deno.test('no voice for the language: none is chosen (the control says so)', () => {
  assert.equal(chooseVoice([{ lang: 'fr-FR' }, { lang: 'de-DE' }], 'es-US'), null);
  assert.equal(chooseVoice([], 'en'), null);
});
