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

/**
 * A browser's WebAuthn answer as JSON (`PublicKeyCredential.toJSON()`, or `@simplewebauthn/browser`'s
 * `startRegistration` / `startAuthentication`): checked by the API, opaque here.
 */
export type PasskeyResponse = Record<string, unknown>;

/**
 * The options a browser hands to `navigator.credentials.create` (a new key) or `.get` (proving one), as JSON
 * (`PublicKeyCredentialCreationOptionsJSON` / `PublicKeyCredentialRequestOptionsJSON`); user verification is
 * always required.
 */
export type PasskeyOptions = Record<string, unknown> & { challenge: string };

/**
 * POST /api/auth/mfa/verify body: an authenticator app's code or a recovery code, or a passkey's answer to the
 * challenge from POST /api/auth/mfa/webauthn/options (in a step that must enrol, a new key's registration from
 * POST /api/auth/mfa/enroll/webauthn, with its name).
 */
export type MfaVerifyRequest =
  | { mfaToken: string; method: 'totp' | 'recovery'; code: string }
  | { mfaToken: string; method: 'webauthn'; response: PasskeyResponse; name?: string };

/** POST /api/auth/mfa/webauthn/options and /enroll/webauthn body: the sign-in step's token. */
export interface MfaStepPasskeyRequest {
  mfaToken: string;
}

/** The answer's data of every passkey options route: what the browser is to do with the key. */
export interface MfaPasskeyOptions {
  options: PasskeyOptions;
}

/** POST /api/auth/mfa/webauthn/confirm body: a signed-in user's new key, named. */
export interface MfaPasskeyConfirmRequest {
  name: string;
  response: PasskeyResponse;
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
/**
 * The name an authenticator app is given when its enrolment names none: the API stores it, and the PWA shows it
 * as 'Authenticator app' in the language shown rather than in these English words.
 */
export const DEFAULT_AUTHENTICATOR_NAME = 'Authenticator app';

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

/**
 * A second factor proved again by a signed-in user (removing a factor, new recovery codes); a passkey answers the
 * challenge from POST /api/auth/mfa/webauthn/proof-options.
 */
export type MfaProof =
  | { method: 'totp' | 'recovery'; code: string }
  | { method: 'webauthn'; response: PasskeyResponse };

/**
 * The body of POST /api/auth/mfa/identity, which adding a factor needs within the last few minutes: one of the
 * account's factors, or its password when it has none.
 */
export type MfaIdentityProof = MfaProof | { method: 'password'; password: string };

/** POST /api/auth/login answer when a second factor must follow the password (MfaStep). */
export type MfaStepAnswer = { success: true } & MfaStep;

/** GET /api/auth/mfa/factors answer. */
export interface MfaFactorListAnswer {
  success: true;
  data: MfaFactorList;
}
