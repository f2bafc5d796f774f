import assert from 'node:assert/strict';
import { TOAST_MAX_COUNT, TOAST_SECONDS, toastOptions } from './toast.ts';

Deno.test('success toasts stay 2 seconds and error toasts 4 seconds', () => {
  assert.equal(TOAST_SECONDS.success, 2);
  assert.equal(TOAST_SECONDS.error, 4);
  assert.deepEqual(toastOptions('success', 'Logged in!'), { content: 'Logged in!', duration: 2 });
  assert.deepEqual(toastOptions('error', 'Login failed. Please try again.'), {
    content: 'Login failed. Please try again.',
    duration: 4,
  });
});

Deno.test('a toast may be given a longer time', () => {
  assert.deepEqual(toastOptions('success', 'x', 30), { content: 'x', duration: 30 });
});

Deno.test('at most 20 toasts show at a time', () => {
  assert.equal(TOAST_MAX_COUNT, 20);
});
