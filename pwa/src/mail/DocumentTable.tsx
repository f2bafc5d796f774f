/**
 * The document table every portal shares: a search box, the table (sortable
 * headers where the portal sorts), the row actions View / Print / Info, a
 * page-size selector, Previous / numbered / Next buttons and the footer count.
 * Any change to the list or the search, and any page-size change, returns to
 * page 1 (spec section 4).
 *
 * Two modes. Given `server`, the table shows the page the server sent and
 * hands every change of search, sort, size and page to it (the sender lists,
 * useSenderPage.ts). Without it, it searches, sorts and pages `rows` itself
 * (the offender's list and /files, which are small).
 */
import { CaretDownOutlined, CaretUpOutlined, CloseOutlined } from '@ant-design/icons';
import { Button, Flex, Input, Select, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useId, useMemo, useState } from 'react';
import { useMediaQuery } from '../lib/useMediaQuery.ts';
import { DocumentCards } from './DocumentCards.tsx';
import { cellContent, type ColumnKey, type ColumnSpec, rowActions } from './DocumentCells.tsx';
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

export interface DocumentTableProps {
  /** Names the table and its search box for screen readers. */
  label: string;
  /** The whole list, or with `server` the page shown. */
  rows: readonly DocumentRow[];
  /** Server-driven paging, sorting and search; absent: the table does them itself on `rows`. */
  server?: ServerPaging;
  loading: boolean;
  columns: readonly ColumnSpec[];
  searchFields: readonly SearchField[];
  searchPlaceholder: string;
  /** The initial sort; null: the portal does not sort (the offender list). */
  defaultSort: SortState | null;
  onView(row: DocumentRow): void;
  onPrint(row: DocumentRow): void;
  /** Absent: no Info button (/files). */
  onInfo?(row: DocumentRow): void;
  /**
   * Made for a touch screen (the offender's facility tablet): a card per
   * document below NARROW_QUERY's width, the table above it, full-size
   * buttons (the offender portal's TABLET_THEME makes controls 44 px) and long names
   * wrapped rather than pushing the actions off the screen. The cards have no
   * sort headers: meant for a list that does not sort.
   */
  touch?: boolean;
}

/** Below antd's lg breakpoint (992 px: a tablet held upright) a row's six columns do not fit across. */
export const NARROW_QUERY = '(max-width: 991.98px)';

const SORTABLE: readonly ColumnKey[] = ['name', 'offenderdocnumber', 'date', 'pages', 'eformDue'];

function SortHeader(
  { title, state, onSort }: { title: string; state: 'asc' | 'desc' | null; onSort(): void },
) {
  return (
    <button type='button' className='sort-header' onClick={onSort}>
      {title}
      <span className='sort-icons' aria-hidden>
        <CaretUpOutlined className={state === 'asc' ? 'active' : ''} />
        <CaretDownOutlined className={state === 'desc' ? 'active' : ''} />
      </span>
    </button>
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
    () => (enabled ? sortRows(searchRows(rows, query, searchFields), defaultSort ? sort : null) : []),
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
    touch = false,
  } = props;
  const narrow = useMediaQuery(NARROW_QUERY);
  const cards = touch && narrow;
  const client = useClientPaging(rows, { searchFields, defaultSort, enabled: !server });
  const view = server
    ? {
      ...server,
      rows,
      pages: pageCount(server.total, server.pageSize),
      footer: rangeText(server.offset, rows.length, server.total),
    }
    : client;
  const { page: current, pages, pageSize, sort, search: query } = view;
  const searchId = useId();
  const sizeId = useId();

  const actionProps = { onView, onPrint, onInfo, size: touch ? 'middle' as const : 'small' as const };
  const tableColumns: ColumnsType<DocumentRow> = [
    ...columns.map((column) => {
      const sortable = defaultSort !== null && SORTABLE.includes(column.key);
      const state = sortable && sort?.key === column.key ? sort.order : null;
      return {
        key: column.key,
        title: sortable
          ? (
            <SortHeader
              title={column.title}
              state={state}
              onSort={() => view.onSort(nextSort(sort, column.key as SortKey))}
            />
          )
          : column.title,
        onHeaderCell: () => ({
          'aria-sort': state === 'asc'
            ? 'ascending' as const
            : state === 'desc'
            ? 'descending' as const
            : undefined,
        }),
        render: (_: unknown, row: DocumentRow) => cellContent(row, column.key),
      };
    }),
    {
      key: 'actions',
      title: 'Actions',
      render: (_: unknown, row: DocumentRow) => (
        // On a tablet the three stay on one line: stacked 44 px buttons would make every row tall.
        <Space size={touch ? 8 : 4} wrap={!touch}>
          {rowActions({ ...actionProps, row })}
        </Space>
      ),
    },
  ];

  return (
    <div className={touch ? 'document-table document-table-touch' : 'document-table'}>
      <Flex justify='space-between' align='center' wrap gap={12} className='document-table-tools'>
        <Flex align='center' gap={8}>
          <label htmlFor={sizeId}>Show</label>
          <Select
            id={sizeId}
            aria-label='Entries per page'
            value={pageSize}
            onChange={view.onPageSize}
            options={PAGE_SIZES.map((size) => ({ value: size, label: String(size) }))}
            style={{ width: 80 }}
          />
          <span>entries</span>
        </Flex>
        <Flex align='center' gap={8}>
          <label htmlFor={searchId}>Search:</label>
          <Input
            id={searchId}
            type='search'
            allowClear={!touch}
            value={query}
            placeholder={props.searchPlaceholder}
            onChange={(event) => view.onSearch(event.target.value)}
            style={{ width: 260 }}
          />
          {
            // antd's clear icon is a 12 px button without a name: on a touch screen, a real one.
            touch && (
              <Button
                aria-label='Clear search'
                icon={<CloseOutlined />}
                disabled={query === ''}
                onClick={() => view.onSearch('')}
              />
            )
          }
        </Flex>
      </Flex>
      {cards
        ? (
          <DocumentCards
            label={props.label}
            rows={view.rows}
            loading={loading}
            columns={columns}
            actions={(row) => rowActions({ ...actionProps, row })}
          />
        )
        : (
          <Table<DocumentRow>
            aria-label={props.label}
            rowKey='documentid'
            columns={tableColumns}
            dataSource={view.rows}
            loading={loading}
            pagination={false}
            locale={{ emptyText: 'No documents found' }}
            // No `scroll`: antd would add a hidden row measuring the columns with copies of the headers, sort
            // buttons included (focusable inside aria-hidden, which Lighthouse fails). mail.css scrolls instead.
          />
        )}
      <Flex justify='space-between' align='center' wrap gap={12} className='document-table-footer'>
        <Typography.Text role='status' className='document-table-count'>
          {view.footer}
        </Typography.Text>
        <nav aria-label='Pages'>
          <Space size={4} wrap>
            <Button onClick={() => view.onPage(current - 1)} disabled={current <= 1}>Previous</Button>
            {pageButtons(current, pages).map((number, index) =>
              number === null ? <span key={`gap-${index}`} aria-hidden>…</span> : (
                <Button
                  key={number}
                  type={number === current ? 'primary' : 'default'}
                  disabled={number === current}
                  aria-current={number === current ? 'page' : undefined}
                  aria-label={`Page ${number}`}
                  onClick={() => view.onPage(number)}
                >
                  {number}
                </Button>
              )
            )}
            <Button onClick={() => view.onPage(current + 1)} disabled={current >= pages}>Next</Button>
          </Space>
        </nav>
      </Flex>
    </div>
  );
}
