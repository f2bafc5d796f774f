/**
 * The pure logic of every document list (spec sections 2, 3, 4, 5, 9): one row
 * shape for the four list answers, 'starts with' search, the sort cycle,
 * paging and the texts built from a row. No React here, so it is tested alone.
 */
import { t } from 'i18next';
import { formatDate, formatNumber } from '../lib/format.ts';
import { DOCUMENT_STATES, type DocumentState } from '../../../contract/shapes/document.ts';
import { searchNeedle, startsAWord } from '../../../contract/rules/search.ts';

/** One row of any document list, whatever list answer it came from. */
export type DocumentRow = {
  documentid: string;
  name: string;
  /** Offender list: the sending attorney (attorney_name, falling back to attorney). */
  attorney: string;
  /** Attorney and representative lists: the recipient's DOC number. */
  offenderdocnumber: string;
  date: string;
  pages: number;
  /** The delete date (deletedate, or eformDue when deletedate is missing). */
  eformDue: string;
  description: string;
  approval_status: string | null;
  viewed_at: string | null;
  /** Attorney list: who sent it. */
  sent_by: 'attorney' | 'representative' | null;
  sender_name: string;
  /** /files. */
  from: string;
  to: string;
  /** Sender lists: where the delivery stands (docs/api.md); null on the offender's list and /files. */
  state: DocumentState | null;
  opened_at: string | null;
  withdrawn_at: string | null;
  recipient_released: boolean;
  /** Marked by the sender: first on the offender's list, with its badge. */
  time_sensitive: boolean;
  /** 'YYYY-MM-DD' or null. */
  respond_by: string | null;
};

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return '';
}

function nullableText(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** Maps one entry of any document list answer (docs/api.md "Documents") to a row. */
export function toDocumentRow(raw: Record<string, unknown>): DocumentRow {
  const pages = Number(raw.pages);
  const sentBy = raw.sent_by === 'attorney' || raw.sent_by === 'representative' ? raw.sent_by : null;
  return {
    documentid: text(raw.documentid ?? raw.id),
    name: text(raw.name),
    attorney: text(raw.attorney_name) || text(raw.attorney),
    offenderdocnumber: text(raw.offenderdocnumber) || text(raw.offenderDocNumber),
    date: text(raw.date),
    pages: Number.isFinite(pages) && pages > 0 ? Math.floor(pages) : 0,
    eformDue: text(raw.deletedate) || text(raw.eformDue),
    description: text(raw.description),
    approval_status: nullableText(raw.approval_status),
    viewed_at: nullableText(raw.viewed_at),
    sent_by: sentBy,
    sender_name: text(raw.sender_name),
    from: text(raw.from),
    to: text(raw.to),
    state: (DOCUMENT_STATES as readonly unknown[]).includes(raw.state) ? raw.state as DocumentState : null,
    opened_at: nullableText(raw.opened_at),
    withdrawn_at: nullableText(raw.withdrawn_at),
    recipient_released: raw.recipient_released === true,
    time_sensitive: raw.time_sensitive === true,
    respond_by: nullableText(raw.respond_by),
  };
}

/** The row fields a search box looks at; the page count as text is always one of them. */
export type SearchField = 'name' | 'attorney' | 'offenderdocnumber' | 'from' | 'to';

/**
 * Spec section 5, widened to the start of any word (contract/rules/search.ts, as the server searches): the text
 * starts a word of any of `fields`, or starts the page count; any match keeps the row. An empty query keeps all.
 */
export function searchRows(
  rows: readonly DocumentRow[],
  query: string,
  fields: readonly SearchField[],
): DocumentRow[] {
  const needle = searchNeedle(query);
  if (needle === '') return [...rows];
  return rows.filter((row) =>
    fields.some((field) => startsAWord(row[field], needle)) || String(row.pages).startsWith(needle)
  );
}

/** Spec section 9: the sortable columns. */
export type SortKey = 'name' | 'offenderdocnumber' | 'date' | 'pages' | 'eformDue';
export type SortOrder = 'asc' | 'desc';
export interface SortState {
  key: SortKey;
  order: SortOrder;
}

/** Spec section 4: the default sort is by name. */
export const DEFAULT_SORT: SortState = { key: 'name', order: 'asc' };

/**
 * Spec section 4: a column cycles none → asc → desc → asc…, one column at a
 * time, so clicking another column starts it at asc.
 */
export function nextSort(current: SortState | null, key: SortKey): SortState {
  if (!current || current.key !== key) return { key, order: 'asc' };
  return { key, order: current.order === 'asc' ? 'desc' : 'asc' };
}

/**
 * A sort as one choice (the cards' Sort by list, where there are no column headers to click): each sortable
 * column in both orders, worded by what the column holds ('Date: newest first', 'Name: A to Z').
 */
export function sortChoices(keys: readonly SortKey[]): SortState[] {
  return keys.flatMap((key) => [{ key, order: 'asc' as const }, { key, order: 'desc' as const }]);
}

/** What an order means for a column: letters, days or counts. */
export function sortKind(key: SortKey): 'text' | 'date' | 'number' {
  if (key === 'date' || key === 'eformDue') return 'date';
  return key === 'pages' ? 'number' : 'text';
}

/** A sort choice's value in a select ('date:desc') and back; null for anything else. */
export function sortValue(sort: SortState): string {
  return `${sort.key}:${sort.order}`;
}
export function parseSortValue(value: string, keys: readonly SortKey[]): SortState | null {
  return sortChoices(keys).find((choice) => sortValue(choice) === value) ?? null;
}

/**
 * The days (as the list writes them) on which more than one of `rows` arrived: there the list shows the time with
 * the date, so two letters of one day can be told apart and the newest found.
 */
export function sharedDays(rows: readonly DocumentRow[]): Set<string> {
  const seen = new Set<string>();
  const shared = new Set<string>();
  for (const row of rows) {
    const day = formatDate(row.date);
    if (day === '') continue;
    if (seen.has(day)) shared.add(day);
    seen.add(day);
  }
  return shared;
}

const collator = new Intl.Collator('en-US', { numeric: true, sensitivity: 'base' });

function timeOf(value: string): number {
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
}

function compare(a: DocumentRow, b: DocumentRow, key: SortKey): number {
  if (key === 'pages') return a.pages - b.pages;
  if (key === 'date' || key === 'eformDue') return timeOf(a[key]) - timeOf(b[key]);
  return collator.compare(a[key], b[key]);
}

/**
 * Sorts the WHOLE list (a deliberate improvement on the spec, which sorts the
 * current page only). Stable: equal rows keep their order.
 */
export function sortRows(rows: readonly DocumentRow[], sort: SortState | null): DocumentRow[] {
  if (!sort) return [...rows];
  const sign = sort.order === 'asc' ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) => sign * compare(a.row, b.row, sort.key) || a.index - b.index)
    .map(({ row }) => row);
}

/** Spec section 9: page sizes 10, 25, 50, 100, default 10. */
export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 10;

/** How many pages `total` rows fill (at least 1, so an empty list still has page 1). */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** The rows of 1-based page `page`, the page clamped into range. */
export function pageRows<T>(rows: readonly T[], page: number, pageSize: number): T[] {
  const current = Math.min(Math.max(1, page), pageCount(rows.length, pageSize));
  return rows.slice((current - 1) * pageSize, current * pageSize);
}

/**
 * The numbered page buttons: every page when there are few, otherwise the
 * first, the last and a window around the current one, with null for a gap.
 */
export function pageButtons(page: number, count: number, width = 7): (number | null)[] {
  if (count <= width) return Array.from({ length: count }, (_, i) => i + 1);
  const around = Math.floor((width - 4) / 2);
  let start = Math.max(2, page - around);
  let end = Math.min(count - 1, page + around);
  if (page - around < 2) end = Math.min(count - 1, width - 2);
  if (page + around > count - 1) start = Math.max(2, count - (width - 3));
  const middle = Array.from({ length: end - start + 1 }, (_, i) => start + i);
  return [1, ...(start > 2 ? [null] : []), ...middle, ...(end < count - 1 ? [null] : []), count];
}

/**
 * Spec section 2: 'Showing 1 to {displayed} of {total} entries', made right
 * for later pages too ('Showing 11 to 20 of 35 entries').
 */
export function footerText(page: number, pageSize: number, total: number): string {
  const current = Math.min(Math.max(1, page), pageCount(total, pageSize));
  return rangeText((current - 1) * pageSize, Math.min(pageSize, total - (current - 1) * pageSize), total);
}

/** The same footer from where a page starts (`offset` rows before it) and how many rows it shows. */
export function rangeText(offset: number, shown: number, total: number): string {
  if (total === 0 || shown <= 0) return t('list.range', { from: 0, to: 0, total });
  return t('list.range', { from: offset + 1, to: offset + shown, total });
}

/** Where a server-paged list's next request starts (GET …?page= / after= / before=, docs/api.md). */
export type PageStart =
  | { kind: 'first' }
  | { kind: 'page'; page: number }
  | { kind: 'after'; cursor: string }
  | { kind: 'before'; cursor: string };

/**
 * How to reach page `target` from the page shown: Next and Previous (and a neighbour's number) go by the shown
 * page's cursors, which stay right however deep the list; any other number goes by number.
 */
export function startFor(
  target: number,
  shown: { page: number; nextCursor: string | null; prevCursor: string | null },
): PageStart {
  if (target <= 1) return { kind: 'first' };
  if (target === shown.page + 1 && shown.nextCursor) return { kind: 'after', cursor: shown.nextCursor };
  if (target === shown.page - 1 && shown.prevCursor) return { kind: 'before', cursor: shown.prevCursor };
  return { kind: 'page', page: target };
}

/**
 * Spec section 4: the description when present; otherwise a text built from
 * the name, the upload date, approval_status (or 'Unknown') and the file ID.
 */
export function infoText(row: DocumentRow): string {
  if (row.description.trim() !== '') return row.description;
  return [
    t('list.infoDocument', { name: row.name }),
    t('list.infoUploaded', { date: formatDate(row.date) }),
    t('list.infoStatus', { status: row.approval_status ?? t('list.infoStatusUnknown') }),
    t('list.infoFileId', { id: row.documentid }),
  ].join('\n');
}

/** The sender's 'Read' column: 'Viewed Jan 5, 2025' or 'Not yet viewed'. */
export function readText(viewedAt: string | null): string {
  const day = formatDate(viewedAt);
  return day === '' ? t('list.notViewed') : t('list.viewed', { date: day });
}

/** A byte count for people: '512 bytes', '1.5 KB', '2.3 MB'. */
export function formatBytes(size: number): string {
  if (!Number.isFinite(size) || size < 0) return '';
  const tenths = { minimumFractionDigits: 1, maximumFractionDigits: 1 };
  if (size < 1024) return t('list.bytes', { count: size });
  if (size < 1024 * 1024) return t('list.kilobytes', { size: formatNumber(size / 1024, tenths) });
  return t('list.megabytes', { size: formatNumber(size / (1024 * 1024), tenths) });
}
