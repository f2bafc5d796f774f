/**
 * The Users screen's rules (spec sections 2, 4, 5, 8), kept free of React so they can be unit-tested; their texts
 * come from the catalogues (`users.*`), in the language shown.
 */
import { t } from 'i18next';
import { ROSTER_MAX_BYTES } from '../../../../../contract/rules/roster.ts';
import { fullName } from '../../../lib/format.ts';
import type { AdminUser, RosterReportRow } from './usersApi.ts';

/** The catalogue keys of the role and status names (each key written out, so the catalogue check sees it used). */
const ROLE_KEYS = {
  attorney: 'users.roles.attorney',
  representative: 'users.roles.representative',
  offender: 'users.roles.offender',
  admin: 'users.roles.admin',
  approver: 'users.roles.approver',
} as const;
const STATUS_KEYS = {
  active: 'users.statuses.active',
  deactivated: 'users.statuses.deactivated',
  pending: 'users.statuses.pending',
  released: 'users.statuses.released',
  transferred: 'users.statuses.transferred',
} as const;

/** A role's name in the language shown ('Attorney'); an unknown one as it came, capitalised. */
export function roleText(role: string): string {
  return Object.hasOwn(ROLE_KEYS, role) ? t(ROLE_KEYS[role as keyof typeof ROLE_KEYS]) : capitalize(role);
}

/** A status's name in the language shown ('Active'); an unknown one as it came, capitalised. */
export function statusText(status: string): string {
  return Object.hasOwn(STATUS_KEYS, status)
    ? t(STATUS_KEYS[status as keyof typeof STATUS_KEYS])
    : capitalize(status);
}

/** Role filter choices: the spec's four plus representative, which exists too (spec section 3). */
export const ROLE_FILTERS = ['all', 'attorney', 'representative', 'offender', 'admin', 'approver'] as const;
export const STATUS_FILTERS = ['all', 'active', 'deactivated', 'pending', 'released', 'transferred'] as const;

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

/**
 * One page of the server's user search: 50 rows, the API's default page (its audit-log screen's too), about a
 * screen and a half of the table; 'Load more' fetches the next.
 */
export const USERS_PAGE_SIZE = 50;

/** The search waits this long after the last keystroke, so typing a name sends one request, not one a letter. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * The query of GET /api/admin/users for these filters (spec section 5: the search is a case-insensitive
 * substring of the full name or the e-mail; the server also matches an offender's DOC number). `limit` is always
 * sent: it is what asks the API for one page and the total instead of every user.
 */
export function usersQuery(filters: UserFilters, cursor?: string | null): string {
  const params = new URLSearchParams();
  const search = filters.search.trim();
  if (search) params.set('q', search);
  if (filters.role !== 'all') params.set('role', filters.role);
  if (filters.status !== 'all') params.set('status', filters.status);
  params.set('limit', String(USERS_PAGE_SIZE));
  if (cursor) params.set('cursor', cursor);
  return `?${params}`;
}

/** The rows on screen, the count of all that match, and where the next page starts. */
export interface UsersPage {
  users: AdminUser[];
  total: number;
  nextCursor: string | null;
}

export const NO_USERS: UsersPage = { users: [], total: 0, nextCursor: null };

/** A further page after the rows already shown; a user already shown (the list moved meanwhile) is not repeated. */
export function appendPage(shown: UsersPage, next: UsersPage): UsersPage {
  const seen = new Set(shown.users.map((u) => u.id));
  return {
    users: [...shown.users, ...next.users.filter((u) => !seen.has(u.id))],
    total: next.total,
    nextCursor: next.nextCursor,
  };
}

/**
 * A user activated or deactivated on screen, without a refetch: the row shows its new status, or leaves the list
 * (and the count) when a status filter no longer matches it, as it would after a reload.
 */
export function applyStatusChange(
  page: UsersPage,
  change: { id: string; status: AdminUser['status'] },
  filters: UserFilters,
): UsersPage {
  if (!page.users.some((u) => u.id === change.id)) return page;
  if (filters.status !== 'all' && filters.status !== change.status) {
    return {
      ...page,
      users: page.users.filter((u) => u.id !== change.id),
      total: Math.max(0, page.total - 1),
    };
  }
  return {
    ...page,
    users: page.users.map((u) => (u.id === change.id ? { ...u, status: change.status } : u)),
  };
}

export function hasFilters(filters: UserFilters): boolean {
  return filters.search.trim() !== '' || filters.role !== 'all' || filters.status !== 'all';
}

/** 'Showing X of Y users': the rows on screen of all that match the filters (the server's total). */
export function showingText(shown: number, total: number): string {
  return t('users.showing', { shown, total });
}

/** The empty state: none at all, or none left by the filters (there is always one user: the admin). */
export function emptyUsersText(filters: UserFilters): string {
  return hasFilters(filters) ? t('users.emptyFiltered') : t('users.empty');
}

/** Spec section 4: active → Deactivate, deactivated → Activate, anything else (pending) has no action. */
export function statusAction(
  status: string,
  ownAccount = false,
): { labelKey: 'users.activate' | 'users.deactivate'; next: 'active' | 'deactivated' } | null {
  // The server refuses an admin's deactivating their own account: the screen does not offer it.
  if (status === 'active') return ownAccount ? null : { labelKey: 'users.deactivate', next: 'deactivated' };
  if (status === 'deactivated') return { labelKey: 'users.activate', next: 'active' };
  // An offender released or transferred in error, or back in custody.
  if (status === 'released' || status === 'transferred') {
    return { labelKey: 'users.activate', next: 'active' };
  }
  return null;
}

/** The end of the sign-in lock in force on the user at `now`, or null (none, or one already over). */
export function lockEnd(user: Pick<AdminUser, 'locked_until'>, now = Date.now()): string | null {
  if (!user.locked_until) return null;
  const end = Date.parse(user.locked_until);
  return Number.isFinite(end) && end > now ? user.locked_until : null;
}

/** A user unlocked on screen, without a refetch: the row no longer shows a lock. */
export function applyUnlock(page: UsersPage, id: string): UsersPage {
  return { ...page, users: page.users.map((u) => (u.id === id ? { ...u, locked_until: null } : u)) };
}

/** A user's saved language changed in View Details: the row shows it, so reopening the details does too. */
export function applyLanguage(page: UsersPage, id: string, language: AdminUser['language']): UsersPage {
  return { ...page, users: page.users.map((u) => (u.id === id ? { ...u, language } : u)) };
}

/** An offender's leaving the facility: the actions an active offender's row offers. */
export const CUSTODY_ACTIONS = ['released', 'transferred'] as const;
export type CustodyStatus = (typeof CUSTODY_ACTIONS)[number];

/** Spec section 8: 'Failed to activate user: {reason}' (and the same for deactivation). */
export function statusFailureText(next: 'active' | 'deactivated', reason: string): string {
  const base = next === 'active' ? t('users.activateFailed') : t('users.deactivateFailed');
  return reason && reason !== base ? t('users.failedWithReason', { failed: base, reason }) : base;
}

/** The Email column: an offender has a DOC number instead of an address. */
export function contactText(user: Pick<AdminUser, 'email' | 'doc_number'>): string {
  if (user.email) return user.email;
  return user.doc_number ? t('users.docNumberShort', { doc: user.doc_number }) : '';
}

/** The Entity column, 'N/A' when the user has none. */
export function entityText(entityName: string | null | undefined): string {
  return entityName?.trim() ? entityName : t('users.notApplicable');
}

/** Why a chosen file cannot be imported, or null when it may be sent. */
export function rosterFileProblem(file: { name: string; size: number }): string | null {
  // Only the browser can tell a chosen file is not a .csv; the other refusals are the API's own (contract/rules/roster.ts).
  if (!/\.csv$/i.test(file.name)) return t('users.import.csvRequired');
  if (file.size === 0) return t('users.rules.empty');
  if (file.size > ROSTER_MAX_BYTES) return t('users.rules.tooLarge');
  return null;
}

/** The rejected rows of an import report, in file order. */
export function rejectedRows(rows: RosterReportRow[]): RosterReportRow[] {
  return rows.filter((row) => row.outcome === 'rejected').sort((a, b) => a.line - b.line);
}

/** The summary line of an import: 'Roster imported: 3 added, 1 updated, 1 rejected.' (the API's own words). */
export function rosterSummary(report: { added: number; updated: number; rejected: number }): string {
  // Each count with its own plural form: Spanish agrees ('1 actualizada', '2 actualizadas'); English does not.
  return t('users.import.summary', {
    added: t('users.import.summaryAdded', { count: report.added }),
    updated: t('users.import.summaryUpdated', { count: report.updated }),
    rejected: t('users.import.summaryRejected', { count: report.rejected }),
  });
}
