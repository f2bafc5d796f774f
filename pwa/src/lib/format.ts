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

/** 'First Last', tolerating missing parts. */
export function fullName(first: string | null | undefined, last: string | null | undefined): string {
  return [first, last].map((part) => (part ?? '').trim()).filter(Boolean).join(' ');
}
