/**
 * The viewer's access to the offender's offline cache, wherever the viewer runs: in the main window while it is
 * unlocked (the cache itself), or in a pop-up (the main window, over documentChannel.ts). Only an offender's
 * documents are ever cached: staff portals run on shared office computers and keep nothing.
 */
import { signedInAsOffender } from '../lib/storage.ts';
import { type KeyHolder, keyHolderClient, type ReadKind } from './documentChannel.ts';
import { localHolder, tabletState } from './tabletSession.ts';

/** Activity from a pop-up is told to the main window at most this often. */
const ACTIVITY_TELL_MS = 10_000;

function holder(): KeyHolder {
  return tabletState.get().phase === 'unlocked' ? localHolder : keyHolderClient;
}

/** True when the signed-in user is an offender (the only role whose mail is cached). */
export const cachesDocuments = signedInAsOffender;

let lastTold = 0;

export const viewerCache = {
  get: (documentId: string): Promise<Uint8Array<ArrayBuffer> | null> => holder().get(documentId),
  put: (documentId: string, bytes: Uint8Array<ArrayBuffer>): void => holder().put(documentId, bytes),
  /** A reading shown from the cache: queued for the audit log with the tablet's time. */
  read: (documentId: string, kind: ReadKind): void =>
    holder().read(documentId, kind, new Date().toISOString()),
  activity(): void {
    const now = Date.now();
    if (now - lastTold < ACTIVITY_TELL_MS) return;
    lastTold = now;
    holder().activity();
  },
};
