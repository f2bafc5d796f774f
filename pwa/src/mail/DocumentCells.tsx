/**
 * What each column of a document list shows for a row, shared by the table and the cards (DocumentTable,
 * DocumentCards), so both say the same. Plain markup, no antd: the lists are the first thing every portal
 * paints (the Lighthouse aims).
 */
import type { ParseKeys } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, formatDateTime } from '../lib/format.ts';
import { type DocumentRow } from './listLogic.ts';
import { deliveryText, mayWithdraw, timeSensitiveBadge } from './delivery.ts';
import { InlineIcon } from '../components/InlineIcon.tsx';

/** A column of a list: which field, and its heading. */
export type ColumnKey =
  | 'name'
  | 'attorney'
  | 'offenderdocnumber'
  | 'date'
  | 'pages'
  | 'eformDue'
  | 'state'
  | 'from'
  | 'to';
export interface ColumnSpec {
  key: ColumnKey;
  /** The heading's catalogue key (`columns.…`). */
  title: ParseKeys;
}

/** A padlock (the path of antd's LockOutlined). */
const LOCK_PATH =
  'M832 464h-68V240c0-70.7-57.3-128-128-128H388c-70.7 0-128 57.3-128 128v224h-68c-17.7 0-32 14.3-32 32v384c0 17.7 14.3 32 32 32h640c17.7 0 32-14.3 32-32V496c0-17.7-14.3-32-32-32zM332 240c0-30.9 25.1-56 56-56h248c30.9 0 56 25.1 56 56v224H332V240zm460 600H232V536h560v304zM484 701v53c0 4.4 3.6 8 8 8h40c4.4 0 8-3.6 8-8v-53a48.01 48.01 0 10-56 0z';

/** Spec section 2: a page count of 0 (an encrypted PDF) shows a lock instead of a number. */
export function PagesCell({ pages }: { pages: number }) {
  const { t } = useTranslation();
  if (pages > 0) return <>{pages}</>;
  return (
    <span className='pages-locked' role='img' aria-label={t('list.encrypted')} title={t('list.encrypted')}>
      <InlineIcon path={LOCK_PATH} />
    </span>
  );
}

/** The 'Sent by …' mark of a document a representative sent. */
export function SentBy({ row }: { row: DocumentRow }) {
  const { t } = useTranslation();
  if (row.sent_by !== 'representative') return null;
  return (
    <span className='tag sent-by'>
      {t('list.sentBy', { name: row.sender_name || t('list.aRepresentative') })}
    </span>
  );
}

/**
 * The marks under a document's name: New (the recipient's own list, until they first open it on any device), who
 * sent it (a representative) and the time-sensitive badge.
 */
export function RowBadges({ row, unread = false }: { row: DocumentRow; unread?: boolean }) {
  const { t } = useTranslation();
  const badge = timeSensitiveBadge(row);
  return (
    <>
      {unread && <span className='tag unread'>{t('list.unread')}</span>}
      <SentBy row={row} />
      {badge && <span className='tag time-sensitive'>{badge}</span>}
    </>
  );
}

/** What a cell needs to know of the rest of the list. */
export interface CellContext {
  /** The days on which more than one listed letter arrived (listLogic's sharedDays): there, the time too. */
  sharedDays?: ReadonlySet<string>;
}

/** The content of one cell (the name's cell and card add its 'Sent by' mark themselves). */
export function cellContent(row: DocumentRow, key: ColumnKey, context: CellContext = {}): ReactNode {
  switch (key) {
    case 'date': {
      const day = formatDate(row.date);
      return context.sharedDays?.has(day) ? formatDateTime(row.date) : day;
    }
    case 'eformDue':
      return formatDate(row[key]);
    case 'pages':
      return <PagesCell pages={row.pages} />;
    case 'state':
      return deliveryText(row);
    default:
      return row[key];
  }
}

export interface RowActionHandlers {
  onView(row: DocumentRow): void;
  onPrint(row: DocumentRow): void;
  /** Absent: no Info button (/files). */
  onInfo?(row: DocumentRow): void;
  /**
   * Info opens whatever the description: the sender lists, whose Info carries the delivery receipt. Otherwise
   * it is disabled without a description (spec section 4).
   */
  infoAlways?: boolean;
  /** The sender lists: Withdraw on a document the recipient does not have yet. */
  onWithdraw?(row: DocumentRow): void;
}

/**
 * View / Print / Info of one document. Their accessible names carry the document's name, so a screen reader's
 * list of buttons says which is which; Info is disabled when the document has no description (spec section 4).
 */
export function RowActions(
  { row, onView, onPrint, onInfo, infoAlways, onWithdraw }: RowActionHandlers & { row: DocumentRow },
) {
  const { t } = useTranslation();
  // A withdrawn or deleted document has no bytes to read: only its receipt.
  const gone = row.state === 'withdrawn' || row.state === 'deleted';
  // A disabled button is skipped by Tab and, without this, said only as "dimmed": the reason goes with it.
  const goneReason = gone ? `gone-${row.documentid}` : undefined;
  return (
    <>
      {goneReason && <span id={goneReason} className='visually-hidden'>{t('list.goneReason')}</span>}
      <button
        type='button'
        className='btn'
        onClick={() => onView(row)}
        disabled={gone}
        aria-describedby={goneReason}
        aria-label={t('list.viewNamed', { name: row.name })}
        data-opens-document={row.documentid}
      >
        {t('list.view')}
      </button>
      <button
        type='button'
        className='btn'
        onClick={() => onPrint(row)}
        disabled={gone}
        aria-describedby={goneReason}
        aria-label={t('list.printNamed', { name: row.name })}
      >
        {t('list.print')}
      </button>
      {onInfo && (
        <button
          type='button'
          className='btn'
          onClick={() => onInfo(row)}
          disabled={!infoAlways && row.description.trim() === ''}
          aria-label={t('list.infoNamed', { name: row.name })}
        >
          {t('list.info')}
        </button>
      )}
      {onWithdraw && mayWithdraw(row) && (
        <button
          type='button'
          className='btn btn-danger'
          onClick={() => onWithdraw(row)}
          aria-label={t('delivery.withdrawNamed', { name: row.name })}
        >
          {t('delivery.withdraw')}
        </button>
      )}
    </>
  );
}
