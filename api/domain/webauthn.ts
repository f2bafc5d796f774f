/**
 * Passkeys and security keys (WebAuthn) through `@simplewebauthn/server`: the options a browser is given and the
 * checks of what it answers (docs/security.md, "Passkeys and security keys").
 *
 * - User verification is required (a PIN or a fingerprint on the key or the device): a stolen key alone is not a
 *   second factor, and a passkey then counts as phishing-resistant multi-factor (NIST SP 800-63B-4).
 * - The relying party is the portal's address: PORTAL_URL's host name is the RP ID and its origin the only origin
 *   accepted. Without PORTAL_URL (the demo, tests) the address the request came to stands in for it.
 * - Every challenge is random, kept with the sign-in step or the session it was issued to (so it is bound to that
 *   user), and taken off when an answer is checked: one answer per challenge, right or wrong.
 */
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { Config } from '../config.ts';
import type { FactorRow } from '../db/mfa.ts';

/** How long the browser may wait for the key (and how long a signed-in session's challenge lives). */
export const WEBAUTHN_TIMEOUT_SECONDS = 120;
const RP_NAME = 'Legal Mail Portal';

export interface RelyingParty {
  /** The host name credentials are scoped to. */
  id: string;
  /** The one origin whose answers are accepted. */
  origin: string;
}

/** PORTAL_URL's host and origin; without it, those of the address the request came to. */
export function relyingParty(config: Pick<Config, 'portalUrl'>, requestUrl: string): RelyingParty {
  const url = new URL(config.portalUrl ?? requestUrl);
  return { id: url.hostname, origin: url.origin };
}

/** Options for adding a passkey or security key; the user's own keys are excluded (no key twice). */
export async function registrationOptions(
  rp: RelyingParty,
  user: { id: string; email: string | null; first_name?: string | null; last_name?: string | null },
  existing: FactorRow[],
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const displayName = [user.first_name, user.last_name].filter(Boolean).join(' ');
  return await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rp.id,
    userName: user.email ?? user.id,
    userID: new TextEncoder().encode(user.id),
    userDisplayName: displayName || (user.email ?? ''),
    timeout: WEBAUTHN_TIMEOUT_SECONDS * 1000,
    attestationType: 'none',
    excludeCredentials: existing.filter((f) => f.credential_id).map((f) => ({
      id: f.credential_id!,
      transports: f.transports ?? undefined,
    })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
  });
}

/** Options for proving one of the user's keys. */
export async function authenticationOptions(
  rp: RelyingParty,
  keys: FactorRow[],
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return await generateAuthenticationOptions({
    rpID: rp.id,
    timeout: WEBAUTHN_TIMEOUT_SECONDS * 1000,
    userVerification: 'required',
    allowCredentials: keys.map((f) => ({ id: f.credential_id!, transports: f.transports ?? undefined })),
  });
}

export interface RegisteredKey {
  credentialId: string;
  publicKey: Uint8Array;
  signCount: number;
  transports: string[];
}

/** A registration answer checked against its challenge; undefined for anything not a valid, user-verified one. */
export async function checkRegistration(
  rp: RelyingParty,
  challenge: string,
  response: unknown,
): Promise<RegisteredKey | undefined> {
  try {
    const verified = await verifyRegistrationResponse({
      response: response as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
    if (!verified.verified || !verified.registrationInfo.userVerified) return undefined;
    const { credential } = verified.registrationInfo;
    return {
      credentialId: credential.id,
      publicKey: credential.publicKey,
      signCount: credential.counter,
      transports: credential.transports ?? [],
    };
  } catch {
    return undefined; // malformed, or signed for another challenge, origin or RP: refused like a wrong code
  }
}

/** Which of `keys` an assertion answer names, once checked against its challenge; undefined when none proves. */
export async function checkAssertion(
  rp: RelyingParty,
  challenge: string,
  response: unknown,
  keys: FactorRow[],
): Promise<{ factor: FactorRow; newCounter: number } | undefined> {
  const id = typeof response === 'object' && response !== null
    ? (response as { id?: unknown }).id
    : undefined;
  const factor = keys.find((f) => f.credential_id === id);
  if (!factor) return undefined;
  try {
    const verified = await verifyAuthenticationResponse({
      response: response as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
      credential: {
        id: factor.credential_id!,
        publicKey: factor.public_key! as Uint8Array<ArrayBuffer>,
        counter: Number(factor.sign_count ?? 0),
      },
    });
    if (!verified.verified || !verified.authenticationInfo.userVerified) return undefined;
    return { factor, newCounter: verified.authenticationInfo.newCounter };
  } catch {
    return undefined; // malformed, a cloned key's counter, another challenge or origin: refused like a wrong code
  }
}
