/**
 * The offender's document list on the facility tablet (spec sections 2, 4, 5, 9): the page-size choice, the
 * search box, the table (a card per document when the tablet is held upright: OffenderCards), View / Print /
 * Info, the footer count and Previous / numbered / Next. Any change to the list or the search, and any
 * page-size change, returns to page 1. The offender's list does not sort (spec section 4 sorts the staff lists).
 *
 * Plain markup, not the staff portals' antd table (mail/DocumentTable.tsx): the tablet's path must stay within
 * issue 12's 200 KB of JavaScript. Every control is a native element (keyboard and screen reader for free) and
 * at least 44 CSS px on the tablet (offender.css).
 */
import { useEffect, useId, useMemo, useState } from 'react';
import { useMediaQuery } from '../../lib/useMediaQuery.ts';
import {
  DEFAULT_PAGE_SIZE,
  type DocumentRow,
  footerText,
  PAGE_SIZES,
  pageButtons,
  pageCount,
  pageRows,
  type SearchField,
  searchRows,
} from '../../mail/listLogic.ts';
import { OffenderCards } from './OffenderCards.tsx';
import { cellContent, COLUMNS, type RowActionHandlers, RowActions, SentBy } from './documentCells.tsx';

/** Below 992 px (a tablet held upright) a row's six columns do not fit across: cards instead. */
export const NARROW_QUERY = '(max-width: 991.98px)';

const SEARCH_FIELDS: readonly SearchField[] = ['name', 'attorney'];

export interface OffenderTableProps extends RowActionHandlers {
  /** Names the table (its caption) and the card list for screen readers. */
  label: string;
  rows: readonly DocumentRow[];
  loading: boolean;
}

function CloseIcon() {
  return (
    <svg viewBox='0 0 16 16' width='1em' height='1em' aria-hidden='true' focusable='false'>
      <path d='M3 3l10 10M13 3L3 13' stroke='currentColor' strokeWidth='1.6' strokeLinecap='round' />
    </svg>
  );
}

function Table(
  { label, rows, loading, actions }: {
    label: string;
    rows: readonly DocumentRow[];
    loading: boolean;
    actions: RowActionHandlers;
  },
) {
  return (
    <div className='offender-table-scroll'>
      <table className='offender-table' aria-busy={loading}>
        <caption className='visually-hidden'>{label}</caption>
        <thead>
          <tr>
            {COLUMNS.map((column) => <th key={column.key} scope='col'>{column.title}</th>)}
            <th scope='col'>Actions</th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr className='offender-table-empty'>
              <td colSpan={COLUMNS.length + 1}>
                {loading
                  ? (
                    <span className='spinner' role='status'>
                      <span className='spinner-ring' aria-hidden='true' />
                      <span>Loading documents</span>
                    </span>
                  )
                  : 'No documents found'}
              </td>
            </tr>
          )}
          {rows.map((row) => (
            <tr key={row.documentid} className='offender-table-row'>
              {COLUMNS.map((column) => (
                <td key={column.key}>
                  {column.key === 'name'
                    ? (
                      <div className='document-name'>
                        <span>{row.name}</span>
                        <SentBy row={row} />
                      </div>
                    )
                    : cellContent(row, column.key)}
                </td>
              ))}
              <td className='offender-table-actions'>
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

function Pager({ current, pages, onPage }: { current: number; pages: number; onPage(page: number): void }) {
  return (
    <nav aria-label='Pages' className='pager'>
      <button type='button' className='btn' onClick={() => onPage(current - 1)} disabled={current <= 1}>
        Previous
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
              aria-label={`Page ${number}`}
              onClick={() => onPage(number)}
            >
              {number}
            </button>
          )
      )}
      <button type='button' className='btn' onClick={() => onPage(current + 1)} disabled={current >= pages}>
        Next
      </button>
    </nav>
  );
}

export function OffenderTable({ label, rows, loading, onView, onPrint, onInfo }: OffenderTableProps) {
  const cards = useMediaQuery(NARROW_QUERY);
  const [query, setQuery] = useState('');
  const [pageSize, setPageSize] = useState<number>(DEFAULT_PAGE_SIZE);
  const [page, setPage] = useState(1);
  const searchId = useId();
  const sizeId = useId();

  const shown = useMemo(() => searchRows(rows, query, SEARCH_FIELDS), [rows, query]);
  useEffect(() => setPage(1), [rows, query]);
  const pages = pageCount(shown.length, pageSize);
  const current = Math.min(page, pages);
  const pageOfRows = pageRows(shown, current, pageSize);
  const actions = useMemo(() => ({ onView, onPrint, onInfo }), [onView, onPrint, onInfo]);

  return (
    <div className='document-table offender-list'>
      <div className='document-table-tools'>
        <div className='tool'>
          <label htmlFor={sizeId}>Show</label>
          <select
            id={sizeId}
            className='input page-size'
            aria-label='Entries per page'
            value={pageSize}
            onChange={(event) => {
              setPageSize(Number(event.target.value));
              setPage(1);
            }}
          >
            {PAGE_SIZES.map((size) => <option key={size} value={size}>{size}</option>)}
          </select>
          <span>entries</span>
        </div>
        <div className='tool'>
          <label htmlFor={searchId}>Search:</label>
          <input
            id={searchId}
            type='search'
            className='input search-input'
            value={query}
            placeholder='Document name, attorney or pages'
            onChange={(event) => setQuery(event.target.value)}
          />
          <button
            type='button'
            className='btn btn-icon'
            aria-label='Clear search'
            disabled={query === ''}
            onClick={() => setQuery('')}
          >
            <CloseIcon />
          </button>
        </div>
      </div>
      {cards
        ? <OffenderCards label={label} rows={pageOfRows} loading={loading} actions={actions} />
        : <Table label={label} rows={pageOfRows} loading={loading} actions={actions} />}
      {
        // Not while the first load shows its spinner: the rows would push it down (a layout shift Lighthouse
        // counts, CLS 0.04 on the tablet's list); it appears once, under them.
        !loading && (
          <div className='document-table-footer'>
            <p role='status' className='document-table-count'>
              {footerText(current, pageSize, shown.length)}
            </p>
            <Pager current={current} pages={pages} onPage={setPage} />
          </div>
        )
      }
    </div>
  );
}
