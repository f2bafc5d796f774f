/**
 * The load of a back-office screen: fetched when the screen opens (aborted if it closes first),
 * fetched again on demand (Refresh, Retry, after a change), and a failure turned into the
 * screen's own message (spec section 8) instead of an exception.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { failureMessage, type FailureTexts } from './api.ts';

export interface Loaded<T> {
  data: T;
  /** For an optimistic local change (a status toggled) without a refetch. */
  setData: (update: T | ((previous: T) => T)) => void;
  loading: boolean;
  /** The last load's failure message, null after a success. */
  error: string | null;
  reload: () => Promise<void>;
}

export function useLoaded<T>(
  fetcher: (signal?: AbortSignal) => Promise<T>,
  initial: T,
  texts: FailureTexts,
): Loaded<T> {
  const [data, setData] = useState<T>(initial);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  // Through refs: a new function or object each render must not refetch.
  const source = useRef({ fetcher, texts });
  source.current = { fetcher, texts };

  const load = useCallback(async (signal?: AbortSignal) => {
    setLoading(true);
    try {
      setData(await source.current.fetcher(signal));
      setError(null);
    } catch (failure) {
      if (signal?.aborted) return;
      setError(failureMessage(failure, source.current.texts));
    } finally {
      if (!signal?.aborted) setLoading(false);
    }
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    return () => controller.abort();
  }, [load]);

  const reload = useCallback(() => load(), [load]);
  return { data, setData, loading, error, reload };
}
