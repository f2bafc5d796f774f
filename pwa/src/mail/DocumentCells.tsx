/**
 * What one column of a document list shows for a row, shared by the table and
 * by the cards a tablet shows instead (DocumentCards.tsx), so both say the same.
 */
import { LockOutlined } from '@ant-design/icons';
import { Button, Flex, Tag } from 'antd';
import type { ReactNode } from 'react';
import { formatDate } from '../lib/format.ts';
import { type DocumentRow, readText } from './listLogic.ts';

/** A column of a list: which field, its heading, and whether it sorts. */
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

/** The 'Sent by …' mark of a document a representative sent (attorney list). */
export function SentBy({ row }: { row: DocumentRow }) {
  if (row.sent_by !== 'representative') return null;
  return <Tag className='sent-by'>Sent by {row.sender_name || 'a representative'}</Tag>;
}

/** The content of one cell. */
export function cellContent(row: DocumentRow, key: ColumnKey): ReactNode {
  switch (key) {
    case 'name':
      return (
        <Flex vertical align='start' gap={2}>
          <span>{row.name}</span>
          <SentBy row={row} />
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

export interface RowActionsProps {
  row: DocumentRow;
  onView(row: DocumentRow): void;
  onPrint(row: DocumentRow): void;
  /** Absent: no Info button (/files). */
  onInfo?(row: DocumentRow): void;
  /** Small in a desk's table; full size on a tablet, where the portal's theme makes it a 44 px target. */
  size: 'small' | 'middle';
}

/**
 * View / Print / Info of one document, as separate elements so the table's
 * Space and the card's row lay out each one. Their accessible names carry the
 * document's name, so a screen reader's list of buttons says which is which.
 */
export function rowActions({ row, onView, onPrint, onInfo, size }: RowActionsProps): ReactNode[] {
  const actions = [
    <Button key='view' size={size} onClick={() => onView(row)} aria-label={`View ${row.name}`}>View</Button>,
    <Button key='print' size={size} onClick={() => onPrint(row)} aria-label={`Print ${row.name}`}>
      Print
    </Button>,
  ];
  if (onInfo) {
    actions.push(
      <Button
        key='info'
        size={size}
        onClick={() => onInfo(row)}
        disabled={row.description.trim() === ''}
        aria-label={`Info ${row.name}`}
      >
        Info
      </Button>,
    );
  }
  return actions;
}
