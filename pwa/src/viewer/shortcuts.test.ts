import assert from 'node:assert/strict';
import { type KeyLike, shortcutAction } from './shortcuts.ts';

const ctrl = (key: string): KeyLike => ({ key, ctrlKey: true, metaKey: false, altKey: false });

Deno.test('Ctrl+P (and Cmd+P) runs the viewer print', () => {
  assert.equal(shortcutAction(ctrl('p')), 'print');
  assert.equal(shortcutAction(ctrl('P')), 'print');
  assert.equal(shortcutAction({ key: 'p', ctrlKey: false, metaKey: true, altKey: false }), 'print');
});

Deno.test('save, open, find and full screen do nothing special', () => {
  for (const key of ['s', 'o', 'f', 'g']) assert.equal(shortcutAction(ctrl(key)), 'blocked');
  assert.equal(shortcutAction({ key: 'F11', ctrlKey: false, metaKey: false, altKey: false }), 'blocked');
});

Deno.test('zoom keys zoom the document', () => {
  assert.equal(shortcutAction(ctrl('+')), 'zoom-in');
  assert.equal(shortcutAction(ctrl('=')), 'zoom-in');
  assert.equal(shortcutAction(ctrl('-')), 'zoom-out');
  assert.equal(shortcutAction(ctrl('0')), 'zoom-reset');
});

Deno.test('plain keys and other combinations are left to the browser', () => {
  assert.equal(shortcutAction({ key: 'p', ctrlKey: false, metaKey: false, altKey: false }), null);
  assert.equal(shortcutAction(ctrl('c')), null);
  assert.equal(shortcutAction({ key: 'p', ctrlKey: true, metaKey: false, altKey: true }), null);
});
