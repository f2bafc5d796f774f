/** The approver's API calls (spec section 7) and the texts their outcomes show (spec section 8). */
import type {
  ApprovalResult,
  PendingRegistration,
  RejectionRequest,
} from '../../../../contract/shapes/registration.ts';
import { apiRequest } from '../../lib/api.ts';

export type { PendingRegistration };

export const APPROVER_TEXTS = {
  fetchFailed: 'Failed to fetch registrations',
  loadFailed: 'Failed to load pending registrations',
  approveFailed: 'Failed to approve registration',
  rejectFailed: 'Failed to reject registration',
  approved: 'Registration approved successfully!',
  rejected: 'Registration rejected successfully',
  reasonRequired: 'Please provide a rejection reason',
  empty: 'No pending registrations',
} as const;

/** 'Registration approved successfully! Temporary password: XXXX' (spec section 8). */
export function approvedMessage(temporaryPassword: string): string {
  return `${APPROVER_TEXTS.approved} Temporary password: ${temporaryPassword}`;
}

/** GET /api/approver/registrations */
export async function listPendingRegistrations(signal?: AbortSignal): Promise<PendingRegistration[]> {
  const body = await apiRequest<{ registrations?: PendingRegistration[] }>('/approver/registrations', {
    signal,
  });
  return Array.isArray(body.registrations) ? body.registrations : [];
}

/** POST /api/approver/registrations/{id}/approve; resolves with the one-time temporary password. */
export async function approveRegistration(
  id: string,
): Promise<{ temporaryPassword: string; message: string | null }> {
  const body = await apiRequest<{ data?: Partial<ApprovalResult> }>(
    `/approver/registrations/${encodeURIComponent(id)}/approve`,
    { method: 'POST' },
  );
  return { temporaryPassword: body.data?.temporaryPassword ?? '', message: body.message ?? null };
}

/** POST /api/approver/registrations/{id}/reject with the reason. */
export async function rejectRegistration(id: string, reason: string): Promise<string | null> {
  const body = await apiRequest(`/approver/registrations/${encodeURIComponent(id)}/reject`, {
    body: { reason } satisfies RejectionRequest,
  });
  return body.message ?? null;
}
