/**
 * The viewer and print pop-ups close when the session ends in any window (issue 9, item 10: a shared tablet),
 * and when the offender's tablet locks (issue 10), so no page of privileged mail stays on screen. A viewer the
 * browser will not let a script close (opened by hand, not as a pop-up) leaves for the sign-in page instead: a
 * full navigation that drops the PDF from memory. The lock is heard only by pop-ups: the main window's own
 * viewer goes with the lock screen that replaces the portal.
 */
import { useEffect } from 'react';
import { PATHS } from '../lib/routing.ts';
import { sessionChannel } from '../lib/storage.ts';
import { keyHolderClient } from '../offline/documentChannel.ts';

function closeWindow(): void {
  window.close();
  // close() is ignored for a window no script opened; `closed` tells.
  if (!window.closed) window.location.replace(PATHS.login);
}

export function useSessionEndClose(): void {
  useEffect(() => {
    const stopSession = sessionChannel.subscribe(closeWindow);
    const stopLock = window.opener ? keyHolderClient.onLock(closeWindow) : () => {};
    return () => {
      stopSession();
      stopLock();
    };
  }, []);
}
