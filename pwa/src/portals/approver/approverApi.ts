/** The approver's API calls (spec section 7) and the texts their outcomes show (spec section 8). */
import type {
  ApprovalResult,
  PendingRegistration,
  RejectionRequest,
  SupervisorMatch,
} from '../../../../contract/shapes/registration.ts';
import { apiRequest } from '../../lib/api.ts';

export type { PendingRegistration, SupervisorMatch };

export const APPROVER_TEXTS = {
  fetchFailed: 'Failed to fetch registrations',
  loadFailed: 'Failed to load pending registrations',
  approveFailed: 'Failed to approve registration',
  rejectFailed: 'Failed to reject registration',
  /**
   * Not the spec's 'Registration approved successfully! Temporary password: …' on purpose: approval makes no
   * temporary password (the applicant chose their own), so the approver never holds a secret to the account.
   */
  approved:
    'Registration approved successfully! The applicant signs in with the password they chose when registering.',
  rejected: 'Registration rejected successfully',
  reasonRequired: 'Please provide a rejection reason',
  empty: 'No pending registrations',
} as const;

/** How a supervisor match reads in the table and the approval modal. */
export function supervisorLabel(match: SupervisorMatch): string {
  return `${match.name} (${match.email}, bar ${match.bar_number} ${match.bar_state})`;
}

/** GET /api/approver/registrations */
export async function listPendingRegistrations(signal?: AbortSignal): Promise<PendingRegistration[]> {
  const body = await apiRequest<{ registrations?: PendingRegistration[] }>('/approver/registrations', {
    signal,
  });
  return Array.isArray(body.registrations) ? body.registrations : [];
}

/** POST /api/approver/registrations/{id}/approve; resolves with the server's message and the proposed supervisor. */
export async function approveRegistration(
  id: string,
): Promise<{ message: string; supervisingAttorney: SupervisorMatch | null }> {
  const body = await apiRequest<{ data?: Partial<ApprovalResult> }>(
    `/approver/registrations/${encodeURIComponent(id)}/approve`,
    { method: 'POST' },
  );
  return {
    message: body.message ?? APPROVER_TEXTS.approved,
    supervisingAttorney: body.data?.supervisingAttorney ?? null,
  };
}

/** POST /api/approver/registrations/{id}/reject with the reason. */
export async function rejectRegistration(id: string, reason: string): Promise<string | null> {
  const body = await apiRequest(`/approver/registrations/${encodeURIComponent(id)}/reject`, {
    body: { reason } satisfies RejectionRequest,
  });
  return body.message ?? null;
}
