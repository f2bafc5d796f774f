/**
 * The attorney's Representatives list: who named them as supervising attorney, Accept / Remove, and inviting a
 * new representative.
 */
import type {
  LinkedRepresentative,
  RepresentativeInvitationRequest,
} from '../../../../contract/shapes/representative.ts';
import { t } from 'i18next';
import { apiRequest } from '../../lib/api.ts';

export type { LinkedRepresentative };

/** The Representatives screen's texts in the language shown, read when shown. */
export const REPRESENTATIVE_TEXTS = {
  get title() {
    return t('representatives.title');
  },
  get intro() {
    return t('representatives.intro');
  },
  get loadFailed() {
    return t('representatives.loadFailed');
  },
  get acceptFailed() {
    return t('representatives.acceptFailed');
  },
  get removeFailed() {
    return t('representatives.removeFailed');
  },
  /** The API's English message; the PWA shows it in the language shown. */
  get accepted() {
    return t('representatives.accepted');
  },
  get removed() {
    return t('representatives.removed');
  },
  get confirmRemove() {
    return t('representatives.confirmRemove');
  },
  get empty() {
    return t('representatives.empty');
  },
  get emptyHow() {
    return t('representatives.emptyHow');
  },
  get invited() {
    return t('representatives.invited');
  },
  get inviteFailed() {
    return t('representatives.inviteFailed');
  },
};

/** GET /api/attorney/representatives */
export async function listRepresentatives(signal?: AbortSignal): Promise<LinkedRepresentative[]> {
  const body = await apiRequest<{ representatives?: LinkedRepresentative[] }>('/attorney/representatives', {
    signal,
  });
  return Array.isArray(body.representatives) ? body.representatives : [];
}

/** POST /api/attorney/representatives/{id}/accept; resolves with the success text in the language shown. */
export async function acceptRepresentative(id: string): Promise<string> {
  await apiRequest(`/attorney/representatives/${encodeURIComponent(id)}/accept`, { method: 'POST' });
  return REPRESENTATIVE_TEXTS.accepted;
}

/** POST /api/attorney/representatives/{id}/remove; resolves with the success text in the language shown. */
export async function removeRepresentative(id: string): Promise<string> {
  await apiRequest(`/attorney/representatives/${encodeURIComponent(id)}/remove`, { method: 'POST' });
  return REPRESENTATIVE_TEXTS.removed;
}

/**
 * POST /api/attorney/representatives/invitations: the address is e-mailed a single-use registration link that
 * fills in this attorney as supervisor; resolves with the success text in the language shown.
 */
export async function inviteRepresentative(email: string): Promise<string> {
  const request: RepresentativeInvitationRequest = { email };
  await apiRequest('/attorney/representatives/invitations', { body: request });
  return REPRESENTATIVE_TEXTS.invited;
}
