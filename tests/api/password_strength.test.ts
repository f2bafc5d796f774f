import assert from 'node:assert/strict';
import { checkPasswordStrength } from '../../api/domain/password_strength.ts';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { makeUser, registrationBody } from '../support/factories.ts';

const REFUSAL = 'This password is too common or easy to guess. Please choose a longer, less predictable one.';

let t: TestApp;

Deno.test({
  name: 'setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
  },
});

Deno.test('common and breached-pattern passwords are refused; sound ones and every fixture pass', () => {
  for (const weak of ['Password1', 'P@ssw0rd1', 'Qwerty123!', 'Summer2024!', 'Welcome2026!', 'iloveyou1']) {
    assert.deepEqual(checkPasswordStrength(weak), { ok: false, reason: 'password_too_weak' }, weak);
  }
  const fixtures = [
    ...[DEMO.admin, DEMO.approver, DEMO.attorney, DEMO.representative].map(([, password]) => password),
    registrationBody().password,
    'Factory-Pass-1!',
    'correct horse battery staple',
  ];
  for (const sound of fixtures) assert.deepEqual(checkPasswordStrength(sound), { ok: true }, sound);
});

Deno.test("a password built from the person's own name or e-mail is refused", () => {
  const owner = { email: 'grace.hopper@example.test', firstName: 'Grace', lastName: 'Hopper' };
  assert.equal(checkPasswordStrength('GraceHopper1').ok, true, 'fine for someone else');
  assert.equal(checkPasswordStrength('GraceHopper1', owner).ok, false);
  assert.equal(checkPasswordStrength('grace.hopper1', owner).ok, false);
});

Deno.test('a very long input is judged by its first 64 characters, which bounds the work', () => {
  const long = 'p4$$w0rd'.repeat(25);
  const started = performance.now();
  const result = checkPasswordStrength(long);
  console.log(`a 200-character look-alike string: ${(performance.now() - started).toFixed(0)} ms`);
  assert.equal(result.ok, false);
  assert.deepEqual(result, checkPasswordStrength(long.slice(0, 64)));
});

Deno.test({
  name:
    "registration refuses Password1 (and the registrant's own name) with a plain message; nothing is stored",
  ...DB_TEST,
  fn: async () => {
    for (const password of ['Password1', 'GraceHopper1']) {
      const body = registrationBody({ password, confirmPassword: password });
      const r = await call(t, 'POST', '/api/auth/register', { body });
      assert.equal(r.status, 400, password);
      assert.deepEqual(r.body, { success: false, message: REFUSAL, code: 'password_too_weak' });
      const [row] = await t.deps.sql<{ n: number }[]>`
        select count(*)::int as n from registrations where email = ${body.email}`;
      assert.equal(row.n, 0);
      const [mail] = await t.deps.sql<{ n: number }[]>`
        select count(*)::int as n from email_outbox where to_address = ${body.email}`;
      assert.equal(mail.n, 0);
    }
    // The refusal does not depend on whether the e-mail has an account (no enumeration through it).
    const known = await call(t, 'POST', '/api/auth/register', {
      body: registrationBody({
        email: DEMO.attorney[0],
        password: 'Password1',
        confirmPassword: 'Password1',
      }),
    });
    assert.deepEqual([known.status, known.body.message], [400, REFUSAL]);
  },
});

Deno.test({
  name:
    'a password change to Password1 is refused after the current password is proven; the old one still works',
  ...DB_TEST,
  fn: async () => {
    const user = await makeUser(t);
    const token = await signIn(t, user.username, user.secret);
    const wrongCurrent = await call(t, 'POST', '/api/auth/password', {
      token,
      body: { currentPassword: 'not-the-password', newPassword: 'Password1' },
    });
    assert.equal(wrongCurrent.status, 400);
    assert.equal(wrongCurrent.body.message, 'The current password is not correct.');

    for (const newPassword of ['Password1', `${user.username.split('@')[0]}1`]) {
      const weak = await call(t, 'POST', '/api/auth/password', {
        token,
        body: { currentPassword: user.secret, newPassword },
      });
      assert.equal(weak.status, 400, newPassword);
      assert.deepEqual(weak.body, { success: false, message: REFUSAL, code: 'password_too_weak' });
    }
    assert.equal((await call(t, 'GET', '/api/auth/me', { token })).status, 200, 'the session goes on');
    await signIn(t, user.username, user.secret);

    const sound = await call(t, 'POST', '/api/auth/password', {
      token,
      body: { currentPassword: user.secret, newPassword: 'Quiet-Harbour-Lantern-58' },
    });
    assert.equal(sound.status, 200, JSON.stringify(sound.body));
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
  },
});
