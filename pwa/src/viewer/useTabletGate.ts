/**
 * The offender's viewer pop-up (/pdfViewer) on a shared tablet: it shows mail only while the offender's portal
 * is open in a window of this browser (unlocked, or reading from the network), and goes when the portal locks
 * . The lock screen is the portal's; without this, a viewer typed into the address bar, or opened from
 * the browser's history, would show the mail of a locked tablet to the next person. It leaves for the portal,
 * which shows the lock screen. Other roles' viewers are not gated: their screens have no lock.
 */
import { useEffect, useState } from 'react';
import { ROLE_HOME } from '../lib/routing.ts';
import { signedInAsOffender } from '../lib/storage.ts';
import { keyHolderClient } from '../offline/documentChannel.ts';
import { leaveViewer } from './useSessionEndClose.ts';

/** True once the viewer may show its document. */
export function useTabletGate(): boolean {
  const [gated] = useState(signedInAsOffender);
  const [open, setOpen] = useState(!gated);
  useEffect(() => {
    if (!gated) return;
    const toPortal = () => leaveViewer(ROLE_HOME.offender);
    const stopLock = keyHolderClient.onLock(toPortal);
    let live = true;
    void keyHolderClient.isPortalOpen().then((answer) => {
      if (!live) return;
      if (answer) setOpen(true);
      else toPortal();
    });
    return () => {
      live = false;
      stopLock();
    };
  }, [gated]);
  return open;
}
