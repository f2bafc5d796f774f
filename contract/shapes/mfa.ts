/** Second factors: the sign-in's second step and the Security screen (docs/api.md, "Second factors"). */
import type { PublicUser } from './user.ts';

/** How a second factor is proved: a passkey or security key, an authenticator app's code, a recovery code. */
export type MfaMethod = 'webauthn' | 'totp' | 'recovery';

/**
 * POST /api/auth/login's answer when the password was right but is not enough: no session token, a step token
 * that lives 5 minutes, is used once and opens nothing but POST /api/auth/mfa/verify (or, when the account must
 * enrol first, the enrolment).
 */
export type MfaStep =
  | { mfaRequired: true; mfaToken: string; methods: MfaMethod[] }
  | { mfaEnrollmentRequired: true; mfaToken: string };

/** POST /api/auth/mfa/verify body (TOTP or recovery code). */
export interface MfaVerifyRequest {
  mfaToken: string;
  method: 'totp' | 'recovery';
  code: string;
}

/** POST /api/auth/mfa/verify answer: a sign-in's, with the recovery codes when the step enrolled the first factor. */
export interface MfaVerifyAnswer {
  success: true;
  message: string;
  token: string;
  user: PublicUser;
  /** Shown once: the first factor's enrolment brings them. */
  recoveryCodes?: string[];
}

/** An authenticator app being enrolled: the secret as text and the otpauth:// URI its QR code carries. */
export interface MfaAuthenticatorEnrolment {
  factorId: string;
  secret: string;
  uri: string;
}

/** One enrolled factor as the Security screen lists it. */
export interface MfaFactor {
  id: string;
  kind: 'totp' | 'webauthn';
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** GET /api/auth/mfa/factors answer's data. */
export interface MfaFactorList {
  factors: MfaFactor[];
  recoveryCodesLeft: number;
  /** The user's role must use a second factor (setting `mfa_required_roles`). */
  required: boolean;
}

/** A second factor proved again by a signed-in user (removing a factor, new recovery codes). */
export interface MfaProof {
  method: 'totp' | 'recovery';
  code: string;
}
