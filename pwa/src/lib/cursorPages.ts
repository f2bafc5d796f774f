/**
 * The rules of a list loaded from the server a page at a time with 'Load more' (the back office's User
 * Management and Audit Logs), kept free of React so they can be unit-tested; lib/useCursorPages.ts runs them.
 * A first page replaces the rows, a further one is added after them, and only the answer to the latest request
 * counts: a slower answer to an earlier one (the filters before the last change) is dropped.
 */

/** What a page of the server's answer must carry: where the next page starts (null: this was the last). */
export interface CursorPage {
  nextCursor: string | null;
}

export interface CursorPagesState<P extends CursorPage, E> {
  /** The rows shown: the first page and every further page loaded after it. */
  page: P;
  /** A first page is being loaded (the filters changed, Refresh, Retry). */
  loading: boolean;
  /** A further page is being loaded ('Load more'). */
  loadingMore: boolean;
  /** Why the first page failed, null after a success. */
  error: E | null;
  /** Why a further page failed (the rows already shown stay), null after a success. */
  moreError: E | null;
  /** The number of the request whose answer counts; an answer to any other is stale. */
  request: number;
}

/** How a screen's pages fit together. */
export interface PageRules<P extends CursorPage> {
  /** The rows before any answer, and after a first page failed. */
  empty: P;
  /** A further page after the rows already shown. */
  append(shown: P, next: P): P;
}

export type CursorPagesEvent<P extends CursorPage, E> =
  /** Request number `request` was sent: for the first page, or with `more` for the next one. */
  | { type: 'sent'; request: number; more: boolean }
  | { type: 'answered'; request: number; more: boolean; page: P }
  | { type: 'failed'; request: number; more: boolean; error: E }
  /** A change made on screen without a refetch (a user's status toggled). */
  | { type: 'edited'; update: (page: P) => P };

/**
 * Loading from the start (`loading`): a screen asks for its first page as soon as it opens, so its first paint
 * shows the table loading rather than an empty state that is not true yet.
 */
export function initialPages<P extends CursorPage, E>(rules: PageRules<P>): CursorPagesState<P, E> {
  return {
    page: rules.empty,
    loading: true,
    loadingMore: false,
    error: null,
    moreError: null,
    request: 0,
  };
}

/**
 * Where 'Load more' would start, or null when it has nothing to do: no further page, or a first page on its way.
 * The cursor shown then belongs to the rows that answer replaces: asking the new query for what comes after it
 * would append rows the new query never listed.
 */
export function moreCursor<P extends CursorPage, E>(state: CursorPagesState<P, E>): string | null {
  return state.loading ? null : state.page.nextCursor;
}

/** The state after one event. */
export function nextPages<P extends CursorPage, E>(
  state: CursorPagesState<P, E>,
  event: CursorPagesEvent<P, E>,
  rules: PageRules<P>,
): CursorPagesState<P, E> {
  if (event.type === 'edited') return { ...state, page: event.update(state.page) };
  if (event.type === 'sent') {
    return event.more
      ? { ...state, loadingMore: true, request: event.request }
      : { ...state, loading: true, request: event.request };
  }
  if (event.request !== state.request) return state;
  // The latest request has its answer: nothing is loading any more, whichever kind was waited for.
  const settled = { ...state, loading: false, loadingMore: false };
  if (event.type === 'answered') {
    return event.more
      ? { ...settled, page: rules.append(state.page, event.page), moreError: null }
      : { ...settled, page: event.page, error: null, moreError: null };
  }
  return event.more
    ? { ...settled, moreError: event.error }
    : { ...settled, page: rules.empty, error: event.error };
}
