/** The audit-log and e-mail-outbox calls of the admin portal (through the one API client). */
import type { AdminUser, AdminUserPage } from '../../../../../contract/shapes/admin_user.ts';
import type { AuditIntegrity, AuditLog, AuditLogPage } from '../../../../../contract/shapes/audit_log.ts';
import type { OutboxEmail, OutboxStatus } from '../../../../../contract/shapes/email_outbox.ts';
import { apiDownload, apiRequest } from '../../../lib/api.ts';
import { type AuditFilters, auditQuery, defaultExportName } from './auditFilters.ts';

export type { AuditIntegrity, AuditLog, AuditLogPage, OutboxEmail, OutboxStatus };

/** One page (50 rows) of the filtered log, newest first. */
export async function fetchAuditLogs(
  filters: AuditFilters,
  cursor?: string | null,
  signal?: AbortSignal,
): Promise<AuditLogPage> {
  const body = await apiRequest<{ data?: Partial<AuditLogPage> }>(
    `/admin/audit-logs${auditQuery(filters, cursor)}`,
    { signal },
  );
  return {
    logs: body.data?.logs ?? [],
    nextCursor: body.data?.nextCursor ?? null,
    eventTypes: body.data?.eventTypes ?? [],
  };
}

/** How many users the User filter offers for what is typed: a name or an address narrows them quickly. */
export const USER_CHOICES = 10;

/** The admin's users whose name, e-mail or DOC number contains `text` (GET /api/admin/users), for the User filter. */
export async function searchUsers(text: string, signal?: AbortSignal): Promise<AdminUser[]> {
  const params = new URLSearchParams({ q: text.trim(), limit: String(USER_CHOICES) });
  const body = await apiRequest<Partial<AdminUserPage>>(`/admin/users?${params}`, { signal });
  return Array.isArray(body.users) ? body.users : [];
}

/**
 * Downloads the whole filtered log as CSV (streamed by the server) and saves it through a temporary object
 * URL; returns the file name.
 */
export async function downloadAuditCsv(filters: AuditFilters): Promise<string> {
  const { blob, filename } = await apiDownload(`/admin/audit-logs/export.csv${auditQuery(filters)}`);
  const name = filename ?? defaultExportName();
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    document.body.appendChild(link);
    link.click();
    link.remove();
  } finally {
    // The click has started the download; the browser keeps its own copy.
    setTimeout(() => URL.revokeObjectURL(url), 5000);
  }
  return name;
}

/** The latest outbox messages, optionally of one status. */
export async function fetchEmailOutbox(status?: OutboxStatus): Promise<OutboxEmail[]> {
  const body = await apiRequest<{ data?: { emails?: OutboxEmail[] } }>(
    `/admin/email-outbox${status ? `?status=${status}` : ''}`,
  );
  return body.data?.emails ?? [];
}

/** When the log was last verified (npm run audit:verify) and last checkpointed. */
export async function fetchAuditIntegrity(signal?: AbortSignal): Promise<AuditIntegrity> {
  const body = await apiRequest<{ data?: Partial<AuditIntegrity> }>('/admin/audit-logs/integrity', {
    signal,
  });
  return {
    lastVerification: body.data?.lastVerification ?? null,
    lastCheckpoint: body.data?.lastCheckpoint ?? null,
  };
}
