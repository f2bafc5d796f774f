/**
 * The document table every portal shares: a search box, the table (sortable
 * headers where the portal sorts), the row actions View / Print / Info, a
 * page-size selector, Previous / numbered / Next buttons and the footer count.
 * Any change to the list or the search, and any page-size change, returns to
 * page 1 (spec section 4).
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
  type SearchField,
  searchRows,
  type SortKey,
  sortRows,
  type SortState,
} from './listLogic.ts';
import './mail.css';

export type { ColumnKey, ColumnSpec } from './DocumentCells.tsx';
export { PagesCell } from './DocumentCells.tsx';

export interface DocumentTableProps {
  /** Names the table and its search box for screen readers. */
  label: string;
  rows: readonly DocumentRow[];
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

export function DocumentTable(props: DocumentTableProps) {
  const { rows, loading, columns, searchFields, defaultSort, onView, onPrint, onInfo, touch = false } = props;
  const narrow = useMediaQuery(NARROW_QUERY);
  const cards = touch && narrow;
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<SortState | null>(defaultSort);
  const [pageSize, setPageSize] = useState<number>(DEFAULT_PAGE_SIZE);
  const [page, setPage] = useState(1);
  const searchId = useId();
  const sizeId = useId();

  const shown = useMemo(
    () => sortRows(searchRows(rows, query, searchFields), defaultSort ? sort : null),
    [rows, query, searchFields, sort, defaultSort],
  );
  useEffect(() => setPage(1), [rows, query]);
  const pages = pageCount(shown.length, pageSize);
  const current = Math.min(page, pages);

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
              onSort={() => setSort(nextSort(sort, column.key as SortKey))}
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
            onChange={(size) => {
              setPageSize(size);
              setPage(1);
            }}
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
            onChange={(event) => setQuery(event.target.value)}
            style={{ width: 260 }}
          />
          {
            // antd's clear icon is a 12 px button without a name: on a touch screen, a real one.
            touch && (
              <Button
                aria-label='Clear search'
                icon={<CloseOutlined />}
                disabled={query === ''}
                onClick={() => setQuery('')}
              />
            )
          }
        </Flex>
      </Flex>
      {cards
        ? (
          <DocumentCards
            label={props.label}
            rows={pageRows(shown, current, pageSize)}
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
            dataSource={pageRows(shown, current, pageSize)}
            loading={loading}
            pagination={false}
            locale={{ emptyText: 'No documents found' }}
            scroll={{ x: true }}
          />
        )}
      <Flex justify='space-between' align='center' wrap gap={12} className='document-table-footer'>
        <Typography.Text role='status' className='document-table-count'>
          {footerText(current, pageSize, shown.length)}
        </Typography.Text>
        <nav aria-label='Pages'>
          <Space size={4} wrap>
            <Button onClick={() => setPage(current - 1)} disabled={current <= 1}>Previous</Button>
            {pageButtons(current, pages).map((number, index) =>
              number === null ? <span key={`gap-${index}`} aria-hidden>…</span> : (
                <Button
                  key={number}
                  type={number === current ? 'primary' : 'default'}
                  disabled={number === current}
                  aria-current={number === current ? 'page' : undefined}
                  aria-label={`Page ${number}`}
                  onClick={() => setPage(number)}
                >
                  {number}
                </Button>
              )
            )}
            <Button onClick={() => setPage(current + 1)} disabled={current >= pages}>Next</Button>
          </Space>
        </nav>
      </Flex>
    </div>
  );
}
