/**
 * Display formats shared by every screen, in the language shown (i18n/i18n.ts): US English as the spec writes
 * it ('Jan 5, 2025'), Spanish with the day first and the month named ('5 ene 2025'). A date is never all
 * numbers: 5/1 and 1/5 are different days to a reader of each language.
 */
import { currentLocale } from '../i18n/i18n.ts';

type Style = 'date' | 'dateUtc' | 'dateTime' | 'dateTimeSeconds' | 'time';

const OPTIONS: Record<Style, Intl.DateTimeFormatOptions> = {
  date: { month: 'short', day: 'numeric', year: 'numeric' },
  dateUtc: { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' },
  dateTime: { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' },
  time: { hour: 'numeric', minute: '2-digit' },
  dateTimeSeconds: {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
  },
};

const formats = new Map<string, Intl.DateTimeFormat>();

/** One formatter per locale and style, made when first needed. */
function formatter(style: Style, locale: string): Intl.DateTimeFormat {
  const key = `${locale} ${style}`;
  let found = formats.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(locale, OPTIONS[style]);
    formats.set(key, found);
  }
  return found;
}

/**
 * Spanish short months end in a full stop in some ICU versions ('ene.'); the portal writes them without
 * ('5 ene 2025'), the same in every browser.
 */
function format(style: Style, date: Date, locale: string): string {
  const parts = formatter(style, locale).formatToParts(date);
  return parts.map((part) => (part.type === 'month' ? part.value.replace(/\.$/, '') : part.value)).join('');
}

/** A date-only text like 2025-01-05 names a calendar day, not an instant. */
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

export interface FormatOptions {
  /** An `Intl` locale; the language shown's by default. */
  locale?: string;
}

/**
 * Spec section 9: short month, day, year ('Jan 5, 2025'; in Spanish '5 ene 2025').
 * Timestamps are shown in the viewer's time zone; a bare date is shown as the
 * day it names. Returns '' for empty and unparseable input rather than 'Invalid Date'.
 */
export function formatDate(
  value: string | number | Date | null | undefined,
  options: FormatOptions = {},
): string {
  const locale = options.locale ?? currentLocale();
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'string' && DATE_ONLY.test(value)) {
    const day = new Date(`${value}T00:00:00Z`);
    return Number.isNaN(day.getTime()) ? '' : format('dateUtc', day, locale);
  }
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? '' : format('date', date, locale);
}

/**
 * A timestamp with its time ('Jan 5, 2025, 3:04 PM'; '5 ene 2025, 3:04 p.m.') in the viewer's time zone;
 * `seconds` where events follow each other closely (the audit log). Null is '', unparseable text is shown as
 * it came.
 */
export function formatDateTime(
  value: string | null,
  options: FormatOptions & { seconds?: boolean } = {},
): string {
  if (value === null) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return format(options.seconds ? 'dateTimeSeconds' : 'dateTime', date, options.locale ?? currentLocale());
}

/**
 * A moment soon to come, as a clock shows it ('2:41 PM'; '2:41 p.m.') when it falls today in the viewer's time
 * zone, with its date otherwise ('Jan 6, 2025, 2:41 PM'). '' for unparseable input.
 */
export function formatTimeOfDay(value: string | Date, options: FormatOptions & { now?: Date } = {}): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const locale = options.locale ?? currentLocale();
  const today = (options.now ?? new Date()).toDateString() === date.toDateString();
  return format(today ? 'time' : 'dateTime', date, locale);
}

/** A number as the language writes it (1,234.5). */
export function formatNumber(value: number, options: FormatOptions & Intl.NumberFormatOptions = {}): string {
  const { locale, ...number } = options;
  return new Intl.NumberFormat(locale ?? currentLocale(), number).format(value);
}

/** 'First Last', tolerating missing parts. */
export function fullName(first: string | null | undefined, last: string | null | undefined): string {
  return [first, last].map((part) => (part ?? '').trim()).filter(Boolean).join(' ');
}
