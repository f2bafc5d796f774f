/** The /api/auth calls, shared by the sign-in screens and every portal's Log Off. */
import { ApiError, apiRequest } from '../lib/api.ts';
import { parseUser, type User } from './user.ts';
import { currentLanguage } from '../i18n/i18n.ts';
import type { RegistrationRequest } from '../../../contract/shapes/registration.ts';
import type {
  LoginRequest,
  OwnPreferencesRequest,
  PasswordChangeRequest,
} from '../../../contract/shapes/user.ts';
import type { MfaAuthenticatorEnrolment, MfaMethod, MfaVerifyRequest } from '../../../contract/shapes/mfa.ts';

/** Spec section 3: the entity is fixed to 'default'. */
export const LOGIN_ENTITY = 'default';

export type LoginResult =
  | { ok: true; token: string; user: User; message: string; recoveryCodes?: string[] }
  | { ok: false; message: string | null }
  /** The password was right; the second factor is asked next (or, for an account that must, enrolled). */
  | { ok: 'second-factor'; mfaToken: string; methods: MfaMethod[]; enrol: boolean };

/**
 * POST /api/auth/login. A 200 with `success: false` (or without a usable
 * token and user) is a refused sign-in; error statuses throw ApiError.
 */
export async function login(username: string, password: string): Promise<LoginResult> {
  const body = await apiRequest<
    {
      token?: unknown;
      user?: unknown;
      mfaToken?: unknown;
      methods?: unknown;
      mfaEnrollmentRequired?: unknown;
    }
  >('/auth/login', {
    body: { username, password, entity: LOGIN_ENTITY } satisfies LoginRequest,
    auth: false,
  });
  if (body.success !== false && typeof body.mfaToken === 'string') {
    return {
      ok: 'second-factor',
      mfaToken: body.mfaToken,
      methods: Array.isArray(body.methods) ? body.methods as MfaMethod[] : [],
      enrol: body.mfaEnrollmentRequired === true,
    };
  }
  return signedIn(body);
}

function signedIn(
  body: { success?: boolean; message?: string; token?: unknown; user?: unknown; recoveryCodes?: unknown },
): LoginResult {
  const user = parseUser(body.user);
  if (body.success === false || typeof body.token !== 'string' || !body.token || !user) {
    return { ok: false, message: body.message ?? null };
  }
  const recoveryCodes = Array.isArray(body.recoveryCodes) ? body.recoveryCodes as string[] : undefined;
  return {
    ok: true,
    token: body.token,
    user,
    message: body.message ?? '',
    ...(recoveryCodes ? { recoveryCodes } : {}),
  };
}

/** POST /api/auth/mfa/verify: the sign-in's second step with an authenticator's code or a recovery code. */
export async function verifySecondFactor(request: MfaVerifyRequest): Promise<LoginResult> {
  return signedIn(
    await apiRequest<{ token?: unknown; user?: unknown; recoveryCodes?: unknown }>('/auth/mfa/verify', {
      body: request,
      auth: false,
    }),
  );
}

/** POST /api/auth/mfa/enroll/totp: an account that must enrol starts an authenticator app with its step token. */
export async function startStepEnrolment(mfaToken: string): Promise<MfaAuthenticatorEnrolment> {
  const body = await apiRequest<{ data: MfaAuthenticatorEnrolment }>('/auth/mfa/enroll/totp', {
    body: { mfaToken },
    auth: false,
  });
  return body.data;
}

/**
 * How long a Log Off waits for the API before it goes ahead locally. A Log Off that waited on a
 * hung API without end would leave the token in the browser for the next person at a shared computer.
 */
export const LOGOUT_WAIT_MS = 5_000;

/**
 * POST /api/auth/logout with the given token, given up after LOGOUT_WAIT_MS. Failure is reported, never thrown:
 * logging out always goes ahead locally.
 */
export async function logout(token: string | null): Promise<boolean> {
  if (!token) return false;
  try {
    await apiRequest('/auth/logout', {
      method: 'POST',
      token,
      quiet: true,
      signal: AbortSignal.timeout(LOGOUT_WAIT_MS),
    });
    unsentLogouts.delete(token);
    return true;
  } catch (error) {
    // No answer (no network, or none in time): the sign-out is sent again when the network returns. An answer
    // (401: the session had already ended) needs nothing more.
    if (!(error instanceof ApiError) || error.status === 0) unsentLogouts.add(token);
    else unsentLogouts.delete(token);
    return false;
  }
}

/**
 * The tokens whose sign-out has not reached the API: the tablet wiped itself without the network (Log Off,
 * `/logout`, the idle limit), and the session must still end on the server, its offline key with it. Kept in this
 * page's memory only (a token written to storage would outlive the wipe on disk); a reload loses them, and the
 * server's idle limit ends those sessions instead.
 */
const unsentLogouts = new Set<string>();

/** Sends the sign-outs that found no network, first thing when it returns (and before a sign-in). */
export async function sendUnsentLogouts(): Promise<void> {
  for (const token of [...unsentLogouts]) await logout(token);
}

/** How many sign-outs wait for the network (for tests). */
export function unsentLogoutCount(): number {
  return unsentLogouts.size;
}

/** POST /api/auth/register; resolves with the server's message. */
export async function register(request: RegistrationRequest): Promise<string | null> {
  const body = await apiRequest('/auth/register', { body: request, auth: false });
  return body.message ?? null;
}

/**
 * POST /api/auth/password; resolves with the updated user (no longer bound to change it), in the session's
 * language: the one shown, not the answer's saved preference, which may be none (i18n/language.ts).
 */
export async function changePassword(
  currentPassword: string,
  newPassword: string,
): Promise<{ user: User | null; message: string | null }> {
  const body = await apiRequest<{ user?: unknown }>('/auth/password', {
    body: { currentPassword, newPassword } satisfies PasswordChangeRequest,
  });
  const user = parseUser(body.user);
  return { user: user && { ...user, language: currentLanguage() }, message: body.message ?? null };
}

/**
 * PATCH /api/auth/preferences: the signed-in user's own choices, kept with the user: the language (null: none,
 * the entity's default) and the offender's "Larger text".
 */
export async function savePreferences(change: OwnPreferencesRequest): Promise<void> {
  await apiRequest('/auth/preferences', { method: 'PATCH', body: change });
}

/** POST /api/auth/logout-all: every session of the signed-in user ends, on every device. Never throws. */
export async function signOutEverywhere(): Promise<boolean> {
  try {
    await apiRequest('/auth/logout-all', {
      method: 'POST',
      quiet: true,
      signal: AbortSignal.timeout(LOGOUT_WAIT_MS),
    });
    return true;
  } catch {
    return false;
  }
}

/** POST /api/auth/forgot-password; resolves with the server's message (the same for any address). */
export async function forgotPassword(email: string): Promise<string | null> {
  const body = await apiRequest('/auth/forgot-password', {
    body: { email, entity: LOGIN_ENTITY },
    auth: false,
  });
  return body.message ?? null;
}

/** POST /api/auth/reset-password with the e-mailed link's code; resolves with the server's message. */
export async function resetPassword(token: string, newPassword: string): Promise<string | null> {
  const body = await apiRequest('/auth/reset-password', { body: { token, newPassword }, auth: false });
  return body.message ?? null;
}
