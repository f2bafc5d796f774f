/** The approver's API calls (spec section 7) and the texts their outcomes show (spec section 8). */
import type {
  ApprovalResult,
  PendingRegistration,
  RejectionRequest,
  SupervisorMatch,
} from '../../../../contract/shapes/registration.ts';
import { t } from 'i18next';
import { apiRequest } from '../../lib/api.ts';

export type { PendingRegistration, SupervisorMatch };

/** The approver's texts in the language shown (read when shown, so a language change applies at once). */
export const APPROVER_TEXTS = {
  get fetchFailed() {
    return t('approver.fetchFailed');
  },
  get loadFailed() {
    return t('approver.loadFailed');
  },
  get approveFailed() {
    return t('approver.approveFailed');
  },
  get rejectFailed() {
    return t('approver.rejectFailed');
  },
  /**
   * Not the spec's 'Registration approved successfully! Temporary password: …' on purpose: approval makes no
   * temporary password (the applicant chose their own), so the approver never holds a secret to the account.
   * The API's message in English; the PWA shows it in the language shown.
   */
  get approved() {
    return t('approver.approved');
  },
  get rejected() {
    return t('approver.rejected');
  },
  get reasonRequired() {
    return t('approver.reasonRequired');
  },
  get empty() {
    return t('approver.empty');
  },
};

/** How a supervisor match reads in the table and the approval modal. */
export function supervisorLabel(match: SupervisorMatch): string {
  return t('approver.supervisorLabel', {
    name: match.name,
    email: match.email,
    number: match.bar_number,
    state: match.bar_state,
  });
}

/** GET /api/approver/registrations */
export async function listPendingRegistrations(signal?: AbortSignal): Promise<PendingRegistration[]> {
  const body = await apiRequest<{ registrations?: PendingRegistration[] }>('/approver/registrations', {
    signal,
  });
  return Array.isArray(body.registrations) ? body.registrations : [];
}

/**
 * POST /api/approver/registrations/{id}/approve; resolves with the success text in the language shown (the API's
 * English message is the English one) and the proposed supervisor.
 */
export async function approveRegistration(
  id: string,
): Promise<{ message: string; supervisingAttorney: SupervisorMatch | null }> {
  const body = await apiRequest<{ data?: Partial<ApprovalResult> }>(
    `/approver/registrations/${encodeURIComponent(id)}/approve`,
    { method: 'POST' },
  );
  return {
    message: APPROVER_TEXTS.approved,
    supervisingAttorney: body.data?.supervisingAttorney ?? null,
  };
}

/** POST /api/approver/registrations/{id}/reject with the reason; resolves with the success text. */
export async function rejectRegistration(id: string, reason: string): Promise<string> {
  await apiRequest(`/approver/registrations/${encodeURIComponent(id)}/reject`, {
    body: { reason } satisfies RejectionRequest,
  });
  return APPROVER_TEXTS.rejected;
}
