/**
 * Keyboard shortcuts of the viewer. Spec section 9 lists shortcuts for zoom,
 * search, print, open and full screen; search, open, full screen and download
 * are not part of this viewer, so their keys are swallowed (the browser's own
 * save, open and find must not expose the document outside the viewer either),
 * and Ctrl+P runs our print flow instead of printing the app shell.
 */

export type ShortcutAction = 'print' | 'zoom-in' | 'zoom-out' | 'zoom-reset' | 'blocked';

/** The part of a KeyboardEvent the decision needs. */
export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

/** The viewer's action for a key press, or null to leave it to the browser. */
export function shortcutAction(event: KeyLike): ShortcutAction | null {
  if (event.key === 'F11') return 'blocked';
  const command = event.ctrlKey || event.metaKey;
  if (!command || event.altKey) return null;
  switch (event.key.toLowerCase()) {
    case 'p':
      return 'print';
    case '+':
    case '=':
      return 'zoom-in';
    case '-':
    case '_':
      return 'zoom-out';
    case '0':
      return 'zoom-reset';
    case 's':
    case 'o':
    case 'f':
    case 'g':
      return 'blocked';
    default:
      return null;
  }
}
