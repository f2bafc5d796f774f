/**
 * The viewer's layout and zoom rules as plain functions (spec sections 2 and
 * 9), kept apart from pdf.js so they can be tested without a browser.
 */

import { t } from 'i18next';

export type ScrollKind = 'vertical' | 'horizontal' | 'wrapped';
export type ViewKind = 'single' | 'dual';

export interface Layout {
  scroll: ScrollKind;
  view: ViewKind;
}

/**
 * Chooses a scroll mode. Horizontal or wrapped scrolling lays pages out in a
 * row already, so it forces the single-page view (spec section 2).
 */
export function chooseScroll(current: Layout, scroll: ScrollKind): Layout {
  return { scroll, view: scroll === 'vertical' ? current.view : 'single' };
}

/**
 * Chooses a view mode. A dual-page view only makes sense while scrolling
 * vertically, so choosing it from horizontal or wrapped switches scrolling back
 * to vertical (spec section 2).
 */
export function chooseView(current: Layout, view: ViewKind): Layout {
  return { view, scroll: view === 'dual' ? 'vertical' : current.scroll };
}

/** Spec section 9: the zoom levels of the zoom select, as scale factors. */
export const ZOOM_LEVELS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3, 4] as const;

/** The named zoom presets pdf.js computes from the page and window sizes; each label in the language shown. */
export const ZOOM_PRESETS = [
  {
    value: 'page-actual',
    get label() {
      return t('viewer.zoom.actual');
    },
  },
  {
    value: 'page-fit',
    get label() {
      return t('viewer.zoom.fit');
    },
  },
  {
    value: 'page-width',
    get label() {
      return t('viewer.zoom.width');
    },
  },
] as const;

export type ZoomPreset = (typeof ZOOM_PRESETS)[number]['value'];

/** Spec section 9: Ctrl+wheel ticks within 40 ms count as one zoom gesture. */
export const WHEEL_ZOOM_DEBOUNCE_MS = 40;

// Scales are compared with a tolerance: a preset such as page-width yields
// 1.2499999 on some windows, which must still count as 125%.
const EPSILON = 1e-3;

/**
 * The scale `steps` zoom levels above (positive) or below (negative) `scale`,
 * held within the smallest and largest level. A scale between two levels moves
 * to the next level in that direction first.
 */
export function zoomStep(scale: number, steps: number): number {
  let next = scale;
  const count = Math.abs(Math.trunc(steps));
  for (let i = 0; i < count; i++) {
    next = steps > 0
      ? ZOOM_LEVELS.find((level) => level > next + EPSILON) ?? ZOOM_LEVELS[ZOOM_LEVELS.length - 1]
      : [...ZOOM_LEVELS].reverse().find((level) => level < next - EPSILON) ?? ZOOM_LEVELS[0];
  }
  return next;
}

/** '125%' for 1.25. */
export function zoomLabel(scale: number): string {
  return `${Math.round(scale * 100)}%`;
}

/**
 * The value the zoom select shows: the preset when one is in force, the level
 * when the scale is one of them, otherwise null (the select shows the percentage).
 */
export function zoomSelectValue(scale: number, preset: string | null): string | null {
  if (preset && ZOOM_PRESETS.some((p) => p.value === preset)) return preset;
  const level = ZOOM_LEVELS.find((l) => Math.abs(l - scale) < EPSILON);
  return level === undefined ? null : String(level);
}

/** A page rotation turned by `delta` degrees, kept in 0..270. */
export function rotate(rotation: number, delta: 90 | -90): number {
  return (((rotation + delta) % 360) + 360) % 360;
}
