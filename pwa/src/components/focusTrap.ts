/**
 * Keeps Tab and Shift+Tab inside a dialog while it is open: from its last control Tab goes to its first, from its
 * first Shift+Tab to its last. antd's Modal leaves the page behind reachable (Tab from the last button reached the
 * body), which WCAG 2.4.3 and a modal's own promise forbid.
 */
import type { KeyboardEvent } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), textarea:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The controls of `root` a Tab can reach, in order: drawn, enabled, not hidden (antd's 0×0 sentinels are not). */
function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => {
    if (element.closest('[aria-hidden="true"]')) return false;
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  });
}

/** A keydown handler for the element that wraps the dialog's content. */
export function trapTab(event: KeyboardEvent<HTMLElement>): void {
  if (event.key !== 'Tab') return;
  const controls = focusables(event.currentTarget);
  if (controls.length === 0) return;
  const first = controls[0];
  const last = controls[controls.length - 1];
  const active = document.activeElement;
  const outside = !controls.includes(active as HTMLElement);
  if (event.shiftKey && (active === first || outside)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || outside)) {
    event.preventDefault();
    first.focus();
  }
}
