/**
 * The Users screen's list, searched and paged on the server (100,000 offenders do not fit in a
 * browser): the filters as typed, the search sent 300 ms after the last keystroke, the first page fetched again
 * whenever the filters change and 'Load more' appending the next page (lib/useCursorPages.ts, where a slower
 * earlier answer never overwrites a later one), and the load failures as the screen's own messages.
 */
import { t } from 'i18next';
import { useEffect, useMemo, useState } from 'react';
import { failureMessage } from '../../../lib/api.ts';
import { type CursorPages, useCursorPages } from '../../../lib/useCursorPages.ts';
import { fetchUsersPage } from './usersApi.ts';
import {
  appendPage,
  NO_USER_FILTERS,
  NO_USERS,
  SEARCH_DEBOUNCE_MS,
  type UserFilters,
  type UsersPage,
} from './usersLogic.ts';

function describeFailure(failure: unknown): string {
  return failureMessage(failure, { failed: t('users.fetchFailed'), error: t('users.loadFailed') });
}

export interface UserPages extends CursorPages<UsersPage, string> {
  /** The filters as the admin set them (the search box shows this). */
  filters: UserFilters;
  setFilters(filters: UserFilters): void;
  /** The filters of the rows shown: the search as it was sent, after the debounce. */
  applied: UserFilters;
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
  const { role, status } = filters;
  // A new object only when a filter the server sees changes: typing waits for the debounce.
  const applied = useMemo<UserFilters>(() => ({ search, role, status }), [search, role, status]);
  const pages = useCursorPages({
    query: applied,
    fetchPage: fetchUsersPage,
    empty: NO_USERS,
    append: appendPage,
    describe: describeFailure,
  });
  return { ...pages, filters, setFilters, applied };
}
