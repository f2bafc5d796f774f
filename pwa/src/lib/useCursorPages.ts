/**
 * A server list paged by cursor with 'Load more' (lib/cursorPages.ts has its rules): the first page asked again
 * whenever the query changes, the next page added on demand, the request in flight aborted by a newer one, and
 * a failure turned into the screen's own message by `describe` instead of an exception.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { type CursorPage, initialPages, moreCursor, nextPages, type PageRules } from './cursorPages.ts';

export interface CursorPagesOptions<Q, P extends CursorPage, E> extends PageRules<P> {
  /** What the server filters by; a new value (by identity) asks for the first page again. */
  query: Q;
  fetchPage(query: Q, cursor: string | null, signal: AbortSignal): Promise<P>;
  /** A failed request as the screen shows it. */
  describe(failure: unknown): E;
}

export interface CursorPages<P extends CursorPage, E> {
  page: P;
  /** For a change made on screen (a status toggled) without a refetch. */
  setPage(update: (previous: P) => P): void;
  loading: boolean;
  loadingMore: boolean;
  /** The first page's failure, null after a success. */
  error: E | null;
  /** A 'Load more' that failed (the rows already shown stay), null after a success. */
  moreError: E | null;
  /** The first page again, with the same query (Refresh, Retry, after the list changed). */
  reload(): Promise<void>;
  /** The next page, added after the rows shown; nothing when there is none or a first page is loading. */
  loadMore(): Promise<void>;
}

export function useCursorPages<Q, P extends CursorPage, E>(
  options: CursorPagesOptions<Q, P, E>,
): CursorPages<P, E> {
  // Through a ref: a new function or object each render must not refetch.
  const source = useRef(options);
  source.current = options;
  const [state, setState] = useState(() => initialPages<P, E>(options));
  const requests = useRef(0);
  // The one request in flight: a newer one aborts it, so the network stops waiting for an answer that is stale.
  const inFlight = useRef<AbortController | null>(null);

  const load = useCallback(async (query: Q, cursor: string | null) => {
    const rules = source.current;
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    const request = ++requests.current;
    const more = cursor !== null;
    setState((previous) => nextPages(previous, { type: 'sent', request, more }, rules));
    try {
      const page = await rules.fetchPage(query, cursor, controller.signal);
      setState((previous) => nextPages(previous, { type: 'answered', request, more, page }, rules));
    } catch (failure) {
      if (controller.signal.aborted) return;
      const error = rules.describe(failure);
      setState((previous) => nextPages(previous, { type: 'failed', request, more, error }, rules));
    }
  }, []);

  const { query } = options;
  useEffect(() => {
    void load(query, null);
  }, [query, load]);
  useEffect(() => () => inFlight.current?.abort(), []);

  const setPage = useCallback((update: (previous: P) => P) => {
    setState((previous) => nextPages(previous, { type: 'edited', update }, source.current));
  }, []);
  const reload = useCallback(() => load(query, null), [query, load]);
  const cursor = moreCursor(state);
  const loadMore = useCallback(
    () => (cursor ? load(query, cursor) : Promise.resolve()),
    [query, load, cursor],
  );

  return {
    page: state.page,
    setPage,
    loading: state.loading,
    loadingMore: state.loadingMore,
    error: state.error,
    moreError: state.moreError,
    reload,
    loadMore,
  };
}
