/** The user and offender-roster calls of the admin portal (docs/api.md, Users and Offender roster). */
import type {
  AdminUser,
  AdminUserPage,
  OffenderRequest,
  PinResetRequest,
  StaffRequest,
  UserLanguageRequest,
  UserStatusRequest,
} from '../../../../../contract/shapes/admin_user.ts';
import type { ActivityEvent } from '../../../../../contract/shapes/audit_log.ts';
import type { RosterReport, RosterReportRow } from '../../../../../contract/shapes/roster_report.ts';
import { apiRequest } from '../../../lib/api.ts';
import { type UserFilters, type UsersPage, usersQuery } from './usersLogic.ts';

export type { ActivityEvent, AdminUser, OffenderRequest, RosterReport, RosterReportRow, StaffRequest };

/**
 * GET /api/admin/users with the filters: one page of the matching users, newest first, the total that match, and
 * the cursor of the next page (`cursor` null or absent: the first).
 */
export async function fetchUsersPage(
  filters: UserFilters,
  cursor?: string | null,
  signal?: AbortSignal,
): Promise<UsersPage> {
  const body = await apiRequest<Partial<AdminUserPage>>(`/admin/users${usersQuery(filters, cursor)}`, {
    signal,
  });
  const users = Array.isArray(body.users) ? body.users : [];
  return {
    users,
    total: typeof body.total === 'number' ? body.total : users.length,
    nextCursor: body.nextCursor ?? null,
  };
}

/** PUT /api/admin/users/{id}/status (the screen says so in its own words, in the language shown). */
export async function setUserStatus(id: string, status: UserStatusRequest['status']): Promise<void> {
  const request: UserStatusRequest = { status };
  await apiRequest(`/admin/users/${encodeURIComponent(id)}/status`, { method: 'PUT', body: request });
}

/** PUT /api/admin/users/{id}/language: the user's saved language (null: none, the entity's default). */
export async function setUserLanguage(id: string, language: UserLanguageRequest['language']): Promise<void> {
  await apiRequest(`/admin/users/${encodeURIComponent(id)}/language`, {
    method: 'PUT',
    body: { language } satisfies UserLanguageRequest,
  });
}

/** POST /api/admin/users/{id}/unlock: lifts the lock of failed sign-ins. */
export async function unlockUser(id: string): Promise<void> {
  await apiRequest(`/admin/users/${encodeURIComponent(id)}/unlock`, { method: 'POST' });
}

/** GET /api/admin/users/{id}/activity: that user's last 10 audit events, newest first. */
export async function fetchUserActivity(id: string, signal?: AbortSignal): Promise<ActivityEvent[]> {
  const body = await apiRequest<{ data?: { events?: ActivityEvent[] } }>(
    `/admin/users/${encodeURIComponent(id)}/activity`,
    { signal },
  );
  return body.data?.events ?? [];
}

/** POST /api/admin/offenders. */
export async function addOffender(offender: OffenderRequest): Promise<void> {
  await apiRequest('/admin/offenders', { body: offender });
}

/** POST /api/admin/users/staff ('Add Staff'): the owner is e-mailed a link to set the password. */
export async function addStaff(staff: StaffRequest): Promise<void> {
  await apiRequest('/admin/users/staff', { body: staff });
}

/** PUT /api/admin/offenders/{id}/pin. */
export async function resetOffenderPin(id: string, pin: string): Promise<void> {
  const request: PinResetRequest = { pin };
  await apiRequest(`/admin/offenders/${encodeURIComponent(id)}/pin`, { method: 'PUT', body: request });
}

/** POST /api/admin/users/{id}/mfa/reset: another user's second factors and recovery codes go; the owner is e-mailed. */
export async function resetSecondFactors(id: string): Promise<string | null> {
  const body = await apiRequest(`/admin/users/${encodeURIComponent(id)}/mfa/reset`, { method: 'POST' });
  return body.message ?? null;
}

/**
 * POST /api/admin/offenders/import with the CSV itself as the body. The file is re-wrapped as text/csv:
 * browsers label .csv files inconsistently (Windows says application/vnd.ms-excel, some say nothing).
 */
export async function importRoster(file: Blob): Promise<{ report: RosterReport }> {
  const body = await apiRequest<{ data?: Partial<RosterReport> }>('/admin/offenders/import', {
    body: new Blob([file], { type: 'text/csv' }),
  });
  const data = body.data ?? {};
  return {
    report: {
      added: data.added ?? 0,
      updated: data.updated ?? 0,
      rejected: data.rejected ?? 0,
      rows: Array.isArray(data.rows) ? data.rows : [],
    },
  };
}
