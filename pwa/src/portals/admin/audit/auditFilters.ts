/** The audit screen's filter logic, kept free of React so it can be unit-tested. */
import { t } from 'i18next';

export interface AuditFilters {
  /** YYYY-MM-DD, a whole day in UTC on the server. */
  startDate: string;
  endDate: string;
  eventType: string;
  userId: string;
}

export const NO_FILTERS: AuditFilters = { startDate: '', endDate: '', eventType: '', userId: '' };

const KEYS = ['startDate', 'endDate', 'eventType', 'userId'] as const;

/** Filters with surrounding blanks removed. */
export function normalizeFilters(filters: AuditFilters): AuditFilters {
  return {
    startDate: filters.startDate.trim(),
    endDate: filters.endDate.trim(),
    eventType: filters.eventType.trim(),
    userId: filters.userId.trim(),
  };
}

/** How many filters are set (the number on the 'Apply Filters' badge). */
export function countActiveFilters(filters: AuditFilters): number {
  const normal = normalizeFilters(filters);
  return KEYS.filter((key) => normal[key] !== '').length;
}

/** The query string for the API: only the filters that are set, plus the page cursor. */
export function auditQuery(filters: AuditFilters, cursor?: string | null): string {
  const params = new URLSearchParams();
  const normal = normalizeFilters(filters);
  for (const key of KEYS) if (normal[key]) params.set(key, normal[key]);
  if (cursor) params.set('cursor', cursor);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The empty-state text of spec section 8. */
export function emptyAuditText(filters: AuditFilters): string {
  return countActiveFilters(filters) > 0 ? t('audit.emptyFiltered') : t('audit.empty');
}

/** The spec's export name for today (UTC), used when the server sends none. */
export function defaultExportName(now = new Date()): string {
  return `audit-logs-${now.toISOString().slice(0, 10)}.csv`;
}

/** Event data as indented JSON for the expanded row. */
export function formatEventData(data: unknown): string {
  if (data === null || data === undefined) return '{}';
  try {
    return JSON.stringify(data, null, 2);
  } catch {
    return String(data);
  }
}

/** The event types for the filter list: the server's list of all types, plus any seen in loaded rows. */
export function mergeEventTypes(
  server: readonly string[],
  rows: readonly { event_type: string }[],
): string[] {
  return [...new Set([...server, ...rows.map((r) => r.event_type)])].sort();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A user id typed or pasted into the User filter (lower-cased, as the API writes ids), or null for other text. */
export function userIdTyped(text: string): string | null {
  const typed = text.trim();
  return UUID.test(typed) ? typed.toLowerCase() : null;
}

/** A user as the User filter offers them: 'Ada Admin (admin@demo.test)', or the name alone without a contact. */
export function userChoiceLabel(name: string, contact: string): string {
  if (!contact) return name;
  return name ? `${name} (${contact})` : contact;
}
