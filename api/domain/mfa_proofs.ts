/**
 * Checking a second factor's proof (an authenticator app's code, a recovery code, a passkey's answer) and taking
 * what it used, so that each code, time step and signature counter proves once. Shared by the sign-in's step and
 * the Security screen's proofs of identity (api/domain/mfa.ts).
 */
import type { AppDeps } from '../deps.ts';
import type { Tx } from '../db/client.ts';
import * as db from '../db/mfa.ts';
import { openSecret, recoveryCodeHash, totpStep } from './mfa_secrets.ts';
import { checkAssertion, checkRegistration, type RegisteredKey, type RelyingParty } from './webauthn.ts';

export type Proof =
  | { method: 'totp' | 'recovery'; code: string }
  /** A passkey's answer: an assertion, or in an enrolment step the new key's registration (with its name). */
  | { method: 'webauthn'; response: unknown; name?: string };

/** Where a passkey answer's challenge is taken from (the sign-in step's, or the session's), and for whom. */
interface PasskeyContext {
  rp: RelyingParty;
  /** Takes the pending challenge off (one answer per challenge); undefined when none is live. */
  takeChallenge: () => Promise<string | undefined>;
}

/** A challenge is kept with what it was issued for, so a registration's cannot prove a sign-in or the reverse. */
export const REGISTER = 'register:';
export const ASSERT = 'assert:';

/** What checking a proof found: the factor or code it used, to be taken in the caller's transaction. */
type Checked =
  | { ok: true; method: 'totp'; factor: db.FactorRow; step: number; enrolling: boolean }
  | { ok: true; method: 'recovery'; hash: string }
  | { ok: true; method: 'webauthn'; factor: db.FactorRow; newCounter: number }
  | { ok: true; method: 'webauthn'; registered: RegisteredKey; name: string }
  | { ok: false };

export async function checkProof(
  deps: Pick<AppDeps, 'sql' | 'mfaKey'>,
  userId: string,
  proof: Proof,
  options: { enrolling: boolean; passkey?: PasskeyContext },
): Promise<Checked> {
  if (proof.method === 'webauthn') {
    const pending = options.passkey && await options.passkey.takeChallenge();
    if (!options.passkey || !pending) return { ok: false };
    const { rp } = options.passkey;
    if (options.enrolling) {
      if (!pending.startsWith(REGISTER)) return { ok: false };
      const registered = await checkRegistration(rp, pending.slice(REGISTER.length), proof.response);
      return registered
        ? { ok: true, method: 'webauthn', registered, name: passkeyName(proof.name) }
        : { ok: false };
    }
    if (!pending.startsWith(ASSERT)) return { ok: false };
    const keys = (await db.list_factors(deps.sql, userId, { confirmed: true })).filter((f) =>
      f.kind === 'webauthn'
    );
    const asserted = await checkAssertion(rp, pending.slice(ASSERT.length), proof.response, keys);
    return asserted ? { ok: true, method: 'webauthn', ...asserted } : { ok: false };
  }
  if (proof.method === 'recovery') {
    if (options.enrolling) return { ok: false };
    return { ok: true, method: 'recovery', hash: await recoveryCodeHash(deps.mfaKey, userId, proof.code) };
  }
  const factors = (await db.list_factors(deps.sql, userId)).filter((f) =>
    f.kind === 'totp' && (options.enrolling ? f.confirmed_at === null : f.confirmed_at !== null)
  );
  for (const factor of factors) {
    const secret = await openSecret(deps.mfaKey, factor.totp_secret!, factor.id);
    const step = secret && totpStep(secret, proof.code);
    if (step !== undefined) return { ok: true, method: 'totp', factor, step, enrolling: options.enrolling };
  }
  return { ok: false };
}

/** A new key's name as given, or the default one. */
export function passkeyName(name: string | undefined): string {
  const trimmed = name?.trim().slice(0, 100);
  return trimmed || 'Passkey';
}

/**
 * Takes what a proof used (the time step, the recovery code, the key's signature counter) or adds the key it
 * registered; false when another request took it first. The factor a proof enrolled, for the audit.
 */
export async function takeProof(
  tx: Tx,
  userId: string,
  checked: Checked & { ok: true },
): Promise<false | { enrolled?: { kind: 'totp' | 'webauthn'; factorId: string; name: string } }> {
  if (checked.method === 'recovery') return (await db.use_recovery_code(tx, userId, checked.hash)) && {};
  if (checked.method === 'webauthn') {
    if ('registered' in checked) {
      const factorId = crypto.randomUUID();
      const added = await db.insert_webauthn_factor(tx, {
        id: factorId,
        userId,
        name: checked.name,
        ...checked.registered,
      });
      return added && { enrolled: { kind: 'webauthn', factorId, name: checked.name } };
    }
    const taken = await db.take_webauthn_counter(
      tx,
      checked.factor.id,
      Number(checked.factor.sign_count ?? 0),
      checked.newCounter,
    );
    return taken && {};
  }
  if (!(await db.take_totp_step(tx, checked.factor.id, checked.step))) return false;
  if (!checked.enrolling) return {};
  await db.confirm_factor(tx, checked.factor.id);
  return { enrolled: { kind: 'totp', factorId: checked.factor.id, name: checked.factor.name } };
}

/** The refusal of a wrong proof: a code's, or a passkey's. */
export function wrongProof(method: Proof['method']): 'mfa_code_wrong' | 'mfa_passkey_refused' {
  return method === 'webauthn' ? 'mfa_passkey_refused' : 'mfa_code_wrong';
}
