/**
 * Sign-in, sign-out and password change. Every failure of a sign-in looks the
 * same from outside (one message, one status, the same hashing work), and is
 * told apart only in the audit log.
 *
 * Each attempt is counted before its secret is checked and refused before any hashing once the account or the
 * address is over its limit (sign_in_throttle.ts); a right secret while a lock is in force gets the same generic
 * answer as a wrong one, and a success never clears a lock in force.
 */
import type { AppDeps } from '../deps.ts';
import { insert_audit_event } from '../db/audit.ts';
import { find_entity_by_slug } from '../db/entities.ts';
import { end_user_challenges } from '../db/mfa.ts';
import {
  clear_session_password_flag,
  insert_session,
  revoke_session,
  revoke_user_sessions,
} from '../db/sessions.ts';
import type { ActiveSession } from '../db/sessions.ts';
import { get_setting } from '../db/settings.ts';
import {
  clear_temporary_password,
  find_login_candidate,
  find_password_hashes,
  lock_login_candidate,
  mark_temporary_password_used,
  rehash_password,
  set_pin_descent,
  update_password,
} from '../db/users.ts';
import { addressInEntityRanges, offenderAddressAllowed } from './ip_whitelist.ts';
import { chosenPinDescent, pinResetAudit, sessionResetBy } from './pin_reset.ts';
import type { HashingPlace } from './hashing_gate.ts';
import { isKnownClient } from './known_client.ts';
import { openSecondFactorStep, secondFactorNeeded, tellOwner } from './mfa.ts';
import type { MfaStep } from '../../contract/shapes/mfa.ts';
import { pinProblem } from '../../contract/rules/roster.ts';
import { PASSWORD_MIN_LENGTH, REGISTRATION_MESSAGES } from '../../contract/rules/registration.ts';
import {
  dummySecretHash,
  hashingGate,
  hashPin,
  hashSecret,
  isPepperedUnder,
  verifySecret,
} from './passwords.ts';
import { checkPasswordStrength } from './password_strength.ts';
import type { PublicUser } from '../../contract/shapes/user.ts';
import { fail, type Outcome } from './outcome.ts';
import { toPublicUser } from './public_user.ts';
import {
  accountAttemptKey,
  addressBudgetFailure,
  admitAttempt,
  type AttemptKey,
  confirmSuccess,
  recordFailure,
  signInsInFlight,
  waitMinutes,
} from './sign_in_throttle.ts';
import { signSessionToken } from './tokens.ts';

export interface LoginAttempt {
  username: string;
  password: string;
  entity: string;
  ipAddress: string;
  userAgent: string | null;
}

/**
 * Fails for 'throttled' (the address's failure budget), 'sign_in_wait' (an offender account's growing delay), 'sign_in_busy' (too many at once from the address), 'sign_in_network_not_allowed' (a DOC number
 * from a network its entity does not admit) or 'bad_credentials' (every other refusal looks like it: unknown
 * entity or user, wrong secret, locked, inactive entity or account).
 */
export type LoginResult = Outcome<{ token: string; user: PublicUser } | { secondFactor: MfaStep }>;

/** Checks credentials and opens a session. */
export async function login(deps: AppDeps, attempt: LoginAttempt): Promise<LoginResult> {
  // Taken first and synchronously, so a burst that arrives at once is sorted before any await.
  const release = signInsInFlight.tryAcquire(attempt.ipAddress);
  let place: HashingPlace | undefined;
  try {
    // A place in the hashing gate's line, taken before the attempt is counted: a sign-in that was counted is then
    // always checked, never refused half-way for a busy server (which would count it as a failure toward the
    // lock). A sign-in very likely a returning person's takes it in the priority line, which a flood from new
    // addresses cannot fill (known_client.ts); asked only with an in-flight slot, so one address's burst costs
    // at most SIGN_INS_IN_FLIGHT_PER_ADDRESS look-ups at a time.
    if (release) place = hashingGate.reserve(1, { priority: await isKnownClient(deps.sql, attempt) });
    return await checkLogin(deps, attempt, { inFlightSlot: release !== undefined, place });
  } finally {
    release?.();
    place?.release();
  }
}

async function checkLogin(
  deps: AppDeps,
  attempt: LoginAttempt,
  options: { inFlightSlot: boolean; place: HashingPlace | undefined },
): Promise<LoginResult> {
  const { sql } = deps;
  const username = attempt.username.trim();
  const audit = (eventType: string, userId: string | null, eventData: Record<string, unknown>) =>
    insert_audit_event(sql, {
      userId,
      eventType,
      resourceType: 'auth',
      ipAddress: attempt.ipAddress,
      eventData,
    });

  if (!options.inFlightSlot) {
    // Refused before any look-up or hashing, and counted nowhere: it checked no secret, so it tells nothing and
    // needs no budget, while counting it let one burst use up a facility's whole address budget for everyone.
    await audit('login_throttled', null, { username, reason: 'in_flight' });
    return fail('sign_in_busy');
  }
  const place = options.place;
  if (!place) {
    // The process's hashing line is full (passwords.ts): refused before the attempt is counted, so a flood
    // elsewhere costs no one an attempt toward their lock.
    await audit('login_throttled', null, { username, reason: 'hashing_busy' });
    return fail('hashing_busy');
  }

  const entity = await find_entity_by_slug(sql, attempt.entity);
  // An unknown entity still counts against the address (key without an entity), so naming a made-up entity
  // is no way around the budget.
  const key: AttemptKey = {
    entityId: entity?.id ?? null,
    username: username.toLowerCase(),
    ipAddress: attempt.ipAddress,
  };
  // A DOC number (staff sign in with an e-mail address, which a DOC number cannot hold) from a network its
  // entity does not admit: no offender can sign in from here, whoever the number is and whatever the PIN, so
  // it is refused before any look-up or hashing with a refusal that says why, and never counts toward the
  // account's lock (five right PINs from a network not yet whitelisted used to lock the offender out). The
  // address budget still counts it.
  const outsideNetwork = entity !== undefined && !username.includes('@') &&
    !(await offenderAddressAllowed(sql, entity.id, attempt.ipAddress));
  const admission = await admitAttempt(sql, key, { addressOnly: outsideNetwork });
  if (!admission.admitted && admission.refusal === 'address_budget') {
    await audit('login_throttled', null, {
      username,
      reason: 'address_budget',
      failures: admission.addressFailures,
    });
    return addressBudgetFailure(admission);
  }
  if (!admission.admitted && admission.refusal === 'wait') {
    await audit('login_throttled', null, {
      username,
      reason: 'account_delay',
      waitSeconds: admission.waitSeconds,
    });
    return { ...fail('sign_in_wait', String(admission.waitSeconds)), waitSeconds: admission.waitSeconds };
  }
  if (outsideNetwork) {
    await audit('login_blocked_ip', null, { username, reason: 'ip_not_allowed' });
    return fail('sign_in_network_not_allowed');
  }
  const limits = admission.limits;
  const candidate = entity ? await find_login_candidate(sql, entity.id, username) : undefined;
  // Inside one of the entity's own active ranges: the facility's network (api/domain/pin_reset.ts). Asked for
  // every DOC number, named or not, so its cost tells nothing of whether the number exists.
  const facilityNetwork = entity && !username.includes('@')
    ? await addressInEntityRanges(sql, entity.id, attempt.ipAddress)
    : undefined;

  /**
   * Keeps the attempt counted (locking the account at the limit) and answers the generic refusal, or, once the
   * lock is in force, how long it lasts: a username locks whether or not it names anyone, so saying so tells no
   * stranger that an account exists, and tells its owner that the right secret will work again after that time.
   */
  const refuse = async (
    reason: string,
    eventType = 'login_failed',
    minutesLeft?: number,
  ): Promise<LoginResult> => {
    const { lockedNow } = await recordFailure(sql, key, limits);
    if (lockedNow) {
      await audit('account_locked', candidate?.id ?? null, {
        username,
        minutes: limits.lockMinutes,
      });
    }
    await audit(eventType, candidate?.id ?? null, { username, reason });
    const locked = minutesLeft ?? (lockedNow ? limits.lockMinutes : undefined);
    return locked === undefined ? fail('bad_credentials') : fail('account_locked', String(locked));
  };

  if (!admission.admitted) return await refuse('locked', 'login_failed', admission.minutesLeft);

  // One full-cost check, against a dummy hash for an unknown user, so an unknown user and a known one take the
  // same time. Nothing issues temporary passwords any more (an approved applicant signs in with the password they
  // chose): a temporary one left from before is checked as well until it is used or expires, and only then.
  const dummy = await dummySecretHash();
  const peppers = { pepper: deps.pinPepper, previousPepper: deps.previousPinPepper, place };
  const tempUsable = candidate?.temp_password_hash && !candidate.temp_password_used_at &&
    candidate.temp_password_expires_at !== null && candidate.temp_password_expires_at > new Date();
  if (tempUsable) place.extend(1);
  const [passwordOk, tempOk] = await Promise.all([
    verifySecret(attempt.password, candidate?.password_hash ?? dummy, peppers),
    tempUsable ? verifySecret(attempt.password, candidate!.temp_password_hash!, peppers) : false,
  ]);
  // A one-time PIN from staff works on the facility's network only (api/domain/pin_reset.ts): elsewhere it is
  // refused like a wrong PIN, so the answer tells nobody outside that it was right; the audit log says why.
  const oneTimeOutside = candidate?.role === 'offender' && !passwordOk && tempOk && !facilityNetwork;
  const secretOk = passwordOk || (tempOk && Boolean(tempUsable) && !oneTimeOutside);

  // Checked only once the secret is proven and answered as a wrong one, so no refusal tells a stranger that a
  // DOC number exists or that a guess was right; the audit log keeps the real reason.
  if (!entity) return await refuse('unknown_entity');
  if (!candidate) return await refuse('unknown_user');
  if (oneTimeOutside) return await refuse('one_time_pin_outside_facility');
  if (!secretOk) return await refuse('bad_secret');
  if (entity.status !== 'active') return await refuse('entity_inactive');
  if (candidate.status !== 'active') return await refuse(candidate.status);

  const usedTemporary = !passwordOk;
  // A session that descends from a PIN reset carries the admin (api/domain/pin_reset.ts); one opened with the
  // one-time PIN may only choose a new PIN.
  const pinResetBy = sessionResetBy(candidate, usedTemporary);
  // Told at every sign-in until the offender dismisses it (POST /api/auth/pin-reset-notice/dismiss).
  const pinResetAt = candidate.role === 'offender' && candidate.pin_reset_notice_pending
    ? candidate.pin_reset_at
    : null;
  // A PIN hashed before the pepper existed, or under the pepper being retired (PIN_PEPPER_PREVIOUS), is re-hashed
  // under the pepper now that the PIN is known (waiting its turn at the hashing gate: the PIN is proven, so a busy
  // server must not turn a right PIN into a refusal).
  const rehashed = passwordOk && candidate.role === 'offender' &&
      !(await isPepperedUnder(candidate.password_hash, deps.pinPepper))
    ? await hashPin(attempt.password, { pepper: deps.pinPepper, patient: true })
    : undefined;
  const maxHours = await get_setting(sql, 'session_max_hours');
  // A right password is not enough for an account with a second factor, or one whose role must have one
  // (domain/mfa.ts): the sign-in answers the second step instead of a session.
  const secondFactor = await secondFactorNeeded(sql, candidate);
  const session = await sql.begin(
    async (tx): Promise<{ id: string; expires_at: Date } | { step: MfaStep } | 'changed' | undefined> => {
      // What the secret was checked against may have changed while it was hashed (a sign-in racing a PIN
      // reset, a password change or a deactivation must not open a session that outlives it, nor undo the reset).
      const now = await lock_login_candidate(tx, candidate.id);
      // A sign-in of the same offender beside this one may have re-hashed the same PIN under the pepper first:
      // the PIN this attempt proved still opens it, which one more check (the row held) tells from a change.
      const rehashedBeside = Boolean(rehashed) && now !== undefined &&
        now.password_hash !== candidate.password_hash &&
        await isPepperedUnder(now.password_hash, deps.pinPepper) &&
        await verifySecret(attempt.password, now.password_hash, { pepper: deps.pinPepper, patient: true });
      const unchanged = now && now.status === 'active' && now.entity_status === 'active' &&
        (now.password_hash === candidate.password_hash || rehashedBeside) &&
        now.temp_password_hash === candidate.temp_password_hash &&
        (!usedTemporary || now.temp_password_used_at === null);
      if (!unchanged) return 'changed';
      if (secondFactor) {
        if (usedTemporary) await mark_temporary_password_used(tx, candidate.id);
        const step = await openSecondFactorStep(tx, secondFactor, {
          userId: candidate.id,
          key: { ...key, entityId: entity.id },
          failureId: admission.failureId,
        });
        return { step };
      }
      if (!(await confirmSuccess(tx, { ...key, entityId: entity.id }, admission.failureId))) return undefined;
      // The owner's own password retires an outstanding temporary one: whoever else saw it (the approver) can
      // no longer sign in with it nor use it to set a new password.
      if (usedTemporary) await mark_temporary_password_used(tx, candidate.id);
      else if (candidate.temp_password_hash) await clear_temporary_password(tx, candidate.id);
      if (rehashed && !rehashedBeside) await rehash_password(tx, candidate.id, rehashed);
      const opened = await insert_session(tx, {
        userId: candidate.id,
        maxHours,
        pinResetBy,
        mustChangePassword: usedTemporary,
        ipAddress: attempt.ipAddress,
        userAgent: attempt.userAgent,
      });
      await insert_audit_event(tx, {
        userId: candidate.id,
        eventType: 'user_login',
        resourceType: 'session',
        resourceId: opened.id,
        ipAddress: attempt.ipAddress,
        eventData: {
          role: candidate.role,
          temporaryPassword: usedTemporary,
          ...(pinResetBy ? { pinResetBy } : {}),
          ...(facilityNetwork !== undefined ? { facilityNetwork } : {}),
          ...(!usedTemporary && candidate.temp_password_hash ? { temporaryPasswordRetired: true } : {}),
        },
      });
      return opened;
    },
  );
  // A lock set by a concurrent attempt while this one was hashing: the right secret is refused like a wrong one.
  if (!session) return await refuse('locked', 'login_failed', limits.lockMinutes);
  if (session === 'changed') return await refuse('changed_while_checking');
  if ('step' in session) return { ok: true, secondFactor: session.step };
  const token = await signSessionToken(deps.signingKey, {
    sessionId: session.id,
    userId: candidate.id,
    expiresAt: session.expires_at,
  });
  const user = toPublicUser(candidate, usedTemporary);
  return { ok: true, token, user: pinResetAt ? { ...user, pinResetAt: pinResetAt.toISOString() } : user };
}

/** Ends the session at once. */
export async function logout(deps: AppDeps, session: ActiveSession, ipAddress: string): Promise<void> {
  await deps.sql.begin(async (tx) => {
    await revoke_session(tx, session.session_id);
    await insert_audit_event(tx, {
      userId: session.id,
      eventType: 'logout',
      resourceType: 'session',
      resourceId: session.session_id,
      ipAddress,
    });
  });
}

export type ChangePasswordResult = Outcome<{ user: PublicUser }>;

/** Spec section 9: password minimum 8 characters; 200 keeps hashing input bounded. */
export const NEW_PASSWORD_LIMITS = { min: 8, max: 200 };

/**
 * Replaces the password. The current password proves identity; in a session that
 * began with the temporary password, that temporary password does too. Other
 * sessions of the user end. A wrong current password counts like a failed sign-in (the same per-account lock
 * and address budget) and is audited as `password_change_failed`.
 */
export async function changePassword(
  deps: AppDeps,
  session: ActiveSession,
  change: { currentPassword: string; newPassword: string; ipAddress: string },
): Promise<ChangePasswordResult> {
  const { sql } = deps;
  const hashes = await find_password_hashes(sql, session.id);
  if (!hashes) return fail('session_gone');
  const key = accountAttemptKey(session, change.ipAddress);
  const audit = (reason: string) =>
    insert_audit_event(sql, {
      userId: session.id,
      eventType: 'password_change_failed',
      resourceType: 'user',
      resourceId: session.id,
      ipAddress: change.ipAddress,
      eventData: { reason },
    });
  // Places for the check and the new hash, taken before the attempt is counted: with the process's hashing line
  // full (passwords.ts) the change is refused uncounted; once counted, it is never refused half-way.
  const place = hashingGate.reserve(2);
  if (!place) return fail('hashing_busy');
  try {
    return await checkAndChangePassword(deps, session, change, { hashes, key, audit, place });
  } finally {
    place.release();
  }
}

async function checkAndChangePassword(
  deps: AppDeps,
  session: ActiveSession,
  change: { currentPassword: string; newPassword: string; ipAddress: string },
  c: {
    hashes: NonNullable<Awaited<ReturnType<typeof find_password_hashes>>>;
    key: ReturnType<typeof accountAttemptKey>;
    audit: (reason: string) => Promise<unknown>;
    place: HashingPlace;
  },
): Promise<ChangePasswordResult> {
  const { sql } = deps;
  const { hashes, key, audit, place } = c;
  const admission = await admitAttempt(sql, key);
  if (!admission.admitted) {
    await audit(admission.refusal);
    if (admission.refusal === 'address_budget') return addressBudgetFailure(admission);
    const minutes = admission.refusal === 'wait' ? waitMinutes(admission.waitSeconds) : admission.minutesLeft;
    return fail('password_change_locked', String(minutes));
  }
  if (session.must_change_password && hashes.temp_password_hash) place.extend(1);
  const [currentOk, tempOk] = await Promise.all([
    verifySecret(change.currentPassword, hashes.password_hash, {
      pepper: deps.pinPepper,
      previousPepper: deps.previousPinPepper,
      place,
    }),
    session.must_change_password && hashes.temp_password_hash
      ? verifySecret(change.currentPassword, hashes.temp_password_hash, {
        pepper: deps.pinPepper,
        previousPepper: deps.previousPinPepper,
        place,
      })
      : Promise.resolve(false),
  ]);
  if (!currentOk && !tempOk) {
    const { lockedNow } = await recordFailure(sql, key, admission.limits);
    if (lockedNow) {
      await insert_audit_event(sql, {
        userId: session.id,
        eventType: 'account_locked',
        resourceType: 'auth',
        ipAddress: change.ipAddress,
        eventData: {
          username: key.username,
          minutes: admission.limits.lockMinutes,
          during: 'password_change',
        },
      });
    }
    await audit('bad_secret');
    return fail('current_password_wrong');
  }
  // Proven: the attempt is forgiven unless a lock came into force meanwhile.
  if (!(await sql.begin((tx) => confirmSuccess(tx, key, admission.failureId)))) {
    await audit('locked');
    return fail('password_change_locked', String(admission.limits.lockMinutes));
  }
  if (change.newPassword === change.currentPassword) return fail('password_unchanged');
  if (session.role === 'offender') {
    // An offender signs in with a PIN, so a new one follows the PIN rule, never the password rules.
    const problem = pinProblem(change.newPassword, await get_setting(sql, 'pin_min_length'));
    if (problem) return fail('invalid_input', problem);
  } else {
    if (change.newPassword.length < PASSWORD_MIN_LENGTH) {
      return fail('invalid_input', REGISTRATION_MESSAGES.passwordLength);
    }
    const strength = checkPasswordStrength(change.newPassword, {
      email: session.email,
      firstName: session.first_name,
      lastName: session.last_name,
    });
    if (!strength.ok) return strength;
  }
  const newHash = session.role === 'offender'
    ? await hashPin(change.newPassword, { pepper: deps.pinPepper, place })
    : await hashSecret(change.newPassword, undefined, { place });
  await sql.begin(async (tx) => {
    await update_password(tx, session.id, newHash);
    if (session.role === 'offender') await set_pin_descent(tx, session.id, chosenPinDescent(session));
    await clear_session_password_flag(tx, session.session_id);
    await revoke_user_sessions(tx, session.id, { except: session.session_id });
    await end_user_challenges(tx, session.id);
    await tellOwner(tx, session, { event: 'password_changed', how: 'changed' });
    await insert_audit_event(tx, {
      userId: session.id,
      eventType: 'password_changed',
      resourceType: 'user',
      resourceId: session.id,
      ipAddress: change.ipAddress,
      ...(session.role === 'offender' ? { eventData: pinResetAudit(session) } : {}),
    });
  });
  return { ok: true, user: toPublicUser(session, false) };
}
