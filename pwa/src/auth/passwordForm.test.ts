import assert from 'node:assert/strict';
import { checkNewPassword, STRENGTH_COLOURS } from './passwordForm.ts';
import { strengthOf as strengthLabel } from './passwordEstimator.ts';

Deno.test('a new password shorter than 8 characters is refused', () => {
  assert.deepEqual(
    checkNewPassword({ currentPassword: 'temp', newPassword: 'short', confirmPassword: 'short' }),
    {
      ok: false,
      field: 'newPassword',
      message: 'Password must be at least 8 characters long',
    },
  );
});

Deno.test('a confirmation that differs is refused', () => {
  assert.deepEqual(
    checkNewPassword({ currentPassword: 'temp', newPassword: 'long-enough', confirmPassword: 'long-enougH' }),
    {
      ok: false,
      field: 'confirmPassword',
      message: 'Passwords do not match',
    },
  );
});

Deno.test('the current password is required and a valid change passes', () => {
  assert.equal(
    checkNewPassword({ currentPassword: '', newPassword: 'long-enough', confirmPassword: 'long-enough' }).ok,
    false,
  );
  assert.deepEqual(
    checkNewPassword({ currentPassword: 't', newPassword: 'long-enough', confirmPassword: 'long-enough' }),
    {
      ok: true,
    },
  );
});

Deno.test("the strength label is the server's judgement in the spec's three words, red, yellow and green", () => {
  assert.equal(strengthLabel(''), '');
  assert.equal(strengthLabel('abc'), 'Weak');
  // Common passwords with the usual capital and digit are what the server refuses: Weak, never Medium.
  assert.equal(strengthLabel('password1'), 'Weak');
  assert.equal(strengthLabel('Password1!'), 'Weak');
  assert.equal(strengthLabel('kj4#Lm9!qz'), 'Medium');
  assert.equal(strengthLabel('Quartz-Lantern-Harbor-719'), 'Strong');
  // The person's own details do not make a password strong.
  assert.equal(strengthLabel('robin.clerk', { email: 'robin.clerk@e2e.test' }), 'Weak');
  assert.equal(STRENGTH_COLOURS.Weak.background, '#cf1322');
  assert.equal(STRENGTH_COLOURS.Medium.background, '#fadb14');
  assert.equal(STRENGTH_COLOURS.Strong.background, '#237804');
});
