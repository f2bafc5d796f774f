import assert from 'node:assert/strict';
import { isValidSlug, slugify } from '../../contract/rules/slug.ts';

Deno.test('slugify follows spec section 4: lower case, symbols dropped, spaces to hyphens, hyphens collapsed', () => {
  assert.equal(slugify('Missouri DOC'), 'missouri-doc');
  assert.equal(slugify('Dept. of Corrections & Rehab'), 'dept-of-corrections-rehab');
  assert.equal(slugify('a  -  b'), 'a-b');
  assert.equal(slugify('North--East'), 'north-east');
});

Deno.test('slugify trims leading and trailing hyphens so the slug fits the database check', () => {
  assert.equal(slugify('  -Hello World- '), 'hello-world');
  assert.equal(slugify('!!!'), '');
  assert.equal(slugify('Café Noël'), 'caf-nol');
  assert.ok(isValidSlug(slugify('  Zone 7 -- (North) ')));
});

Deno.test('slugify keeps at most 100 characters and never ends on a hyphen', () => {
  const slug = slugify(`${'a'.repeat(99)} b`);
  assert.ok(slug.length <= 100);
  assert.ok(isValidSlug(slug));
});

Deno.test('isValidSlug accepts words joined by single hyphens only', () => {
  for (const good of ['default', 'mo-doc', 'a1-b2-c3']) assert.ok(isValidSlug(good), good);
  for (const bad of ['', 'Mo-doc', '-a', 'a-', 'a--b', 'a b', 'a_b', 'x'.repeat(101)]) {
    assert.ok(!isValidSlug(bad), bad);
  }
});
