import assert from 'node:assert/strict';
import {
  type CursorPagesEvent,
  type CursorPagesState,
  initialPages,
  moreCursor,
  nextPages,
  type PageRules,
} from './cursorPages.ts';

interface Page {
  rows: string[];
  nextCursor: string | null;
}

const RULES: PageRules<Page> = {
  empty: { rows: [], nextCursor: null },
  append: (shown, next) => ({ rows: [...shown.rows, ...next.rows], nextCursor: next.nextCursor }),
};

type State = CursorPagesState<Page, string>;

function run(events: CursorPagesEvent<Page, string>[], from: State = initialPages(RULES)): State {
  return events.reduce((state, event) => nextPages(state, event, RULES), from);
}

function page(rows: string[], nextCursor: string | null = null): Page {
  return { rows, nextCursor };
}

Deno.test('a list is loading from the start, with no rows and no failure', () => {
  assert.deepEqual(initialPages(RULES), {
    page: { rows: [], nextCursor: null },
    loading: true,
    loadingMore: false,
    error: null,
    moreError: null,
    request: 0,
  });
});

Deno.test('the first page replaces the rows, and Load more adds the next page after them', () => {
  const first = run([
    { type: 'sent', request: 1, more: false },
    { type: 'answered', request: 1, more: false, page: page(['a', 'b'], 'b') },
  ]);
  assert.deepEqual([first.page, first.loading], [page(['a', 'b'], 'b'), false]);
  const asking = run([{ type: 'sent', request: 2, more: true }], first);
  assert.deepEqual([asking.loading, asking.loadingMore, asking.page], [false, true, first.page]);
  const more = run([{ type: 'answered', request: 2, more: true, page: page(['c']) }], asking);
  assert.deepEqual([more.page, more.loadingMore], [page(['a', 'b', 'c']), false]);
  const again = run([
    { type: 'sent', request: 3, more: false },
    { type: 'answered', request: 3, more: false, page: page(['z']) },
  ], more);
  assert.deepEqual(again.page, page(['z']), 'a first page (new filters, Refresh) starts over');
});

Deno.test('a slower answer to an earlier request never overwrites the answer to a later one', () => {
  const state = run([
    { type: 'sent', request: 1, more: false },
    { type: 'sent', request: 2, more: false },
    { type: 'answered', request: 2, more: false, page: page(['new filter']) },
    { type: 'answered', request: 1, more: false, page: page(['old filter']) },
    { type: 'failed', request: 1, more: false, error: 'late failure' },
  ]);
  assert.deepEqual([state.page, state.error, state.loading], [page(['new filter']), null, false]);
  const waiting = run([
    { type: 'sent', request: 1, more: false },
    { type: 'sent', request: 2, more: false },
    { type: 'answered', request: 1, more: false, page: page(['old filter']) },
  ]);
  assert.deepEqual(
    [waiting.page, waiting.loading],
    [page([]), true],
    'the earlier answer neither shows nor ends the wait for the later one',
  );
});

Deno.test('a failed first page empties the list; a failed Load more keeps the rows shown', () => {
  const shown = run([
    { type: 'sent', request: 1, more: false },
    { type: 'answered', request: 1, more: false, page: page(['a'], 'a') },
  ]);
  const more = run([
    { type: 'sent', request: 2, more: true },
    { type: 'failed', request: 2, more: true, error: 'Failed to fetch users' },
  ], shown);
  assert.deepEqual([more.page, more.moreError, more.error, more.loadingMore], [
    page(['a'], 'a'),
    'Failed to fetch users',
    null,
    false,
  ]);
  const retried = run([
    { type: 'sent', request: 3, more: true },
    { type: 'answered', request: 3, more: true, page: page(['b']) },
  ], more);
  assert.deepEqual([retried.page.rows, retried.moreError], [['a', 'b'], null]);
  const first = run([
    { type: 'sent', request: 4, more: false },
    { type: 'failed', request: 4, more: false, error: 'Failed to load users' },
  ], retried);
  assert.deepEqual([first.page, first.error, first.loading], [page([]), 'Failed to load users', false]);
  const recovered = run([
    { type: 'sent', request: 5, more: false },
    { type: 'answered', request: 5, more: false, page: page(['a']) },
  ], { ...first, moreError: 'an older Load more' });
  assert.deepEqual([recovered.error, recovered.moreError], [null, null], 'a first page clears both failures');
});

Deno.test('a change made on screen edits the rows without touching the request in flight', () => {
  const state = run([
    { type: 'sent', request: 1, more: false },
    { type: 'answered', request: 1, more: false, page: page(['a', 'b'], 'b') },
    { type: 'sent', request: 2, more: true },
    { type: 'edited', update: (shown) => ({ ...shown, rows: shown.rows.filter((row) => row !== 'a') }) },
    { type: 'answered', request: 2, more: true, page: page(['c']) },
  ]);
  assert.deepEqual(state.page, page(['b', 'c']));
});

Deno.test("'Load more' starts after the rows shown, and not while a new query's first page is on its way", () => {
  const shown = run([{ type: 'sent', request: 1, more: false }, {
    type: 'answered',
    request: 1,
    more: false,
    page: page(['a'], 'after-a'),
  }]);
  assert.equal(moreCursor(shown), 'after-a');
  // The filters changed: 'after-a' belongs to the rows the new answer replaces.
  const refiltering = run([{ type: 'sent', request: 2, more: false }], shown);
  assert.equal(moreCursor(refiltering), null);
  const refiltered = run(
    [{ type: 'answered', request: 2, more: false, page: page(['b'], 'after-b') }],
    refiltering,
  );
  assert.equal(moreCursor(refiltered), 'after-b');
  assert.equal(
    moreCursor(run([{ type: 'answered', request: 2, more: false, page: page(['b']) }], refiltering)),
    null,
  );
});
