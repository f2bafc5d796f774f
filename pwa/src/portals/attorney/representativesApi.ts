/** The attorney's Representatives list: who named them as supervising attorney, and Accept / Remove. */
import type { LinkedRepresentative } from '../../../../contract/shapes/representative.ts';
import { apiRequest } from '../../lib/api.ts';

export type { LinkedRepresentative };

export const REPRESENTATIVE_TEXTS = {
  title: 'Representatives',
  intro:
    'Representatives who named you as their supervising attorney. A document a representative sends is ' +
    'shared with you only if you had accepted them when it was sent.',
  loadFailed: 'Failed to load representatives',
  acceptFailed: 'Failed to accept representative',
  removeFailed: 'Failed to remove representative',
  accepted: 'Representative accepted. Documents they send from now on are shared with you.',
  removed: 'Representative removed. Documents they send from now on are not shared with you.',
  confirmRemove: 'Remove this representative? Documents they send from now on are not shared with you; ' +
    'documents already shared stay readable.',
  empty: 'No representative has named you as their supervising attorney',
} as const;

/** GET /api/attorney/representatives */
export async function listRepresentatives(signal?: AbortSignal): Promise<LinkedRepresentative[]> {
  const body = await apiRequest<{ representatives?: LinkedRepresentative[] }>('/attorney/representatives', {
    signal,
  });
  return Array.isArray(body.representatives) ? body.representatives : [];
}

/** POST /api/attorney/representatives/{id}/accept; resolves with the server's message. */
export async function acceptRepresentative(id: string): Promise<string> {
  const body = await apiRequest(`/attorney/representatives/${encodeURIComponent(id)}/accept`, {
    method: 'POST',
  });
  return body.message ?? REPRESENTATIVE_TEXTS.accepted;
}

/** POST /api/attorney/representatives/{id}/remove; resolves with the server's message. */
export async function removeRepresentative(id: string): Promise<string> {
  const body = await apiRequest(`/attorney/representatives/${encodeURIComponent(id)}/remove`, {
    method: 'POST',
  });
  return body.message ?? REPRESENTATIVE_TEXTS.removed;
}
