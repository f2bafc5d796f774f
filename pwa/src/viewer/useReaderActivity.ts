/**
 * Reading is activity: a touch, a key or a scroll in the viewer keeps the tablet's lock clock from running out
 * under a reader. Told to the main window (the clock's owner) at most every few seconds.
 */
import { useEffect } from 'react';
import { cachesDocuments, viewerCache } from '../offline/viewerCache.ts';

const EVENTS = ['pointerdown', 'keydown', 'wheel', 'scroll', 'touchstart'] as const;

export function useReaderActivity(): void {
  useEffect(() => {
    if (!cachesDocuments()) return;
    const onActivity = () => viewerCache.activity();
    for (const type of EVENTS) window.addEventListener(type, onActivity, { capture: true, passive: true });
    return () => {
      for (const type of EVENTS) window.removeEventListener(type, onActivity, { capture: true });
    };
  }, []);
}
