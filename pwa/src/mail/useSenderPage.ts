/**
 * One page of a sender's list (attorney or representative) from the server: the server searches,
 * sorts and pages, so the busiest sender's 20,000 documents never travel. The screen's rules stay the ones of
 * spec sections 4, 5 and 9: any change of the search, the sort or the page size starts again at page 1, and so
 * does a reload after an upload. The search box asks the server once typing pauses.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../lib/api.ts';
import type { ServerPaging } from './DocumentTable.tsx';
import { fetchSenderPage, type SenderPageAnswer } from './mailApi.ts';
import {
  DEFAULT_PAGE_SIZE,
  DEFAULT_SORT,
  type DocumentRow,
  type PageStart,
  type SortState,
  startFor,
} from './listLogic.ts';

/** Typing pauses this long before the search is sent: one request per word, not per key. */
export const SEARCH_DEBOUNCE_MS = 300;

const FIRST: PageStart = { kind: 'first' };
const NOTHING: SenderPageAnswer = { rows: [], total: 0, offset: 0, nextCursor: null, prevCursor: null };

export interface SenderPageState {
  rows: DocumentRow[];
  /** What the table shows and the changes it reports (the search is sent once typing pauses). */
  paging: ServerPaging;
  loading: boolean;
  /** The last load's failure, null after a success. */
  error: unknown;
  /** Back to page 1 and load again (the list changed: an upload). */
  reload(): void;
  /** The same request again ('Try Again'); from page 1 when the server refused it (a stale cursor). */
  retry(): void;
}

export function useSenderPage(kind: 'attorney' | 'representative' | null): SenderPageState {
  const [search, setSearchText] = useState('');
  const [query, setQuery] = useState('');
  const [sort, setSortState] = useState<SortState>(DEFAULT_SORT);
  const [pageSize, setSize] = useState<number>(DEFAULT_PAGE_SIZE);
  const [start, setStart] = useState<PageStart>(FIRST);
  const [round, setRound] = useState(0);
  const [answer, setAnswer] = useState<SenderPageAnswer>(NOTHING);
  const [loading, setLoading] = useState(kind !== null);
  const [error, setError] = useState<unknown>(null);

  // The search last sent, so the pause after typing back to it asks nothing again.
  const sent = useRef('');
  useEffect(() => {
    const timer = setTimeout(() => {
      if (sent.current === search) return;
      sent.current = search;
      setQuery(search);
      setStart(FIRST);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search]);

  useEffect(() => {
    if (kind === null) {
      setLoading(false);
      return;
    }
    const controller = new AbortController();
    setLoading(true);
    fetchSenderPage(kind, {
      q: query.trim() === '' ? undefined : query,
      sort: sort.key,
      order: sort.order,
      pageSize,
      page: start.kind === 'page' ? start.page : undefined,
      after: start.kind === 'after' ? start.cursor : undefined,
      before: start.kind === 'before' ? start.cursor : undefined,
    }, { signal: controller.signal })
      .then((loaded) => {
        setAnswer(loaded);
        setError(null);
      }, (failure) => {
        if (!controller.signal.aborted) setError(failure);
      })
      .finally(() => {
        if (!controller.signal.aborted) setLoading(false);
      });
    return () => controller.abort();
  }, [kind, query, sort, pageSize, start, round]);

  const page = Math.floor(answer.offset / pageSize) + 1;
  const goTo = useCallback(
    (target: number) => setStart(startFor(target, { ...answer, page })),
    [answer, page],
  );
  const reload = useCallback(() => {
    setStart(FIRST);
    setRound((n) => n + 1);
  }, []);
  const retry = useCallback(() => {
    if (error instanceof ApiError && error.status === 400) setStart(FIRST);
    setRound((n) => n + 1);
  }, [error]);

  return {
    rows: answer.rows,
    paging: {
      total: answer.total,
      offset: answer.offset,
      page,
      pageSize,
      sort,
      search,
      onSearch: setSearchText,
      onSort: (next) => {
        setSortState(next);
        setStart(FIRST);
      },
      onPageSize: (size) => {
        setSize(size);
        setStart(FIRST);
      },
      onPage: goTo,
    },
    loading,
    error,
    reload,
    retry,
  };
}
