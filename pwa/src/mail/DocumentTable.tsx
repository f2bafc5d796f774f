/**
 * The document table every list shares (the offender's tablet, the attorney's and representative's 'My
 * Documents', /files; spec sections 2, 4, 5, 9): the page-size choice, the search box, the table (sortable
 * headers where the portal sorts; a card per document below a desktop's width: DocumentCards), View /
 * Print / Info, the footer count and Previous / numbered / Next. Any change to the list or the search, and any
 * page-size change, returns to page 1 (spec section 4).
 *
 * Two modes. Given `server`, the table shows the page the server sent and hands every change of search, sort,
 * size and page to it (the sender lists, useSenderPage.ts). Without it, it searches, sorts and pages `rows`
 * itself (the offender's list and /files, which are small).
 *
 * Plain markup, no antd: every portal's first paint is this list, and it aims at Lighthouse ≥ 95.
 * Every control is a native element (keyboard and screen reader for free); the tablet's `.tablet` rules
 * (portals/offender/offender.css) make them 44 CSS px.
 */
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMediaQuery } from '../lib/useMediaQuery.ts';
import { DocumentCards } from './DocumentCards.tsx';
import { timeSensitiveFirst } from './delivery.ts';
import {
  cellContent,
  type CellContext,
  type ColumnKey,
  type ColumnSpec,
  type RowActionHandlers,
  RowActions,
  RowBadges,
} from './DocumentCells.tsx';
import {
  DEFAULT_PAGE_SIZE,
  type DocumentRow,
  footerText,
  nextSort,
  PAGE_SIZES,
  pageButtons,
  pageCount,
  pageRows,
  rangeText,
  type SearchField,
  searchRows,
  sharedDays,
  type SortKey,
  sortRows,
  type SortState,
} from './listLogic.ts';
import './mail.css';

export type { ColumnKey, ColumnSpec } from './DocumentCells.tsx';
export { PagesCell } from './DocumentCells.tsx';

/** A list the server searches, sorts and pages: the table shows `rows` as the page and reports each change. */
export interface ServerPaging {
  /** Rows matching the search in all. */
  total: number;
  /** Rows before the first one shown. */
  offset: number;
  /** 1-based. */
  page: number;
  pageSize: number;
  sort: SortState;
  /** The search box's text. */
  search: string;
  onSearch(text: string): void;
  onSort(sort: SortState): void;
  onPageSize(size: number): void;
  onPage(page: number): void;
}

export interface DocumentTableProps extends RowActionHandlers {
  /** Names the table (its caption) and the card list for screen readers. */
  label: string;
  /** The whole list, or with `server` the page shown. */
  rows: readonly DocumentRow[];
  /** Server-driven paging, sorting and search; absent: the table does them itself on `rows`. */
  server?: ServerPaging;
  loading: boolean;
  columns: readonly ColumnSpec[];
  searchFields: readonly SearchField[];
  searchPlaceholder: string;
  /** The initial sort; null: the list does not sort (the offender's list, /files). */
  defaultSort: SortState | null;
  /** Made for a touch screen (the offender's facility tablet): the table's columns sized by their rows. */
  touch?: boolean;
  /** The recipient's own list: which letters they have not opened yet (bold and marked New). */
  isUnread?(row: DocumentRow): boolean;
}

/**
 * Below 992 px (a tablet held upright, a phone) a row's six columns and its actions do not fit across: every list
 * shows a card per document instead, with a Sort by list in place of the headers.
 */
export const NARROW_QUERY = '(max-width: 991.98px)';

const SORTABLE: readonly ColumnKey[] = ['name', 'offenderdocnumber', 'date', 'pages', 'eformDue'];
const neverUnread = () => false;
const isSortable = (key: ColumnKey): key is SortKey => SORTABLE.includes(key);

function CloseIcon() {
  return (
    <svg viewBox='0 0 16 16' width='1em' height='1em' aria-hidden='true' focusable='false'>
      <path d='M3 3l10 10M13 3L3 13' stroke='currentColor' strokeWidth='1.6' strokeLinecap='round' />
    </svg>
  );
}

function SortIcons({ state }: { state: 'asc' | 'desc' | null }) {
  return (
    <svg className='sort-icons' viewBox='0 0 8 14' width='8' height='14' aria-hidden='true' focusable='false'>
      <path d='M4 1l3.5 4.5h-7z' className={state === 'asc' ? 'active' : undefined} />
      <path d='M4 13l3.5-4.5h-7z' className={state === 'desc' ? 'active' : undefined} />
    </svg>
  );
}

/** The table's own search, sort and paging of the whole list (the client mode). */
function useClientPaging(
  rows: readonly DocumentRow[],
  { searchFields, defaultSort, enabled }: {
    searchFields: readonly SearchField[];
    defaultSort: SortState | null;
    enabled: boolean;
  },
) {
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<SortState | null>(defaultSort);
  const [pageSize, setPageSize] = useState<number>(DEFAULT_PAGE_SIZE);
  const [page, setPage] = useState(1);
  const shown = useMemo(
    // Time-sensitive mail first whatever the sort: a deadline must not sit under newer letters.
    () =>
      enabled
        ? timeSensitiveFirst(sortRows(searchRows(rows, query, searchFields), defaultSort ? sort : null))
        : [],
    [enabled, rows, query, searchFields, sort, defaultSort],
  );
  useEffect(() => setPage(1), [rows, query]);
  const pages = pageCount(shown.length, pageSize);
  const current = Math.min(page, pages);
  return {
    rows: pageRows(shown, current, pageSize),
    page: current,
    pages,
    pageSize,
    sort,
    search: query,
    footer: footerText(current, pageSize, shown.length),
    onSearch: setQuery,
    onSort: setSort,
    onPageSize: (size: number) => {
      setPageSize(size);
      setPage(1);
    },
    onPage: setPage,
  };
}

function Pager({ current, pages, onPage }: { current: number; pages: number; onPage(page: number): void }) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t('list.pages')} className='pager'>
      <button type='button' className='btn' onClick={() => onPage(current - 1)} disabled={current <= 1}>
        {t('list.previous')}
      </button>
      {pageButtons(current, pages).map((number, index) =>
        number === null
          ? <span key={`gap-${index}`} className='pager-gap' aria-hidden='true'>…</span>
          : (
            <button
              type='button'
              key={number}
              className={number === current ? 'btn btn-primary' : 'btn'}
              disabled={number === current}
              aria-current={number === current ? 'page' : undefined}
              aria-label={t('list.page', { number })}
              onClick={() => onPage(number)}
            >
              {number}
            </button>
          )
      )}
      <button type='button' className='btn' onClick={() => onPage(current + 1)} disabled={current >= pages}>
        {t('list.next')}
      </button>
    </nav>
  );
}

function Table(
  { label, rows, loading, columns, sort, onSort, actions, touch, isUnread, context }: {
    label: string;
    touch: boolean;
    isUnread(row: DocumentRow): boolean;
    context: CellContext;
    rows: readonly DocumentRow[];
    loading: boolean;
    columns: readonly ColumnSpec[];
    /** Undefined: the list does not sort. */
    sort: SortState | null | undefined;
    onSort(sort: SortState): void;
    actions: RowActionHandlers;
  },
) {
  const { t } = useTranslation();
  return (
    <div className='documents-scroll'>
      {/* A desk's table lays its columns out by the table, not by the rows (documents-fixed, mail.css). */}
      <table
        className={[
          'documents',
          touch ? '' : 'documents-fixed',
          // A fourth action (Withdraw, the sender lists) needs a wider Actions column.
          actions.onWithdraw ? 'documents-withdraw' : '',
        ].filter(Boolean).join(' ')}
        aria-busy={loading}
      >
        <caption className='visually-hidden'>{label}</caption>
        <thead>
          <tr>
            {columns.map((column) => {
              const sortable = sort !== undefined && isSortable(column.key);
              if (!sortable) return <th key={column.key} scope='col'>{t(column.title)}</th>;
              const state = sort?.key === column.key ? sort.order : null;
              return (
                <th
                  key={column.key}
                  scope='col'
                  aria-sort={state === 'asc' ? 'ascending' : state === 'desc' ? 'descending' : 'none'}
                >
                  <button
                    type='button'
                    className='sort-header'
                    onClick={() => onSort(nextSort(sort ?? null, column.key as SortKey))}
                  >
                    {t(column.title)}
                    <SortIcons state={state} />
                  </button>
                </th>
              );
            })}
            <th scope='col'>{t('columns.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr className='documents-empty'>
              <td colSpan={columns.length + 1}>
                {loading
                  ? (
                    <span className='spinner' role='status'>
                      <span className='spinner-ring' aria-hidden='true' />
                      <span>{t('list.loading')}</span>
                    </span>
                  )
                  : t('list.empty')}
              </td>
            </tr>
          )}
          {rows.map((row) => (
            <tr
              key={row.documentid}
              className={isUnread(row) ? 'document-row document-unread' : 'document-row'}
            >
              {columns.map((column) => (
                <td key={column.key}>
                  {column.key === 'name'
                    ? (
                      <div className='document-name'>
                        <span>{row.name}</span>
                        <RowBadges row={row} unread={isUnread(row)} />
                      </div>
                    )
                    : cellContent(row, column.key, context)}
                </td>
              ))}
              <td className='document-actions'>
                <div>
                  <RowActions row={row} {...actions} />
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function DocumentTable(props: DocumentTableProps) {
  const {
    rows,
    server,
    loading,
    columns,
    searchFields,
    defaultSort,
    onView,
    onPrint,
    onInfo,
    infoAlways,
    onWithdraw,
    touch = false,
    isUnread = neverUnread,
  } = props;
  const narrow = useMediaQuery(NARROW_QUERY);
  const cards = narrow;
  const client = useClientPaging(rows, { searchFields, defaultSort, enabled: !server });
  const view = server
    ? {
      ...server,
      rows,
      pages: pageCount(server.total, server.pageSize),
      footer: rangeText(server.offset, rows.length, server.total),
    }
    : client;
  const searchId = useId();
  const sizeId = useId();
  const { t } = useTranslation();
  const actions = useMemo(
    () => ({ onView, onPrint, onInfo, infoAlways, onWithdraw }),
    [onView, onPrint, onInfo, infoAlways, onWithdraw],
  );
  const context = useMemo(() => ({ sharedDays: sharedDays(rows) }), [rows]);
  // The pager is under the rows: a new page starts at the top of the screen, not where the last one ended.
  const { onPage } = view;
  const goToPage = useCallback((page: number) => {
    onPage(page);
    window.scrollTo({ top: 0 });
  }, [onPage]);
  const sortKeys = useMemo(() => columns.map((column) => column.key).filter(isSortable), [columns]);

  return (
    <div className='document-table'>
      <div className='document-table-tools'>
        <div className='tool'>
          <label htmlFor={sizeId}>{t('list.show')}</label>
          <select
            id={sizeId}
            className='input page-size'
            aria-label={t('list.entriesPerPage')}
            value={view.pageSize}
            onChange={(event) => view.onPageSize(Number(event.target.value))}
          >
            {PAGE_SIZES.map((size) => <option key={size} value={size}>{size}</option>)}
          </select>
          <span>{t('list.entries')}</span>
        </div>
        <div className='tool'>
          <label htmlFor={searchId}>{t('list.search')}</label>
          <input
            id={searchId}
            type='search'
            className='input search-input'
            value={view.search}
            placeholder={props.searchPlaceholder}
            onChange={(event) => view.onSearch(event.target.value)}
          />
          <button
            type='button'
            className='btn btn-icon'
            aria-label={t('list.clearSearch')}
            disabled={view.search === ''}
            onClick={() => view.onSearch('')}
          >
            <CloseIcon />
          </button>
        </div>
      </div>
      {cards
        ? (
          <DocumentCards
            label={props.label}
            rows={view.rows}
            loading={loading}
            columns={columns}
            actions={actions}
            sorting={defaultSort === null
              ? undefined
              : { keys: sortKeys, sort: view.sort, onSort: view.onSort }}
            isUnread={isUnread}
            context={context}
          />
        )
        : (
          <Table
            label={props.label}
            rows={view.rows}
            loading={loading}
            columns={columns}
            sort={defaultSort === null ? undefined : view.sort}
            onSort={view.onSort}
            actions={actions}
            touch={touch}
            isUnread={isUnread}
            context={context}
          />
        )}
      {
        // Not while the first load shows its spinner: the rows would push it down (a layout shift Lighthouse
        // counts, CLS 0.04 on the tablet's list); it appears once, under them.
        !(loading && view.rows.length === 0) && (
          <div className='document-table-footer'>
            <p role='status' className='document-table-count'>{view.footer}</p>
            <Pager current={view.page} pages={view.pages} onPage={goToPage} />
          </div>
        )
      }
    </div>
  );
}
