import assert from 'node:assert/strict';
import { browserLanguage, signedOutLanguage } from './language.ts';

Deno.test('the browser language: the first one asked for that the portal speaks', () => {
  assert.equal(browserLanguage(['es-US', 'en-US']), 'es');
  assert.equal(browserLanguage(['fr-CA', 'ES', 'en']), 'es');
  assert.equal(browserLanguage(['en-GB', 'es']), 'en');
  assert.equal(browserLanguage(['fr', 'de']), null);
  assert.equal(browserLanguage([]), null);
});

Deno.test("signed out: a shared tablet on the facility's network keeps the entity's language", () => {
  const tablet = { defaultLanguage: 'en', facilityNetwork: true } as const;
  assert.equal(signedOutLanguage(tablet, ['es-US']), 'en');
  assert.equal(signedOutLanguage({ ...tablet, defaultLanguage: 'es' }, ['en-US']), 'es');
});

Deno.test('signed out elsewhere: a browser asking for Spanish gets Spanish, else the entity default', () => {
  const home = { defaultLanguage: 'en', facilityNetwork: false } as const;
  assert.equal(signedOutLanguage(home, ['es-MX', 'en']), 'es');
  assert.equal(signedOutLanguage({ ...home, defaultLanguage: 'es' }, ['en-US']), 'en');
  assert.equal(signedOutLanguage({ ...home, defaultLanguage: 'es' }, ['fr']), 'es');
});
