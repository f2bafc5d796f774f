import assert from 'node:assert/strict';
import { chooseScroll, chooseView, rotate, zoomLabel, zoomSelectValue, zoomStep } from './modes.ts';

Deno.test('horizontal or wrapped scrolling forces the single-page view', () => {
  assert.deepEqual(chooseScroll({ scroll: 'vertical', view: 'dual' }, 'horizontal'), {
    scroll: 'horizontal',
    view: 'single',
  });
  assert.deepEqual(chooseScroll({ scroll: 'vertical', view: 'dual' }, 'wrapped'), {
    scroll: 'wrapped',
    view: 'single',
  });
});

Deno.test('vertical scrolling keeps the chosen view', () => {
  assert.deepEqual(chooseScroll({ scroll: 'horizontal', view: 'single' }, 'vertical'), {
    scroll: 'vertical',
    view: 'single',
  });
  assert.deepEqual(chooseScroll({ scroll: 'vertical', view: 'dual' }, 'vertical'), {
    scroll: 'vertical',
    view: 'dual',
  });
});

Deno.test('choosing the dual view while scrolling horizontally or wrapped switches to vertical', () => {
  assert.deepEqual(chooseView({ scroll: 'horizontal', view: 'single' }, 'dual'), {
    scroll: 'vertical',
    view: 'dual',
  });
  assert.deepEqual(chooseView({ scroll: 'wrapped', view: 'single' }, 'dual'), {
    scroll: 'vertical',
    view: 'dual',
  });
});

Deno.test('choosing the single view keeps the scroll mode', () => {
  assert.deepEqual(chooseView({ scroll: 'wrapped', view: 'single' }, 'single'), {
    scroll: 'wrapped',
    view: 'single',
  });
  assert.deepEqual(chooseView({ scroll: 'vertical', view: 'dual' }, 'single'), {
    scroll: 'vertical',
    view: 'single',
  });
});

Deno.test('zoom steps walk the levels 50% to 400% and stop at the ends', () => {
  assert.equal(zoomStep(1, 1), 1.25);
  assert.equal(zoomStep(1, -1), 0.75);
  assert.equal(zoomStep(1, 3), 2);
  assert.equal(zoomStep(4, 1), 4);
  assert.equal(zoomStep(0.5, -1), 0.5);
  assert.equal(zoomStep(2, 10), 4);
  assert.equal(zoomStep(1.5, 0), 1.5);
});

Deno.test('a scale between two levels moves to the next level in that direction', () => {
  assert.equal(zoomStep(1.37, 1), 1.5);
  assert.equal(zoomStep(1.37, -1), 1.25);
  assert.equal(zoomStep(0.3, 1), 0.5);
  assert.equal(zoomStep(6, -1), 4);
  // Almost a level counts as that level.
  assert.equal(zoomStep(1.2499999, 1), 1.5);
});

Deno.test('the zoom select shows presets, levels, or nothing for an odd scale', () => {
  assert.equal(zoomSelectValue(1.37, 'page-width'), 'page-width');
  assert.equal(zoomSelectValue(1.25, null), '1.25');
  assert.equal(zoomSelectValue(1.2500001, 'auto'), '1.25');
  assert.equal(zoomSelectValue(1.37, null), null);
  assert.equal(zoomLabel(1.37), '137%');
  assert.equal(zoomLabel(0.5), '50%');
});

Deno.test('rotation turns in quarter turns within 0..270', () => {
  assert.equal(rotate(0, 90), 90);
  assert.equal(rotate(270, 90), 0);
  assert.equal(rotate(0, -90), 270);
  assert.equal(rotate(90, -90), 0);
});
