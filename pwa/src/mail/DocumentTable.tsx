/**
 * The document table every portal shares: a search box, the table (sortable
 * headers where the portal sorts), the row actions View / Print / Info, a
 * page-size selector, Previous / numbered / Next buttons and the footer count.
 * Any change to the list or the search, and any page-size change, returns to
 * page 1 (spec section 4).
 */
import { CaretDownOutlined, CaretUpOutlined, LockOutlined } from '@ant-design/icons';
import { Button, Flex, Input, Select, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { type ReactNode, useEffect, useId, useMemo, useState } from 'react';
import { formatDate } from '../lib/format.ts';
import {
  DEFAULT_PAGE_SIZE,
  type DocumentRow,
  footerText,
  nextSort,
  PAGE_SIZES,
  pageButtons,
  pageCount,
  pageRows,
  readText,
  type SearchField,
  searchRows,
  type SortKey,
  sortRows,
  type SortState,
} from './listLogic.ts';
import './mail.css';

/** A column of the table: which field, its heading, and whether it sorts. */
export type ColumnKey =
  | 'name'
  | 'attorney'
  | 'offenderdocnumber'
  | 'date'
  | 'pages'
  | 'eformDue'
  | 'read'
  | 'from'
  | 'to';
export interface ColumnSpec {
  key: ColumnKey;
  title: string;
}

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
}

const SORTABLE: readonly ColumnKey[] = ['name', 'offenderdocnumber', 'date', 'pages', 'eformDue'];

/** Spec section 2: a page count of 0 (an encrypted PDF) shows a lock instead of a number. */
export function PagesCell({ pages }: { pages: number }) {
  if (pages > 0) return <>{pages}</>;
  return (
    <span
      className='pages-locked'
      role='img'
      aria-label='Encrypted, page count unavailable'
      title='Encrypted, page count unavailable'
    >
      <LockOutlined aria-hidden />
    </span>
  );
}

function cell(row: DocumentRow, key: ColumnKey): ReactNode {
  switch (key) {
    case 'name':
      return (
        <Flex vertical align='start' gap={2}>
          <span>{row.name}</span>
          {row.sent_by === 'representative' && (
            <Tag className='sent-by'>Sent by {row.sender_name || 'a representative'}</Tag>
          )}
        </Flex>
      );
    case 'date':
    case 'eformDue':
      return formatDate(row[key]);
    case 'pages':
      return <PagesCell pages={row.pages} />;
    case 'read':
      return readText(row.viewed_at);
    default:
      return row[key];
  }
}

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
  const { rows, loading, columns, searchFields, defaultSort, onView, onPrint, onInfo } = props;
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
        render: (_: unknown, row: DocumentRow) => cell(row, column.key),
      };
    }),
    {
      key: 'actions',
      title: 'Actions',
      render: (_: unknown, row: DocumentRow) => (
        <Space size={4} wrap>
          <Button size='small' onClick={() => onView(row)} aria-label={`View ${row.name}`}>View</Button>
          <Button size='small' onClick={() => onPrint(row)} aria-label={`Print ${row.name}`}>Print</Button>
          {onInfo && (
            <Button
              size='small'
              onClick={() => onInfo(row)}
              disabled={row.description.trim() === ''}
              aria-label={`Info ${row.name}`}
            >
              Info
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <div className='document-table'>
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
            allowClear
            value={query}
            placeholder={props.searchPlaceholder}
            onChange={(event) => setQuery(event.target.value)}
            style={{ width: 260 }}
          />
        </Flex>
      </Flex>
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
