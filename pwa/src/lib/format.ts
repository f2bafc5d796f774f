/** Display formats shared by every screen. */

const US_DATE = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});
const US_DATE_LOCAL = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/** A date-only text like 2025-01-05 names a calendar day, not an instant. */
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Spec section 9: short month, day, year in US English ('Jan 5, 2025').
 * Timestamps are shown in the viewer's time zone; a bare date is shown as the
 * day it names. Returns '' for empty and unparseable input rather than 'Invalid Date'.
 */
export function formatDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'string' && DATE_ONLY.test(value)) {
    const day = new Date(`${value}T00:00:00Z`);
    return Number.isNaN(day.getTime()) ? '' : US_DATE.format(day);
  }
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? '' : US_DATE_LOCAL.format(date);
}

const US_DATE_TIME = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});
const US_DATE_TIME_SECONDS = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  second: '2-digit',
});

/**
 * A timestamp with its time ('Jan 5, 2025, 3:04 PM') in the viewer's time zone; `seconds` where events
 * follow each other closely (the audit log). Null is '', unparseable text is shown as it came.
 */
export function formatDateTime(value: string | null, options: { seconds?: boolean } = {}): string {
  if (value === null) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return (options.seconds ? US_DATE_TIME_SECONDS : US_DATE_TIME).format(date);
}

/** 'First Last', tolerating missing parts. */
export function fullName(first: string | null | undefined, last: string | null | undefined): string {
  return [first, last].map((part) => (part ?? '').trim()).filter(Boolean).join(' ');
}
