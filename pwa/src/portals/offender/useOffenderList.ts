/**
 * The offender's list, stale-while-revalidate: the copy saved on the tablet shows at once, the API's
 * answer replaces it and is saved (sealed) in its place. A request that fails, or hangs past LIST_TIMEOUT_MS,
 * leaves the saved copy on screen with the offline banner and is tried again with back-off (and at once when the
 * browser says the network is back, or on Try Again). A live answer also sends the readings queued offline and
 * fetches unread documents ahead. Without an unlocked cache (network-only) it is the plain network list.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, SESSION_LOCKED } from '../../lib/api.ts';
import { browserState } from '../../lib/state/browserState.ts';
import { documentStore } from '../../mail/documentStore.ts';
import { timeSensitiveFirst } from '../../mail/delivery.ts';
import type { DocumentRow } from '../../mail/listLogic.ts';
import { fetchDocuments } from '../../mail/mailApi.ts';
import { onConnectivityChange } from '../../offline/connectivity.ts';
import { LIST_TIMEOUT_MS, retryDelay } from '../../offline/listRetry.ts';
import { lockTablet, prefetchUnread, sendQueuedReadings } from '../../offline/tabletSession.ts';

export interface OffenderList {
  loading: boolean;
  /** True once the API's answer is on screen; false while the saved copy (or nothing) is shown. */
  live: boolean;
  /** The last request got no answer (or hung): what is on screen is the saved copy, if any, until one comes. */
  offline: boolean;
  /** When the copy on screen was saved (ms), null when none is. */
  savedAt: number | null;
  retry(): void;
}

function isRow(value: unknown): value is DocumentRow {
  return typeof value === 'object' && value !== null && typeof (value as DocumentRow).documentid === 'string';
}

export function useOffenderList(
  docNumber: string | null,
  options: { cache: boolean; onError(error: unknown, firstOfRound: boolean): void },
): OffenderList {
  const [loading, setLoading] = useState(docNumber !== null);
  const [live, setLive] = useState(false);
  const [offline, setOffline] = useState(false);
  const [savedAt, setSavedAt] = useState<number | null>(null);
  const [round, setRound] = useState(0);
  const failures = useRef(0);
  /** When the list on screen came from the server (and was saved), for the banner when the network drops. */
  const receivedAt = useRef<number | null>(null);
  const callbacks = useRef(options);
  callbacks.current = options;
  const { cache } = options;

  // The saved copy first: on screen before the network has answered (or failed).
  useEffect(() => {
    if (!cache) return;
    let cancelled = false;
    void browserState.loadList().then((saved) => {
      if (cancelled || !saved.ok || !saved.value) return;
      // Only while nothing live is on screen: a late read of the cache must not replace a fresher answer.
      if (documentStore.list().length === 0) {
        documentStore.replaceAll(saved.value.documents.filter(isRow));
        setSavedAt(saved.value.savedAt);
      }
    });
    return () => {
      cancelled = true;
    };
  }, [cache]);

  useEffect(() => {
    if (docNumber === null) {
      setLoading(false);
      return;
    }
    const controller = new AbortController();
    let timedOut = false;
    const timer = window.setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, LIST_TIMEOUT_MS);
    let retryTimer: number | undefined;
    setLoading(true);
    fetchDocuments({ kind: 'offender', docNumber }, { signal: controller.signal, quiet: true })
      .then((rows) => {
        failures.current = 0;
        receivedAt.current = Date.now();
        documentStore.replaceAll(rows);
        setLive(true);
        setOffline(false);
        setSavedAt(null);
        if (!callbacks.current.cache) return;
        void browserState.saveList(rows);
        void sendQueuedReadings();
        // Time-sensitive mail is fetched ahead first: a deadline must be readable offline before anything else.
        void prefetchUnread(
          timeSensitiveFirst(rows.filter((row) => row.viewed_at === null)).map((row) => row.documentid),
        );
      }, (failure: unknown) => {
        if (controller.signal.aborted && !timedOut) return;
        const error = timedOut ? new ApiError(0, null) : failure;
        setLive(false);
        if (error instanceof ApiError && error.status > 0) {
          // An answer: the network is back, whatever it says.
          setOffline(false);
          // The server holds the session locked (the PIN opened the saved copy offline after the lock had reached
          // it): the lock screen, where the PIN is checked online; not a failed load.
          if (error.status === 423 && error.code === SESSION_LOCKED) {
            void lockTablet();
            return;
          }
        }
        callbacks.current.onError(error, failures.current === 0);
        // A refusal with a status (401, 404...) is an answer, not a drop: only a missing answer is retried.
        if (error instanceof ApiError && error.status === 0) {
          setOffline(true);
          retryTimer = window.setTimeout(() => setRound((n) => n + 1), retryDelay(failures.current));
        }
        failures.current += 1;
      })
      .finally(() => {
        window.clearTimeout(timer);
        if (!controller.signal.aborted || timedOut) setLoading(false);
      });
    return () => {
      window.clearTimeout(timer);
      window.clearTimeout(retryTimer);
      controller.abort();
    };
  }, [docNumber, round]);

  // The network is back: try at once instead of waiting out the back-off. It dropped: say so now, not at the
  // next refresh, with the time of the list on screen.
  useEffect(() =>
    onConnectivityChange((online) => {
      if (online) {
        setRound((n) => n + 1);
        return;
      }
      setOffline(true);
      setLive(false);
      setSavedAt((saved) => saved ?? receivedAt.current);
    }), []);

  const retry = useCallback(() => {
    failures.current = 0;
    setRound((n) => n + 1);
  }, []);
  return { loading, live, offline, savedAt, retry };
}
