import assert from 'node:assert/strict';
import { isRole, parseUser } from './user.ts';

Deno.test('a user object from the API is accepted as it is', () => {
  const user = {
    id: 'u1',
    role: 'attorney',
    firstName: 'Ann',
    lastName: 'Lee',
    email: 'ann@example.test',
    docNumber: null,
    entity: 'default',
    mustChangePassword: true,
    language: 'es',
    largerText: true,
  };
  assert.deepEqual(parseUser(user), user);
});

Deno.test('a language this portal does not speak is read as none', () => {
  assert.equal(parseUser({ role: 'attorney', language: 'fr' })?.language, null);
  assert.equal(parseUser({ role: 'attorney', language: 'en' })?.language, 'en');
});

Deno.test('anything without a role is not a user', () => {
  assert.equal(parseUser(null), null);
  assert.equal(parseUser('admin'), null);
  assert.equal(parseUser([]), null);
  assert.equal(parseUser({ firstName: 'x' }), null);
  assert.equal(parseUser({ role: '' }), null);
});

Deno.test('a stored user with only a role still parses, with safe defaults', () => {
  assert.deepEqual(parseUser({ role: 'offender' }), {
    id: '',
    role: 'offender',
    firstName: '',
    lastName: '',
    email: null,
    docNumber: null,
    entity: 'default',
    mustChangePassword: false,
    language: null,
    largerText: false,
  });
});

Deno.test('only the five portal roles are known roles', () => {
  for (const role of ['offender', 'attorney', 'representative', 'admin', 'approver']) assert.ok(isRole(role));
  assert.equal(isRole('superuser'), false);
  assert.equal(isRole(undefined), false);
});
