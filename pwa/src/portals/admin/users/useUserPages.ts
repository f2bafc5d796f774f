/**
 * The Users screen's list, searched and paged on the server (issue 12: 100,000 offenders do not fit in a
 * browser): the filters as typed, the search sent 300 ms after the last keystroke, the first page fetched again
 * whenever the filters change (a slower earlier answer never overwrites a later one), 'Load more' appending the
 * next page, and the load failures as the screen's own messages.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { failureMessage } from '../../../lib/api.ts';
import { fetchUsersPage } from './usersApi.ts';
import {
  appendPage,
  NO_USER_FILTERS,
  NO_USERS,
  SEARCH_DEBOUNCE_MS,
  type UserFilters,
  USERS_TEXTS,
  type UsersPage,
} from './usersLogic.ts';

const LOAD_TEXTS = { failed: USERS_TEXTS.fetchFailed, error: USERS_TEXTS.loadFailed };

export interface UserPages {
  /** The filters as the admin set them (the search box shows this). */
  filters: UserFilters;
  setFilters(filters: UserFilters): void;
  /** The filters of the rows shown: the search as it was sent, after the debounce. */
  applied: UserFilters;
  page: UsersPage;
  /** For a change made on screen (a status toggled) without a refetch. */
  setPage(update: (previous: UsersPage) => UsersPage): void;
  loading: boolean;
  loadingMore: boolean;
  /** The first page's failure message, null after a success. */
  error: string | null;
  /** A 'Load more' that failed: its message (the rows already shown stay). */
  moreError: string | null;
  /** The first page again, with the same filters (Refresh, Retry, after an offender is added or imported). */
  reload(): Promise<void>;
  loadMore(): Promise<void>;
}

/** The value, once it has stopped changing for `ms`. */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export function useUserPages(): UserPages {
  const [filters, setFilters] = useState<UserFilters>(NO_USER_FILTERS);
  const search = useDebounced(filters.search, SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState<UsersPage>(NO_USERS);
  const [loading, setLoading] = useState(true);
  const [loadingMore, setLoadingMore] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [moreError, setMoreError] = useState<string | null>(null);
  // The one request in flight: a new one aborts it, so answers cannot arrive out of order.
  const request = useRef<AbortController | null>(null);

  const { role, status } = filters;
  // A new object only when a filter the server sees changes: typing waits for the debounce.
  const applied = useMemo<UserFilters>(() => ({ search, role, status }), [search, role, status]);

  const load = useCallback(async (query: UserFilters, cursor: string | null) => {
    request.current?.abort();
    const controller = new AbortController();
    request.current = controller;
    if (cursor) setLoadingMore(true);
    else setLoading(true);
    try {
      const next = await fetchUsersPage(query, cursor, controller.signal);
      if (controller.signal.aborted) return;
      setPage((previous) => (cursor ? appendPage(previous, next) : next));
      if (cursor) setMoreError(null);
      else {
        setError(null);
        setMoreError(null);
      }
    } catch (failure) {
      if (controller.signal.aborted) return;
      const message = failureMessage(failure, LOAD_TEXTS);
      if (cursor) setMoreError(message);
      else {
        setError(message);
        setPage(NO_USERS);
      }
    } finally {
      if (request.current === controller) {
        setLoading(false);
        setLoadingMore(false);
      }
    }
  }, []);

  useEffect(() => {
    void load(applied, null);
  }, [applied, load]);
  useEffect(() => () => request.current?.abort(), []);

  const reload = useCallback(() => load(applied, null), [applied, load]);
  const loadMore = useCallback(
    () => (page.nextCursor ? load(applied, page.nextCursor) : Promise.resolve()),
    [applied, load, page.nextCursor],
  );

  return {
    filters,
    setFilters,
    applied,
    page,
    setPage,
    loading,
    loadingMore,
    error,
    moreError,
    reload,
    loadMore,
  };
}
