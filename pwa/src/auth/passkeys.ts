/**
 * The browser's side of passkeys and security keys: the API's options handed to the key through
 * `@simplewebauthn/browser` (loaded only when a key is used), and the answers sent back. A key that does not answer
 * (cancelled, timed out, none present) is a PasskeyCancelled, told apart from a refusal of the server.
 */
import { ApiError, apiRequest } from '../lib/api.ts';
import type {
  MfaFactorList,
  MfaIdentityProof,
  MfaPasskeyOptions,
  MfaProof,
  PasskeyOptions,
  PasskeyResponse,
} from '../../../contract/shapes/mfa.ts';

/** The key (or the person) gave no answer: nothing was sent to the server. */
export class PasskeyCancelled extends Error {}

/** Whether this browser can use passkeys at all. */
export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

async function withKey<T>(ask: () => Promise<T>): Promise<T> {
  try {
    return await ask();
  } catch (error) {
    throw new PasskeyCancelled(error instanceof Error ? error.message : String(error));
  }
}

/** Asks a key to prove itself for `options` (an assertion). */
export async function provePasskey(options: PasskeyOptions): Promise<PasskeyResponse> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  return await withKey(async () =>
    // deno-lint-ignore no-explicit-any
    await startAuthentication({ optionsJSON: options as any }) as unknown as PasskeyResponse
  );
}

/** Asks the browser to make a new key for `options` (a registration). */
export async function createPasskey(options: PasskeyOptions): Promise<PasskeyResponse> {
  const { startRegistration } = await import('@simplewebauthn/browser');
  return await withKey(async () =>
    // deno-lint-ignore no-explicit-any
    await startRegistration({ optionsJSON: options as any }) as unknown as PasskeyResponse
  );
}

/** POST /api/auth/mfa/webauthn/options: a sign-in step's assertion. */
export async function stepPasskeyOptions(mfaToken: string): Promise<PasskeyOptions> {
  const body = await apiRequest<{ data: MfaPasskeyOptions }>('/auth/mfa/webauthn/options', {
    body: { mfaToken },
    auth: false,
  });
  return body.data.options;
}

/** POST /api/auth/mfa/enroll/webauthn: a sign-in step that must enrol registers a new key. */
export async function stepPasskeyRegistration(mfaToken: string): Promise<PasskeyOptions> {
  const body = await apiRequest<{ data: MfaPasskeyOptions }>('/auth/mfa/enroll/webauthn', {
    body: { mfaToken },
    auth: false,
  });
  return body.data.options;
}

/** GET /api/auth/mfa/factors: the Security screen's list. */
export async function listFactors(): Promise<MfaFactorList> {
  return (await apiRequest<{ data: MfaFactorList }>('/auth/mfa/factors')).data;
}

/** Adds a passkey or security key to the signed-in user's account; the first factor brings recovery codes. */
export async function addPasskey(name: string): Promise<{ recoveryCodes?: string[] }> {
  const started = await apiRequest<{ data: MfaPasskeyOptions }>('/auth/mfa/webauthn', { method: 'POST' });
  const response = await createPasskey(started.data.options);
  const done = await apiRequest<{ recoveryCodes?: string[] }>('/auth/mfa/webauthn/confirm', {
    body: { name, response },
  });
  return done.recoveryCodes ? { recoveryCodes: done.recoveryCodes } : {};
}

/** A passkey's proof before removing a factor or making new recovery codes. */
export async function passkeyProof(): Promise<MfaProof> {
  const started = await apiRequest<{ data: MfaPasskeyOptions }>('/auth/mfa/webauthn/proof-options', {
    method: 'POST',
  });
  return { method: 'webauthn', response: await provePasskey(started.data.options) };
}

/**
 * POST /api/auth/mfa/identity: the owner proves it is them (one of their factors, or the password where there is
 * none), which adding a factor needs within the last few minutes.
 */
export async function proveIdentity(proof: MfaIdentityProof): Promise<void> {
  await apiRequest('/auth/mfa/identity', { body: proof });
}

/** Whether a failure is the API asking for that proof before it adds a factor. */
export function needsIdentityProof(failure: unknown): boolean {
  return failure instanceof ApiError && failure.code === 'mfa_proof_required';
}

/** POST /api/auth/mfa/totp: starts an authenticator app for the signed-in user. */
export async function startAuthenticator(
  name: string,
): Promise<{ factorId: string; secret: string; uri: string }> {
  return (await apiRequest<{ data: { factorId: string; secret: string; uri: string } }>('/auth/mfa/totp', {
    body: { name },
  })).data;
}

/** POST /api/auth/mfa/totp/confirm: the new app's first code. */
export async function confirmAuthenticator(
  factorId: string,
  code: string,
): Promise<{ recoveryCodes?: string[] }> {
  const done = await apiRequest<{ recoveryCodes?: string[] }>('/auth/mfa/totp/confirm', {
    body: { factorId, code },
  });
  return done.recoveryCodes ? { recoveryCodes: done.recoveryCodes } : {};
}

/** POST /api/auth/mfa/factors/{id}/remove after a second factor. */
export async function removeFactor(factorId: string, proof: MfaProof): Promise<void> {
  await apiRequest(`/auth/mfa/factors/${encodeURIComponent(factorId)}/remove`, { body: proof });
}

/** POST /api/auth/mfa/recovery-codes after a second factor: the new codes, shown once. */
export async function replaceRecoveryCodes(proof: MfaProof): Promise<string[]> {
  return (await apiRequest<{ recoveryCodes: string[] }>('/auth/mfa/recovery-codes', { body: proof }))
    .recoveryCodes;
}
