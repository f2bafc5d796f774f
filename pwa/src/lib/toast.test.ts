import assert from 'node:assert/strict';
import { TOAST_MAX_COUNT, TOAST_SECONDS, type ToastKind, toastOptions, withToast } from './toast.ts';

type Shown = { kind: ToastKind; text: string };

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

Deno.test('the same error twice is one toast, shown again rather than stacked', () => {
  const once = withToast<Shown>([], { kind: 'error', text: 'Please check your login credentials.' });
  const twice = withToast(once, { kind: 'error', text: 'Please check your login credentials.' });
  assert.deepEqual(twice, [{ kind: 'error', text: 'Please check your login credentials.' }]);
  const other = withToast(twice, { kind: 'error', text: 'Login failed. Please try again.' });
  assert.equal(other.length, 2, 'different words stack');
});

Deno.test('a success takes away the errors and warnings shown before it, never the other way round', () => {
  const failed: Shown[] = [
    { kind: 'error', text: 'Login failed. Please try again.' },
    { kind: 'info', text: 'Saved on this tablet.' },
  ];
  assert.deepEqual(withToast(failed, { kind: 'success', text: 'Logged in!' }), [
    { kind: 'info', text: 'Saved on this tablet.' },
    { kind: 'success', text: 'Logged in!' },
  ]);
  const succeeded: Shown[] = [{ kind: 'success', text: 'Logged in!' }];
  assert.equal(withToast(succeeded, { kind: 'error', text: 'x' }).length, 2);
});

Deno.test('past 20 the oldest toast gives way', () => {
  let list: Shown[] = [];
  for (let i = 0; i < 25; i++) list = withToast(list, { kind: 'info', text: `t${i}` });
  assert.equal(list.length, TOAST_MAX_COUNT);
  assert.equal(list[0].text, 't5');
});
