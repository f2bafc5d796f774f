/** The offender's own sign-ins and the "Staff reset your PIN" notice's dismissal (api/domain/pin_reset.ts). */
import type { SignIn, SignInsAnswer } from '../../../../contract/shapes/sign_ins.ts';
import { apiRequest } from '../../lib/api.ts';

export type { SignIn };

/** GET /api/auth/sign-ins: the offender's recent sign-ins, newest first. */
export async function fetchSignIns(signal?: AbortSignal): Promise<SignIn[]> {
  const answer = await apiRequest<SignInsAnswer>('/auth/sign-ins', { signal });
  return answer.data;
}

/** POST /api/auth/pin-reset-notice/dismiss: the offender has read that staff reset their PIN (audited). */
export async function dismissPinResetNotice(): Promise<void> {
  await apiRequest('/auth/pin-reset-notice/dismiss', { method: 'POST' });
}
