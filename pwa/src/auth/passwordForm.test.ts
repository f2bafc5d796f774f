import assert from 'node:assert/strict';
import { checkNewPassword, passwordStrength, STRENGTH_COLOURS } from './passwordForm.ts';

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

Deno.test('the strength label is the shared one, coloured red, yellow and green', () => {
  assert.equal(passwordStrength(''), '');
  assert.equal(passwordStrength('abc'), 'Weak');
  assert.equal(passwordStrength('abcdefgh1'), 'Medium');
  assert.equal(passwordStrength('Abcdefgh1!'), 'Strong');
  assert.equal(STRENGTH_COLOURS.Weak.background, '#cf1322');
  assert.equal(STRENGTH_COLOURS.Medium.background, '#fadb14');
  assert.equal(STRENGTH_COLOURS.Strong.background, '#237804');
});
