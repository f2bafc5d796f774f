/**
 * Second factors for staff accounts: authenticator apps (TOTP, RFC 6238), recovery codes, and the sign-in step
 * between a right password and the second factor (docs/security.md, "Second factors").
 *
 * - An authenticator app's secret is sealed with AES-256-GCM under a key derived from MFA_SECRET_KEY (the factor's
 *   id as additional data), so the database and its backups alone never give up a secret. Each code is accepted
 *   once (the last time step used is kept) with a clock skew of one step either way.
 * - Recovery codes: 10 of 80 random bits each, shown once, kept as an HMAC under the same key, each usable once;
 *   using one is audited and e-mailed to the owner.
 * - The step token (`mfaToken`) is 256 random bits kept as its SHA-256; it lives 5 minutes, is used once, and is
 *   not a session token, so every other endpoint answers it 401.
 * - Adding a factor from a session (the Security screen) needs a proof of identity within IDENTITY_PROOF_MINUTES:
 *   the password for an account without a factor, one of its factors otherwise (`proveIdentity`), so a session
 *   left open or taken cannot enrol its holder's authenticator. The sign-in's enrolment step has its proof: the
 *   password it was opened with, minutes before.
 * - Every change of factors, new recovery codes and a password change or reset is e-mailed to the owner
 *   (`tellOwner`).
 * - A wrong second factor counts in the account's sign-in lock (sign_in_throttle.ts), as a wrong password does;
 *   the password's own attempt stays counted until the second factor is right, so an attacker who knows the
 *   password cannot reset the count by signing in again between guesses.
 */
import type { AppDeps } from '../deps.ts';
import type { Sql, Tx } from '../db/client.ts';
import { insert_audit_event } from '../db/audit.ts';
import { enqueue_email } from '../db/email_outbox.ts';
import {
  factorsResetEmail,
  recoveryUsedEmail,
  type SecurityNotice,
  securityNoticeEmail,
} from '../email/messages.ts';
import * as db from '../db/mfa.ts';
import { forgive_login_attempt } from '../db/login_throttle.ts';
import { insert_session, revoke_user_sessions } from '../db/sessions.ts';
import { get_setting } from '../db/settings.ts';
import {
  email_language,
  find_password_hashes,
  find_user_by_id,
  lock_login_candidate,
  type UserRow,
} from '../db/users.ts';
import { parseMfaRoles } from '../../contract/rules/settings.ts';
import type { PublicUser } from '../../contract/shapes/user.ts';
import type { MfaFactor, MfaMethod, MfaStep } from '../../contract/shapes/mfa.ts';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import {
  hex,
  issueRecoveryCodes,
  openSecret,
  sealSecret,
  sha256,
  TOTP_SECRET_BYTES,
  totpFor,
  totpStep,
} from './mfa_secrets.ts';
import {
  ASSERT,
  checkProof,
  passkeyName,
  type Proof,
  REGISTER,
  takeProof,
  wrongProof,
} from './mfa_proofs.ts';
import { fail, type Outcome } from './outcome.ts';
import { verifySecret } from './passwords.ts';
import { toPublicUser } from './public_user.ts';
import {
  accountAttemptKey,
  addressBudgetFailure,
  admitAttempt,
  type AttemptKey,
  confirmSuccess,
  recordFailure,
} from './sign_in_throttle.ts';
import { signSessionToken } from './tokens.ts';
import {
  authenticationOptions,
  checkRegistration,
  registrationOptions,
  type RelyingParty,
  WEBAUTHN_TIMEOUT_SECONDS,
} from './webauthn.ts';

/** Five minutes: long enough to find a phone or a key, short enough that a stolen step is stale. */
export const MFA_STEP_MINUTES = 5;
/**
 * How long a proof of identity lets the session add second factors: the sign-in step's 5 minutes and as many
 * again to scan a QR code or find a key; then the proof is asked for again.
 */
export const IDENTITY_PROOF_MINUTES = 10;

/** The roles `mfa_required_roles` names now. */
export async function mfaRequiredRoles(sql: Tx): Promise<string[]> {
  return parseMfaRoles(await get_setting(sql, 'mfa_required_roles')) ?? [];
}

/** Tells the owner of an account (by e-mail, in their language) of a change to how it signs in. */
export async function tellOwner(
  tx: Tx,
  user: { id: string; email: string | null },
  notice: SecurityNotice,
): Promise<void> {
  if (user.email) {
    await enqueue_email(tx, securityNoticeEmail(user.email, notice, await email_language(tx, user.id)));
  }
}

/** Whether this session's owner proved it is them recently enough to add a second factor. */
function provedRecently(sql: Tx, session: { session_id: string }): Promise<boolean> {
  return db.identity_proved_within(sql, session.session_id, IDENTITY_PROOF_MINUTES);
}

/** How a user can prove a second factor now: their confirmed factors' kinds and, while any is unused, recovery. */
async function methodsOf(sql: Tx, userId: string): Promise<MfaMethod[]> {
  const [factors, codes] = await Promise.all([
    db.list_factors(sql, userId, { confirmed: true }),
    db.count_recovery_codes(sql, userId),
  ]);
  const methods: MfaMethod[] = [];
  if (factors.some((f) => f.kind === 'webauthn')) methods.push('webauthn');
  if (factors.some((f) => f.kind === 'totp')) methods.push('totp');
  if (methods.length && codes > 0) methods.push('recovery');
  return methods;
}

/**
 * Whether a right password is enough for this user: undefined when it is (an offender, or no factor and none
 * required), else the step the sign-in goes through (read before the sign-in's transaction).
 */
export async function secondFactorNeeded(
  sql: Sql,
  user: { id: string; role: string },
): Promise<{ purpose: 'verify'; methods: MfaMethod[] } | { purpose: 'enroll' } | undefined> {
  if (user.role === 'offender') return undefined;
  const methods = await methodsOf(sql, user.id);
  if (methods.length) return { purpose: 'verify', methods };
  if ((await mfaRequiredRoles(sql)).includes(user.role)) return { purpose: 'enroll' };
  return undefined;
}

/**
 * Opens the second-factor step in the sign-in's transaction, in place of a session: the answer `login` gives.
 * The password's attempt stays counted (see the module's comment) and is forgiven with the second factor.
 */
export async function openSecondFactorStep(
  tx: Tx,
  step: { purpose: 'verify'; methods: MfaMethod[] } | { purpose: 'enroll' },
  attempt: { userId: string; key: AttemptKey & { entityId: string }; failureId: string },
): Promise<MfaStep> {
  const token = hex(crypto.getRandomValues(new Uint8Array(32)).buffer);
  await db.insert_challenge(tx, {
    tokenHash: await sha256(token),
    userId: attempt.userId,
    purpose: step.purpose,
    entityId: attempt.key.entityId,
    username: attempt.key.username,
    passwordFailureId: attempt.failureId,
    minutes: MFA_STEP_MINUTES,
  });
  return step.purpose === 'verify'
    ? { mfaRequired: true, mfaToken: token, methods: step.methods }
    : { mfaEnrollmentRequired: true, mfaToken: token };
}

export interface AuthenticatorEnrolment {
  factorId: string;
  /** The secret as base32 text, for typing in by hand. */
  secret: string;
  /** The otpauth:// URI the QR code carries. */
  uri: string;
}

async function startTotp(
  deps: Pick<AppDeps, 'mfaKey'>,
  tx: Tx,
  user: { id: string; email: string | null },
  name: string,
): Promise<AuthenticatorEnrolment> {
  const secret = crypto.getRandomValues(new Uint8Array(TOTP_SECRET_BYTES));
  const factorId = crypto.randomUUID();
  const sealed = await sealSecret(deps.mfaKey, secret, factorId);
  await db.insert_totp_factor(tx, { id: factorId, userId: user.id, name, sealedSecret: sealed });
  const totp = totpFor(secret, user.email ?? user.id);
  return { factorId, secret: totp.secret.base32, uri: totp.toString() };
}

/** Starts an authenticator app's enrolment for a signed-in user (Security screen), after a recent proof. */
export async function startAuthenticatorEnrolment(
  deps: Pick<AppDeps, 'sql' | 'mfaKey'>,
  user: UserRow & { session_id: string },
  name: string,
): Promise<Outcome<{ enrolment: AuthenticatorEnrolment }>> {
  if (!(await provedRecently(deps.sql, user))) return fail('mfa_proof_required');
  return { ok: true, enrolment: await deps.sql.begin((tx) => startTotp(deps, tx, user, name)) };
}

/** Starts an authenticator app's enrolment in a sign-in that must enrol (the step's token, purpose 'enroll'). */
export async function startStepEnrolment(
  deps: Pick<AppDeps, 'sql' | 'mfaKey'>,
  mfaToken: string,
  name: string,
): Promise<Outcome<{ enrolment: AuthenticatorEnrolment }>> {
  const challenge = await db.find_live_challenge(deps.sql, await sha256(mfaToken));
  if (!challenge || challenge.purpose !== 'enroll') return fail('mfa_token_invalid');
  const user = await find_user_by_id(deps.sql, challenge.user_id);
  if (!user) return fail('mfa_token_invalid');
  return { ok: true, enrolment: await deps.sql.begin((tx) => startTotp(deps, tx, user, name)) };
}

/** Ends a transaction without its writes, naming why (caught by `inTransaction`). */
class Abort extends Error {
  constructor(readonly why: string) {
    super(why);
  }
}

/** Runs `work` in a transaction; an `Abort` rolls it back and is answered as its reason. */
async function inTransaction<T>(sql: Sql, work: (tx: Tx) => Promise<T>): Promise<T | Abort> {
  try {
    return await sql.begin(work) as T;
  } catch (error) {
    if (error instanceof Abort) return error;
    throw error;
  }
}

export type VerifyResult = Outcome<{ token: string; user: PublicUser; recoveryCodes?: string[] }>;

/**
 * The second step of a sign-in: a right code (or recovery code) opens the session, answered as a sign-in is;
 * in an enrolment step, the new authenticator's first code confirms it and opens the session, and the first
 * factor also brings the recovery codes (shown once).
 */
export async function verifySecondFactor(
  deps: AppDeps,
  request: Proof & { mfaToken: string; ipAddress: string; userAgent: string | null; rp: RelyingParty },
): Promise<VerifyResult> {
  const { sql } = deps;
  const tokenHash = await sha256(request.mfaToken);
  const challenge = await db.find_live_challenge(sql, tokenHash);
  if (!challenge) return fail('mfa_token_invalid');
  const userId = challenge.user_id;
  const enrolling = challenge.purpose === 'enroll';
  const key = {
    entityId: challenge.attempt_entity_id,
    username: challenge.attempt_username,
    ipAddress: request.ipAddress,
  };
  const audit = (tx: Tx, eventType: string, eventData: Record<string, unknown>) =>
    insert_audit_event(tx, {
      userId,
      eventType,
      resourceType: 'auth',
      ipAddress: request.ipAddress,
      eventData,
    });

  const admission = await admitAttempt(sql, key);
  if (!admission.admitted && admission.refusal === 'address_budget') return addressBudgetFailure(admission);
  if (!admission.admitted && admission.refusal === 'wait') {
    return { ...fail('sign_in_wait', String(admission.waitSeconds)), waitSeconds: admission.waitSeconds };
  }
  if (!admission.admitted) {
    await recordFailure(sql, key, admission.limits);
    await audit(sql, 'mfa_failed', { method: request.method, reason: 'locked' });
    return fail('mfa_locked', String(admission.minutesLeft));
  }
  const checked = await checkProof(deps, userId, request, {
    enrolling,
    passkey: { rp: request.rp, takeChallenge: () => db.take_step_webauthn_challenge(sql, tokenHash) },
  });
  const refuse = async (reason: string): Promise<VerifyResult> => {
    const { lockedNow } = await recordFailure(sql, key, admission.limits);
    if (lockedNow) {
      await audit(sql, 'account_locked', { username: key.username, minutes: admission.limits.lockMinutes });
    }
    await audit(sql, 'mfa_failed', { method: request.method, reason });
    return reason === 'locked'
      ? fail('mfa_locked', String(admission.limits.lockMinutes))
      : fail(wrongProof(request.method));
  };
  if (!checked.ok) return await refuse(request.method === 'webauthn' ? 'wrong_assertion' : 'wrong_code');

  const maxHours = await get_setting(sql, 'session_max_hours');
  const opened = await inTransaction(sql, async (tx) => {
    const user = await lock_login_candidate(tx, userId);
    if (!user || user.status !== 'active' || user.entity_status !== 'active') throw new Abort('gone');
    if (!(await db.use_challenge(tx, tokenHash))) throw new Abort('used');
    const taken = await takeProof(tx, userId, checked);
    if (!taken) throw new Abort('replayed_code');
    if (!(await confirmSuccess(tx, key, admission.failureId))) throw new Abort('locked');
    // The password's own attempt, counted since the first step, is forgiven only now.
    await forgive_login_attempt(tx, {
      failureId: challenge.password_failure_id,
      entityId: key.entityId,
      username: key.username,
      ipAddress: key.ipAddress,
    });
    let recoveryCodes: string[] | undefined;
    if (taken.enrolled) {
      await audit(tx, 'mfa_enrolled', taken.enrolled);
      await tellOwner(tx, user, { event: 'factor_added', kind: taken.enrolled.kind });
      if ((await db.count_recovery_codes(tx, userId)) === 0) {
        recoveryCodes = await issueRecoveryCodes(tx, deps.mfaKey, userId);
      }
    }
    if (checked.method === 'recovery') {
      const left = await db.count_recovery_codes(tx, userId);
      await audit(tx, 'mfa_recovery_used', { left });
      if (user.email) {
        await enqueue_email(tx, recoveryUsedEmail(user.email, left, await email_language(tx, user.id)));
      }
    }
    const session = await insert_session(tx, {
      userId,
      maxHours,
      mustChangePassword: false,
      ipAddress: request.ipAddress,
      userAgent: request.userAgent,
    });
    await db.mark_session_second_factor(tx, session.id);
    await audit(tx, 'mfa_verified', { method: request.method, sessionId: session.id });
    await insert_audit_event(tx, {
      userId,
      eventType: 'user_login',
      resourceType: 'session',
      resourceId: session.id,
      ipAddress: request.ipAddress,
      eventData: { role: user.role, secondFactor: request.method },
    });
    return { session, user, recoveryCodes };
  });
  if (opened instanceof Abort) {
    return opened.why === 'gone' || opened.why === 'used'
      ? fail('mfa_token_invalid')
      : await refuse(opened.why);
  }
  const token = await signSessionToken(deps.signingKey, {
    sessionId: opened.session.id,
    userId,
    expiresAt: opened.session.expires_at,
  });
  return {
    ok: true,
    token,
    user: toPublicUser(opened.user, false),
    ...(opened.recoveryCodes ? { recoveryCodes: opened.recoveryCodes } : {}),
  };
}

/**
 * A signed-in user proves a second factor again (before removing a factor or replacing the recovery codes):
 * counted in the same sign-in lock. Takes what it used in `tx`'s caller's transaction via `then`.
 */
async function proveAgain(
  deps: Pick<AppDeps, 'sql' | 'mfaKey'>,
  user: UserRow & { session_id: string },
  proof: Proof & { ipAddress: string; rp: RelyingParty },
  then: (tx: Tx) => Promise<void>,
): Promise<Outcome> {
  const { sql } = deps;
  const key = accountAttemptKey(user, proof.ipAddress);
  const audit = (tx: Tx, reason: string) =>
    insert_audit_event(tx, {
      userId: user.id,
      eventType: 'mfa_failed',
      resourceType: 'user',
      resourceId: user.id,
      ipAddress: proof.ipAddress,
      eventData: { method: proof.method, reason },
    });
  const admission = await admitAttempt(sql, key);
  if (!admission.admitted && admission.refusal === 'address_budget') return addressBudgetFailure(admission);
  if (!admission.admitted && admission.refusal === 'wait') {
    return { ...fail('sign_in_wait', String(admission.waitSeconds)), waitSeconds: admission.waitSeconds };
  }
  if (!admission.admitted) {
    await audit(sql, 'locked');
    return fail('mfa_locked', String(admission.minutesLeft));
  }
  const checked = await checkProof(deps, user.id, proof, {
    enrolling: false,
    passkey: { rp: proof.rp, takeChallenge: () => db.take_session_webauthn_challenge(sql, user.session_id) },
  });
  const wrong = async (reason: string): Promise<Outcome> => {
    await recordFailure(sql, key, admission.limits);
    await audit(sql, reason);
    return fail(wrongProof(proof.method));
  };
  if (!checked.ok) return await wrong(proof.method === 'webauthn' ? 'wrong_assertion' : 'wrong_code');
  const result = await inTransaction(sql, async (tx) => {
    if (!(await takeProof(tx, user.id, checked))) throw new Abort('replayed_code');
    if (!(await confirmSuccess(tx, key, admission.failureId))) throw new Abort('locked');
    if (checked.method === 'recovery') {
      const left = await db.count_recovery_codes(tx, user.id);
      await insert_audit_event(tx, {
        userId: user.id,
        eventType: 'mfa_recovery_used',
        resourceType: 'user',
        resourceId: user.id,
        ipAddress: proof.ipAddress,
        eventData: { left },
      });
      if (user.email) {
        await enqueue_email(tx, recoveryUsedEmail(user.email, left, await email_language(tx, user.id)));
      }
    }
    await then(tx);
  });
  if (result instanceof Abort) {
    return result.why === 'locked'
      ? fail('mfa_locked', String(admission.limits.lockMinutes))
      : await wrong(result.why);
  }
  return { ok: true };
}

/**
 * A signed-in user's new authenticator app: its first code confirms it; the first factor also brings the
 * recovery codes. The session counts as opened with a second factor from then on.
 */
export async function confirmAuthenticator(
  deps: Pick<AppDeps, 'sql' | 'mfaKey'>,
  session: UserRow & { session_id: string },
  confirm: { factorId: string; code: string; ipAddress: string },
): Promise<Outcome<{ recoveryCodes?: string[] }>> {
  if (!(await provedRecently(deps.sql, session))) return fail('mfa_proof_required');
  const factor = await db.find_factor(deps.sql, session.id, confirm.factorId);
  if (!factor || factor.kind !== 'totp' || factor.confirmed_at) return fail('mfa_factor_not_found');
  const secret = await openSecret(deps.mfaKey, factor.totp_secret!, factor.id);
  const step = secret && totpStep(secret, confirm.code);
  if (step === undefined) return fail('mfa_code_wrong');
  return await deps.sql.begin(async (tx): Promise<Outcome<{ recoveryCodes?: string[] }>> => {
    if (!(await db.take_totp_step(tx, factor.id, step))) return fail('mfa_code_wrong');
    await db.confirm_factor(tx, factor.id);
    await db.mark_session_second_factor(tx, session.session_id);
    await insert_audit_event(tx, {
      userId: session.id,
      eventType: 'mfa_enrolled',
      resourceType: 'user',
      resourceId: session.id,
      ipAddress: confirm.ipAddress,
      eventData: { kind: 'totp', factorId: factor.id, name: factor.name },
    });
    await tellOwner(tx, session, { event: 'factor_added', kind: 'totp' });
    const recoveryCodes = (await db.count_recovery_codes(tx, session.id)) === 0
      ? await issueRecoveryCodes(tx, deps.mfaKey, session.id)
      : undefined;
    return { ok: true, ...(recoveryCodes ? { recoveryCodes } : {}) };
  });
}

/**
 * The options for a sign-in step's passkey: in a step that must enrol, a new key's registration; otherwise an
 * assertion of one of the user's keys. The step keeps the challenge (one answer, within the step's 5 minutes).
 */
export async function stepPasskeyOptions(
  deps: Pick<AppDeps, 'sql'>,
  step: { mfaToken: string; purpose: 'verify' | 'enroll' },
  rp: RelyingParty,
): Promise<
  Outcome<{ options: PublicKeyCredentialCreationOptionsJSON | PublicKeyCredentialRequestOptionsJSON }>
> {
  const tokenHash = await sha256(step.mfaToken);
  const challenge = await db.find_live_challenge(deps.sql, tokenHash);
  // A step that must enrol proves nothing yet; a step with factors adds none before the sign-in.
  if (!challenge || challenge.purpose !== step.purpose) return fail('mfa_token_invalid');
  const user = await find_user_by_id(deps.sql, challenge.user_id);
  if (!user) return fail('mfa_token_invalid');
  const factors = await db.list_factors(deps.sql, user.id, { confirmed: true });
  if (challenge.purpose === 'enroll') {
    const options = await registrationOptions(rp, user, factors);
    await db.set_step_webauthn_challenge(deps.sql, tokenHash, REGISTER + options.challenge);
    return { ok: true, options };
  }
  const keys = factors.filter((f) => f.kind === 'webauthn');
  if (!keys.length) return fail('mfa_factor_not_found');
  const options = await authenticationOptions(rp, keys);
  await db.set_step_webauthn_challenge(deps.sql, tokenHash, ASSERT + options.challenge);
  return { ok: true, options };
}

/**
 * A signed-in user starts adding a passkey or security key (Security screen), after a recent proof; the session
 * keeps the challenge.
 */
export async function startPasskeyRegistration(
  deps: Pick<AppDeps, 'sql'>,
  session: UserRow & { session_id: string },
  rp: RelyingParty,
): Promise<Outcome<{ options: PublicKeyCredentialCreationOptionsJSON }>> {
  if (!(await provedRecently(deps.sql, session))) return fail('mfa_proof_required');
  const factors = await db.list_factors(deps.sql, session.id, { confirmed: true });
  const options = await registrationOptions(rp, session, factors);
  await db.set_session_webauthn_challenge(
    deps.sql,
    session.session_id,
    REGISTER + options.challenge,
    WEBAUTHN_TIMEOUT_SECONDS,
  );
  return { ok: true, options };
}

/** A signed-in user proves one of their keys before removing a factor or making new recovery codes. */
export async function startPasskeyProof(
  deps: Pick<AppDeps, 'sql'>,
  session: UserRow & { session_id: string },
  rp: RelyingParty,
): Promise<Outcome<{ options: PublicKeyCredentialRequestOptionsJSON }>> {
  const keys = (await db.list_factors(deps.sql, session.id, { confirmed: true })).filter((f) =>
    f.kind === 'webauthn'
  );
  if (!keys.length) return fail('mfa_factor_not_found');
  const options = await authenticationOptions(rp, keys);
  await db.set_session_webauthn_challenge(
    deps.sql,
    session.session_id,
    ASSERT + options.challenge,
    WEBAUTHN_TIMEOUT_SECONDS,
  );
  return { ok: true, options };
}

/**
 * A signed-in user's new passkey or security key: its registration (user-verified, for the session's challenge)
 * adds it; the first factor also brings the recovery codes. The session counts as opened with a second factor.
 */
export async function confirmPasskey(
  deps: Pick<AppDeps, 'sql' | 'mfaKey'>,
  session: UserRow & { session_id: string },
  confirm: { name: string; response: unknown; ipAddress: string; rp: RelyingParty },
): Promise<Outcome<{ recoveryCodes?: string[] }>> {
  if (!(await provedRecently(deps.sql, session))) return fail('mfa_proof_required');
  const pending = await db.take_session_webauthn_challenge(deps.sql, session.session_id);
  const registered = pending?.startsWith(REGISTER)
    ? await checkRegistration(confirm.rp, pending.slice(REGISTER.length), confirm.response)
    : undefined;
  if (!registered) return fail('mfa_passkey_refused');
  return await deps.sql.begin(async (tx): Promise<Outcome<{ recoveryCodes?: string[] }>> => {
    const factorId = crypto.randomUUID();
    const name = passkeyName(confirm.name);
    const added = await db.insert_webauthn_factor(tx, {
      id: factorId,
      userId: session.id,
      name,
      ...registered,
    });
    if (!added) return fail('mfa_passkey_refused');
    await db.mark_session_second_factor(tx, session.session_id);
    await insert_audit_event(tx, {
      userId: session.id,
      eventType: 'mfa_enrolled',
      resourceType: 'user',
      resourceId: session.id,
      ipAddress: confirm.ipAddress,
      eventData: { kind: 'webauthn', factorId, name },
    });
    await tellOwner(tx, session, { event: 'factor_added', kind: 'webauthn' });
    const recoveryCodes = (await db.count_recovery_codes(tx, session.id)) === 0
      ? await issueRecoveryCodes(tx, deps.mfaKey, session.id)
      : undefined;
    return { ok: true, ...(recoveryCodes ? { recoveryCodes } : {}) };
  });
}

/** What proves the owner before a factor is added: a second factor, or the password where there is none. */
export type IdentityProof = Proof | { method: 'password'; password: string };

/**
 * A signed-in user proves it is them before adding a second factor (Security screen): with one of their factors
 * when they have one (the password alone is what a factor is there to back up), with the password otherwise.
 * Counted in the sign-in lock like a sign-in; the session may then add factors for IDENTITY_PROOF_MINUTES.
 */
export async function proveIdentity(
  deps: Pick<AppDeps, 'sql' | 'mfaKey' | 'pinPepper'>,
  user: UserRow & { session_id: string },
  proof: IdentityProof & { ipAddress: string; rp: RelyingParty },
): Promise<Outcome> {
  const hasFactor = (await db.list_factors(deps.sql, user.id, { confirmed: true })).length > 0;
  if (proof.method !== 'password') {
    if (!hasFactor) return fail('mfa_factor_not_found');
    return await proveAgain(deps, user, proof, (tx) => db.mark_identity_proved(tx, user.session_id));
  }
  if (hasFactor) return fail('mfa_second_factor_needed');
  const { sql } = deps;
  const hashes = await find_password_hashes(sql, user.id);
  if (!hashes) return fail('session_gone');
  const key = accountAttemptKey(user, proof.ipAddress);
  const audit = (tx: Tx, eventType: string, eventData: Record<string, unknown>) =>
    insert_audit_event(tx, {
      userId: user.id,
      eventType,
      resourceType: 'user',
      resourceId: user.id,
      ipAddress: proof.ipAddress,
      eventData,
    });
  const admission = await admitAttempt(sql, key);
  if (!admission.admitted && admission.refusal === 'address_budget') return fail('throttled');
  if (!admission.admitted && admission.refusal === 'wait') {
    return { ...fail('sign_in_wait'), waitSeconds: admission.waitSeconds };
  }
  if (!admission.admitted) {
    await audit(sql, 'mfa_failed', { method: 'password', reason: 'locked' });
    return fail('mfa_locked');
  }
  if (!(await verifySecret(proof.password, hashes.password_hash, { pepper: deps.pinPepper }))) {
    const { lockedNow } = await recordFailure(sql, key, admission.limits);
    if (lockedNow) {
      await audit(sql, 'account_locked', {
        username: key.username,
        minutes: admission.limits.lockMinutes,
        during: 'identity_proof',
      });
    }
    await audit(sql, 'mfa_failed', { method: 'password', reason: 'bad_secret' });
    return fail('current_password_wrong');
  }
  const proved = await sql.begin(async (tx) => {
    if (!(await confirmSuccess(tx, key, admission.failureId))) return false;
    await db.mark_identity_proved(tx, user.session_id);
    return true;
  });
  return proved ? { ok: true } : fail('mfa_locked');
}

/** A user's factors as the Security screen lists them, with their unused recovery codes and the requirement. */
export async function listFactors(
  sql: Sql,
  user: UserRow,
): Promise<{ factors: MfaFactor[]; recoveryCodesLeft: number; required: boolean }> {
  const [rows, left, roles] = await Promise.all([
    db.list_factors(sql, user.id, { confirmed: true }),
    db.count_recovery_codes(sql, user.id),
    mfaRequiredRoles(sql),
  ]);
  return {
    factors: rows.map((f) => ({
      id: f.id,
      kind: f.kind,
      name: f.name,
      createdAt: f.created_at.toISOString(),
      lastUsedAt: f.last_used_at?.toISOString() ?? null,
    })),
    recoveryCodesLeft: left,
    required: roles.includes(user.role),
  };
}

/** Removes one of the user's own factors after a second factor; the last one also takes the recovery codes. */
export async function removeFactor(
  deps: Pick<AppDeps, 'sql' | 'mfaKey'>,
  user: UserRow & { session_id: string },
  removal: Proof & { factorId: string; ipAddress: string; rp: RelyingParty },
): Promise<Outcome> {
  const factor = await db.find_factor(deps.sql, user.id, removal.factorId);
  if (!factor || !factor.confirmed_at) return fail('mfa_factor_not_found');
  return await proveAgain(deps, user, removal, async (tx) => {
    await db.delete_factor(tx, user.id, factor.id);
    if ((await db.list_factors(tx, user.id, { confirmed: true })).length === 0) {
      await db.replace_recovery_codes(tx, user.id, []);
    }
    await insert_audit_event(tx, {
      userId: user.id,
      eventType: 'mfa_removed',
      resourceType: 'user',
      resourceId: user.id,
      ipAddress: removal.ipAddress,
      eventData: { kind: factor.kind, factorId: factor.id, name: factor.name },
    });
    await tellOwner(tx, user, { event: 'factor_removed', kind: factor.kind });
  });
}

/** New recovery codes after a second factor; the old ones stop working. */
export async function regenerateRecoveryCodes(
  deps: Pick<AppDeps, 'sql' | 'mfaKey'>,
  user: UserRow & { session_id: string },
  proof: Proof & { ipAddress: string; rp: RelyingParty },
): Promise<Outcome<{ recoveryCodes: string[] }>> {
  if ((await db.list_factors(deps.sql, user.id, { confirmed: true })).length === 0) {
    return fail('mfa_factor_not_found');
  }
  let recoveryCodes: string[] = [];
  const proved = await proveAgain(deps, user, proof, async (tx) => {
    recoveryCodes = await issueRecoveryCodes(tx, deps.mfaKey, user.id);
    await insert_audit_event(tx, {
      userId: user.id,
      eventType: 'mfa_recovery_codes_replaced',
      resourceType: 'user',
      resourceId: user.id,
      ipAddress: proof.ipAddress,
    });
    await tellOwner(tx, user, { event: 'recovery_codes_replaced' });
  });
  return proved.ok ? { ok: true, recoveryCodes } : proved;
}

/**
 * An admin removes another user's factors and recovery codes (audited, e-mailed to the owner); never their own.
 * Every session of the owner ends with them, and any sign-in step pending.
 */
export async function resetFactors(
  sql: Sql,
  admin: { id: string; entity_id: string },
  target: { userId: string; ipAddress: string },
): Promise<Outcome> {
  if (admin.id === target.userId) return fail('mfa_self_reset');
  return await sql.begin(async (tx): Promise<Outcome> => {
    const user = await find_user_by_id(tx, target.userId);
    // Another entity's user is as missing as an unknown one: an admin manages their own entity only.
    if (!user || user.entity_id !== admin.entity_id) return fail('user_not_found');
    const removed = await db.delete_all_factors(tx, user.id);
    // Whoever holds the account now (perhaps the reason for the reset) is signed out: the owner signs in again.
    await revoke_user_sessions(tx, user.id);
    await db.end_user_challenges(tx, user.id);
    await insert_audit_event(tx, {
      userId: admin.id,
      eventType: 'mfa_reset',
      resourceType: 'user',
      resourceId: user.id,
      ipAddress: target.ipAddress,
      eventData: { factorsRemoved: removed },
    });
    if (user.email) await enqueue_email(tx, factorsResetEmail(user.email, await email_language(tx, user.id)));
    return { ok: true };
  });
}

/**
 * A change of `mfa_required_roles` inside the setting's transaction: the roles it adds lose their sessions that
 * were opened with a password alone. Returns how many ended.
 */
export async function applyMfaRequirement(tx: Tx, from: string, to: string): Promise<number> {
  const before = parseMfaRoles(from) ?? [];
  const added = (parseMfaRoles(to) ?? []).filter((r) => !before.includes(r));
  return await db.revoke_password_only_sessions(tx, added);
}
