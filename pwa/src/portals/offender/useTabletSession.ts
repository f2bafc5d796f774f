/**
 * The tablet session as the offender's portal sees it (offline/tabletSession.ts): started when the portal
 * mounts, the client's clock checked every few seconds (lock, wipe), every touch counted as activity, the
 * viewer pop-ups answered while unlocked, the queue sent when the network returns, and an ended session taken to
 * the sign-in screen with why.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useToast } from '../../components/useToast.ts';
import { onSessionLocked } from '../../lib/api.ts';
import { PATHS } from '../../lib/routing.ts';
import { onConnectivityChange } from '../../offline/connectivity.ts';
import {
  checkTabletClock,
  CLOCK_CHECK_MS,
  lockTablet,
  recordActivity,
  sendQueuedReadings,
  serveViewerPopups,
  startTabletSession,
  type TabletState,
  tabletState,
} from '../../offline/tabletSession.ts';

const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart', 'scroll'] as const;

export function useTabletSession(): TabletState {
  const state = useSyncExternalStore(tabletState.subscribe, tabletState.get);
  const navigate = useNavigate();
  const toast = useToast();
  const { t } = useTranslation();

  useEffect(() => {
    void startTabletSession();
    const stopServing = serveViewerPopups();
    const clock = window.setInterval(() => void checkTabletClock(), CLOCK_CHECK_MS);
    // A tablet that slept: the clock is read as soon as it is looked at again.
    const onVisible = () => document.visibilityState === 'visible' && void checkTabletClock();
    document.addEventListener('visibilitychange', onVisible);
    for (const type of ACTIVITY_EVENTS) {
      window.addEventListener(type, recordActivity, { capture: true, passive: true });
    }
    // Sending starts with a lock made offline, if any: the server hears of it before anything else.
    const stopConnectivity = onConnectivityChange((online) => online && void sendQueuedReadings());
    // The server holds the session locked (the PIN reopened it offline after the lock had reached the server):
    // the lock screen, for the PIN to be checked online.
    const stopLocked = onSessionLocked(() => void lockTablet());
    return () => {
      stopServing();
      window.clearInterval(clock);
      document.removeEventListener('visibilitychange', onVisible);
      for (const type of ACTIVITY_EVENTS) window.removeEventListener(type, recordActivity, { capture: true });
      stopConnectivity();
      stopLocked();
    };
  }, []);

  useEffect(() => {
    // The live phase, not this render's: a session that ended before this mount is already 'starting' again.
    if (state.phase !== 'ended' || tabletState.get().phase !== 'ended') return;
    if (state.endedBy === 'idle') toast.error(t('offline.endedByIdle'));
    navigate(PATHS.login, { replace: true });
  }, [state, navigate, toast, t]);

  return state;
}
