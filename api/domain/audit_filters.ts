/**
 * The audit-log filters an admin sends, checked and turned into database bounds.
 *
 * Dates: a plain day `YYYY-MM-DD` means that whole day in UTC (startDate from 00:00:00 UTC, endDate up to the
 * end of that day, inclusive). A full ISO 8601 timestamp with a zone (`2026-01-05T14:30:00Z`) is used as is,
 * inclusive at both ends to the millisecond.
 */
import type { AuditFilter } from '../db/audit_search.ts';

export interface AuditFilterInput {
  startDate?: string;
  endDate?: string;
  eventType?: string;
  userId?: string;
}

export type ParsedFilter = { ok: true; filter: Omit<AuditFilter, 'scope'> } | { ok: false; message: string };

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EVENT_TYPE = /^[a-z][a-z0-9_]{0,63}$/;
const DAY_MS = 86_400_000;

type Bound = { at: Date; day: boolean } | undefined;

/**
 * The times a filter may name: what PostgreSQL's timestamps hold, years 1 to 9999, with room for the end's day
 * added (9999-12-31 and the year 0 would make the log a 500, and its CSV export a 200 cut short).
 */
const EARLIEST = Date.parse('0001-01-01T00:00:00Z');
const LATEST = Date.parse('9999-12-30T00:00:00Z');

function parseBound(text: string | undefined): Bound | null {
  if (!text) return undefined;
  const day = DAY.exec(text);
  if (day) {
    const [y, m, d] = [Number(day[1]), Number(day[2]), Number(day[3])];
    const at = new Date(Date.UTC(y, m - 1, d));
    // Date.UTC rolls Feb 30 over to Mar 2: a day that does not exist is refused instead.
    if (at.getUTCFullYear() !== y || at.getUTCMonth() !== m - 1 || at.getUTCDate() !== d) return null;
    return inRange(at) ? { at, day: true } : null;
  }
  if (!TIMESTAMP.test(text)) return null;
  const at = new Date(text);
  return Number.isNaN(at.getTime()) || !inRange(at) ? null : { at, day: false };
}

function inRange(at: Date): boolean {
  return at.getTime() >= EARLIEST && at.getTime() <= LATEST;
}

/** Checks the filters; a bad one is answered with a message a person understands. */
export function parseAuditFilter(input: AuditFilterInput): ParsedFilter {
  const start = parseBound(input.startDate);
  if (start === null) {
    return { ok: false, message: 'Start date must be a date (YYYY-MM-DD) or an ISO timestamp.' };
  }
  const end = parseBound(input.endDate);
  if (end === null) {
    return { ok: false, message: 'End date must be a date (YYYY-MM-DD) or an ISO timestamp.' };
  }
  const from = start?.at;
  const before = end ? new Date(end.at.getTime() + (end.day ? DAY_MS : 1)) : undefined;
  if (from && before && from >= before) {
    return { ok: false, message: 'Start date must not be after the end date.' };
  }
  if (input.eventType && !EVENT_TYPE.test(input.eventType)) {
    return { ok: false, message: 'Event type must be an event name such as user_login.' };
  }
  if (input.userId && !UUID.test(input.userId)) {
    return {
      ok: false,
      message: 'User ID must be a user id (a UUID such as 3f2b8c1e-0a4d-4c6e-9b7a-2d1e5f6a7b8c).',
    };
  }
  return {
    ok: true,
    filter: {
      from,
      before,
      eventType: input.eventType || undefined,
      userId: input.userId?.toLowerCase() || undefined,
    },
  };
}
