/**
 * What a sender sees of a delivery, and the time-sensitive mark, as pure functions: the state each row of the
 * sender lists shows, the receipt's events, the badge the offender's list shows, and the order that puts
 * time-sensitive mail first. Texts from the catalogues' `delivery` section, in the language shown.
 */
import { t } from 'i18next';
import { formatDate, formatDateTime } from '../lib/format.ts';
import type { ReceiptEvent } from '../../../contract/shapes/document.ts';
import type { DocumentRow } from './listLogic.ts';

/** 48 hours: a time-sensitive document still unopened this long after sending is flagged to its sender. */
export const UNOPENED_FLAG_MS = 48 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The sender list's Status cell. Withdrawn and Deleted say what became of it; "Recipient released" says why no
 * more will happen (until the release purge deletes it); then Printed, Opened with its date; a time-sensitive
 * document unopened for 48 hours says for how long; anything else is Delivered.
 */
export function deliveryText(row: DocumentRow, now = Date.now()): string {
  if (row.state === 'withdrawn') return t('delivery.withdrawn');
  if (row.state === 'deleted') return t('delivery.deleted');
  if (row.recipient_released) return t('delivery.recipientReleased');
  if (row.state === 'printed') return t('delivery.printed');
  const opened = row.opened_at ?? row.viewed_at;
  if (row.state === 'opened' || opened) return t('delivery.opened', { date: formatDate(opened) });
  const sent = new Date(row.date).getTime();
  if (row.time_sensitive && Number.isFinite(sent) && now - sent >= UNOPENED_FLAG_MS) {
    return t('delivery.notYetOpened', { count: Math.floor((now - sent) / DAY_MS) });
  }
  return t('delivery.delivered');
}

/** Whether the sender may still try to withdraw it (the server decides; a fetched-ahead one is refused there). */
export function mayWithdraw(row: DocumentRow): boolean {
  return row.state === 'delivered';
}

/** The badge of a time-sensitive document, with its respond-by day when it has one; null for any other. */
export function timeSensitiveBadge(row: Pick<DocumentRow, 'time_sensitive' | 'respond_by'>): string | null {
  if (!row.time_sensitive) return null;
  const day = formatDate(row.respond_by);
  return day ? t('delivery.respondBy', { date: day }) : t('delivery.timeSensitive');
}

/** Time-sensitive rows first, each group keeping its order (the sort the reader chose). */
export function timeSensitiveFirst<Row extends Pick<DocumentRow, 'time_sensitive'>>(
  rows: readonly Row[],
): Row[] {
  return [...rows.filter((row) => row.time_sensitive), ...rows.filter((row) => !row.time_sensitive)];
}

const EVENT_KEYS = {
  sent: 'delivery.events.sent',
  fetched: 'delivery.events.fetched',
  opened: 'delivery.events.opened',
  printed: 'delivery.events.printed',
  withdrawn: 'delivery.events.withdrawn',
  deleted: 'delivery.events.deleted',
} as const satisfies Record<ReceiptEvent['event'], string>;

/** One line of the receipt's timeline: 'Opened — Jan 5, 2025, 3:04 PM'. */
export function timelineLine(event: ReceiptEvent): string {
  return t('delivery.eventAt', { event: t(EVENT_KEYS[event.event]), time: formatDateTime(event.at) });
}
