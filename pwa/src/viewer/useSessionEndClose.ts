/**
 * The viewer and print pop-ups close when the session ends in any window (item 10: a shared tablet), so
 * no page of privileged mail stays on screen. A viewer the browser will not let a script close (opened by hand,
 * not as a pop-up) leaves for the sign-in page instead: a full navigation that drops the PDF from memory. The
 * offender's pop-ups also go when the tablet locks (useTabletGate.ts); the main window's own viewer goes with the
 * lock screen that replaces the portal.
 */
import { useEffect } from 'react';
import { PATHS } from '../lib/routing.ts';
import { sessionChannel } from '../lib/storage.ts';

/** Closes this viewer window, or, when no script may close it, replaces it with `elsewhere`. */
export function leaveViewer(elsewhere: string): void {
  window.close();
  // close() is ignored for a window no script opened; `closed` tells.
  if (!window.closed) window.location.replace(elsewhere);
}

export function useSessionEndClose(): void {
  useEffect(() => sessionChannel.subscribe(() => leaveViewer(PATHS.login)), []);
}
