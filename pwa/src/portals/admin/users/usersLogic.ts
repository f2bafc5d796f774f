/** The Users screen's rules (spec sections 2, 4, 5, 8), kept free of React so they can be unit-tested. */
import { ROSTER_MAX_BYTES, ROSTER_MESSAGES } from '../../../../../contract/rules/roster.ts';
import { fullName } from '../../../lib/format.ts';
import type { AdminUser, RosterReportRow } from './usersApi.ts';

export const USERS_TEXTS = {
  title: 'User Management',
  fetchFailed: 'Failed to fetch users',
  loadFailed: 'Failed to load users',
  activated: 'User activated successfully',
  deactivated: 'User deactivated successfully',
  activateFailed: 'Failed to activate user',
  deactivateFailed: 'Failed to deactivate user',
  activityFailed: 'Failed to load recent activity',
  noActivity: 'No recent activity',
  empty: 'No users found',
  emptyFiltered: 'No users match the current filters',
  offenderAdded: 'Offender added successfully',
  addOffenderFailed: 'Failed to add offender',
  pinReset: 'PIN reset successfully',
  pinResetFailed: 'Failed to reset PIN',
  importFailed: 'Failed to import roster',
} as const;

/** Role filter choices: the spec's four plus representative, which exists too (spec section 3). */
export const ROLE_FILTERS = ['all', 'attorney', 'representative', 'offender', 'admin', 'approver'] as const;
export const STATUS_FILTERS = ['all', 'active', 'deactivated', 'pending'] as const;

export interface UserFilters {
  search: string;
  role: string;
  status: string;
}

export const NO_USER_FILTERS: UserFilters = { search: '', role: 'all', status: 'all' };

/** 'attorney' → 'Attorney'. */
export function capitalize(word: string): string {
  return word ? word.charAt(0).toUpperCase() + word.slice(1) : word;
}

export function userName(user: Pick<AdminUser, 'first_name' | 'last_name'>): string {
  return fullName(user.first_name, user.last_name);
}

/** Spec section 5: a case-insensitive substring of the full name or the e-mail (or, for an offender, the DOC number). */
export function matchesSearch(user: AdminUser, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return [userName(user), user.email ?? '', user.doc_number ?? ''].some((text) =>
    text.toLowerCase().includes(needle)
  );
}

export function filterUsers(users: AdminUser[], filters: UserFilters): AdminUser[] {
  return users.filter((user) =>
    matchesSearch(user, filters.search) &&
    (filters.role === 'all' || user.role === filters.role) &&
    (filters.status === 'all' || user.status === filters.status)
  );
}

export function hasFilters(filters: UserFilters): boolean {
  return filters.search.trim() !== '' || filters.role !== 'all' || filters.status !== 'all';
}

/** 'Showing X of Y users'. */
export function showingText(shown: number, total: number): string {
  return `Showing ${shown} of ${total} users`;
}

/** The empty state: none at all, or none left by the filters. */
export function emptyUsersText(total: number, filters: UserFilters): string {
  return total > 0 && hasFilters(filters) ? USERS_TEXTS.emptyFiltered : USERS_TEXTS.empty;
}

/** Spec section 4: active → Deactivate, deactivated → Activate, anything else (pending) has no action. */
export function statusAction(
  status: string,
): { label: 'Activate' | 'Deactivate'; next: 'active' | 'deactivated' } | null {
  if (status === 'active') return { label: 'Deactivate', next: 'deactivated' };
  if (status === 'deactivated') return { label: 'Activate', next: 'active' };
  return null;
}

/** Spec section 8: 'Failed to activate user: {reason}' (and the same for deactivation). */
export function statusFailureText(next: 'active' | 'deactivated', reason: string): string {
  const base = next === 'active' ? USERS_TEXTS.activateFailed : USERS_TEXTS.deactivateFailed;
  return reason && reason !== base ? `${base}: ${reason}` : base;
}

/** The Email column: an offender has a DOC number instead of an address. */
export function contactText(user: Pick<AdminUser, 'email' | 'doc_number'>): string {
  if (user.email) return user.email;
  return user.doc_number ? `DOC# ${user.doc_number}` : '';
}

/** The Entity column, 'N/A' when the user has none. */
export function entityText(entityName: string | null | undefined): string {
  return entityName?.trim() ? entityName : 'N/A';
}

/** Only the browser can tell a chosen file is not a .csv; the other refusals are the API's own (contract/rules/roster.ts). */
export const CSV_FILE_REQUIRED = 'Please choose a .csv file';

/** Why a chosen file cannot be imported, or null when it may be sent. */
export function rosterFileProblem(file: { name: string; size: number }): string | null {
  if (!/\.csv$/i.test(file.name)) return CSV_FILE_REQUIRED;
  if (file.size === 0) return ROSTER_MESSAGES.empty;
  if (file.size > ROSTER_MAX_BYTES) return ROSTER_MESSAGES.tooLarge;
  return null;
}

/** The rejected rows of an import report, in file order. */
export function rejectedRows(rows: RosterReportRow[]): RosterReportRow[] {
  return rows.filter((row) => row.outcome === 'rejected').sort((a, b) => a.line - b.line);
}

/** The summary line of an import: 'Added 3, updated 1, rejected 1.' */
export function rosterSummary(report: { added: number; updated: number; rejected: number }): string {
  return `Added ${report.added}, updated ${report.updated}, rejected ${report.rejected}.`;
}
