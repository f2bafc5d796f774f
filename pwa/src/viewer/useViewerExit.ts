/**
 * The way back from the viewer: its Close button and Escape. The pop-up closes and the list that opened it gets
 * its focus back (mail/popups.ts); a viewer the browser will not let a script close (a tab opened by hand, or
 * kept after a reload on a tablet that opens pop-ups as tabs) goes to the reader's portal instead. Escape
 * inside one of the viewer's own dialogs (properties, print) or an open list closes that first.
 */
import { useEffect, useRef } from 'react';
import { VIEWER_CLOSED, type ViewerClosedMessage } from '../mail/popups.ts';
import { portalRedirect } from '../lib/routing.ts';
import { storage } from '../lib/storage.ts';
import { leaveViewer } from './useSessionEndClose.ts';

/** Closes the viewer pop-up of `documentId`, telling its opener, or leaves for the portal. */
export function closeViewerWindow(documentId: string | undefined): void {
  const opener = window.opener as Window | null;
  if (opener && documentId) {
    try {
      const message: ViewerClosedMessage = { type: VIEWER_CLOSED, documentId };
      opener.postMessage(message, location.origin);
    } catch { /* an opener on another origin, or gone: nothing to focus */ }
  }
  leaveViewer(portalRedirect(storage.readUser()));
}

/** True when Escape belongs to something open inside the viewer: a dialog, a select's list, a menu. */
function escapeIsTaken(event: KeyboardEvent): boolean {
  if (event.defaultPrevented) return true;
  const target = event.target instanceof Element ? event.target : null;
  return target?.closest('[role="dialog"], [aria-expanded="true"]') != null;
}

/** Escape closes the viewer with `close`, unless `busy` (a dialog of the viewer is open) or escapeIsTaken. */
export function useEscapeToClose(close: () => void, busy: boolean): void {
  const state = useRef({ close, busy });
  state.current = { close, busy };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || state.current.busy || escapeIsTaken(event)) return;
      event.preventDefault();
      state.current.close();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
