/**
 * The sign-in throttle that sign-in and password change share: every attempt is counted before its secret is
 * checked (api/db/login_throttle.ts), refused before any hashing once the account or the address is over its
 * limit, and forgiven only when it succeeds while no lock is in force.
 *
 * Per account, two policies by who signs in. Staff (an e-mail address): the lock after `failed_login_limit`
 * consecutive failures for `lockout_minutes` (the settings, CJIS floors). Offenders (a DOC number, on a shared
 * facility tablet where anyone can type anyone's number): growing waits between attempts (offenderDelaySeconds),
 * which let the owner in between them, and a lock only after OFFENDER_LIMITS.limit consecutive failures
 * (NIST SP 800-63B-4's ceiling), so a neighbour can no longer lock a chosen DOC number out with five guesses.
 *
 * Per client address, failures within a window are capped, against a PIN or a password sprayed across many
 * accounts, in two budgets: DOC numbers and e-mail addresses, so mistyped PINs never shut staff out of the
 * address, nor the reverse. A facility's tablets share one NAT address (the one its IP whitelist names), so a
 * DOC number at an address inside an active range of its own entity counts in no address budget (one housing unit
 * mistyping PINs at shift change would use it up for everyone) and is held back by its account's waits alone.
 * That allowance is the offenders': staff sign-ins count in the address's budget wherever they come from, and
 * another entity's ranges give an address nothing.
 */
import type { Sql, Tx } from '../db/client.ts';
import * as throttle from '../db/login_throttle.ts';
import { get_setting } from '../db/settings.ts';
import { InFlightLimiter } from './in_flight.ts';
import { addressInEntityRanges } from './ip_whitelist.ts';
import { fail, type Failure } from './outcome.ts';

/**
 * Sign-ins in flight at once from one client address, in this process; more get 429 before any hashing. Each
 * costs two PBKDF2 derivations (about a core for a quarter second), so 4 already keep a small server's cores
 * busy; a person signing in is never one of more than a few at the same instant on one address.
 */
export const SIGN_INS_IN_FLIGHT_PER_ADDRESS = 4;

/** This process's sign-ins in flight per client address. */
export const signInsInFlight = new InFlightLimiter(SIGN_INS_IN_FLIGHT_PER_ADDRESS);

/** Who an attempt is against: the username (lower-cased) of an entity (null when the entity is unknown). */
export interface AttemptKey {
  entityId: string | null;
  username: string;
  ipAddress: string;
}

/**
 * The key a signed-in user's own secret checks count against (a password change, the tablet's lock screen): the
 * username sign-in locks, lower-cased as login() keys it, so every way of guessing one account's secret shares
 * one lock and one address budget.
 */
export function accountAttemptKey(
  user: { entity_id: string; email: string | null; doc_number: string | null; id: string },
  ipAddress: string,
): AttemptKey & { entityId: string } {
  return {
    entityId: user.entity_id,
    username: (user.email ?? user.doc_number ?? user.id).toLowerCase(),
    ipAddress,
  };
}

/** The per-account limits in force for one attempt (read fresh, so a settings change applies at once). */
export interface AccountLimits {
  limit: number;
  lockMinutes: number;
}

/** Whether a username is staff's (an e-mail address, which a DOC number cannot hold) rather than an offender's. */
export function isStaffUsername(username: string): boolean {
  return username.includes('@');
}

/**
 * The wait before an offender account's next attempt after `failures` consecutive ones, counted from the last:
 * two mistyped PINs cost nothing, then 5 s, doubling (10 s, 20 s, 40 s) up to a minute. A minute is the longest
 * an owner waits between tries whoever else is typing their number, and caps a guesser at 1,440 tries a day
 * until OFFENDER_LIMITS stops them; a six-digit PIN has a million values.
 */
export function offenderDelaySeconds(failures: number): number {
  const FREE = 2;
  if (failures <= FREE) return 0;
  return Math.min(5 * 2 ** (failures - FREE - 1), 60);
}

/**
 * An offender account's lock: NIST SP 800-63B-4 (3.2.2) allows at most 100 consecutive failures before one.
 * Reached (at the delays above, about 94 minutes of guessing nobody interrupted with the right PIN), the account
 * locks for 24 hours, which an admin's Unlock or PIN reset lifts sooner: about 100 guesses a day against one
 * account, a one-in-ten-thousand chance a day for a random six-digit PIN.
 */
export const OFFENDER_LIMITS: AccountLimits = { limit: 100, lockMinutes: 24 * 60 };

/** An attempt that may check its secret, or why not. */
export type Admission =
  | { admitted: true; failureId: string; limits: AccountLimits }
  /** The address has used its budget for this kind of sign-in: it opens again in `waitSeconds`. */
  | { admitted: false; refusal: 'address_budget'; addressFailures: number; waitSeconds: number }
  /** An offender account's growing delay: try again in `waitSeconds`. */
  | { admitted: false; refusal: 'wait'; waitSeconds: number }
  /** The account's lock is in force: `minutesLeft` until it ends (whole minutes, at least 1). */
  | { admitted: false; refusal: 'locked'; limits: AccountLimits; minutesLeft: number };

/**
 * Whole minutes until `end`, rounded up and at least 1, to tell a person when to try again; `fallback` when the
 * end is not known (an attempt over the limit whose lock a concurrent one is setting).
 */
export function minutesUntil(end: Date | null, fallback: number, now = Date.now()): number {
  if (!end) return fallback;
  return Math.max(1, Math.ceil((new Date(end).getTime() - now) / 60_000));
}

/** Whole minutes in `seconds`, rounded up and at least 1: how long a person is told to wait. */
export function waitMinutes(seconds: number): number {
  return Math.max(1, Math.ceil(seconds / 60));
}

/** The answer for an address over its budget: when to try again, in minutes, and in Retry-After. */
export function addressBudgetFailure(admission: { waitSeconds: number }): Failure {
  return {
    ...fail('throttled', String(waitMinutes(admission.waitSeconds))),
    waitSeconds: admission.waitSeconds,
  };
}

/**
 * Counts the attempt against the account and the address, and says whether its secret may be checked.
 * `addressOnly`: count it against the address alone (an attempt that cannot succeed from where it comes).
 */
export async function admitAttempt(
  sql: Sql,
  key: AttemptKey,
  options: { addressOnly?: boolean } = {},
): Promise<Admission> {
  const staff = isStaffUsername(key.username);
  const [facility, limit, lockMinutes, addressLimit, windowMinutes] = await Promise.all([
    key.entityId && !staff ? addressInEntityRanges(sql, key.entityId, key.ipAddress) : false,
    get_setting(sql, 'failed_login_limit'),
    get_setting(sql, 'lockout_minutes'),
    get_setting(sql, 'login_address_failure_limit'),
    get_setting(sql, 'login_address_failure_window_minutes'),
  ]);
  const reservation = await throttle.reserve_login_attempt(sql, {
    ...key,
    facility,
    staff,
    countAccount: !options.addressOnly,
    addressLimit,
    windowMinutes,
    ...(staff ? {} : { waitAfter: offenderDelaySeconds }),
  });
  if (reservation.addressThrottled) {
    return {
      admitted: false,
      refusal: 'address_budget',
      addressFailures: reservation.addressFailures,
      waitSeconds: reservation.retryAfterSeconds,
    };
  }
  if (reservation.waitSeconds !== undefined) {
    return { admitted: false, refusal: 'wait', waitSeconds: reservation.waitSeconds };
  }
  const limits = staff ? { limit, lockMinutes } : OFFENDER_LIMITS;
  // Over the limit: the attempts before this one already had every check the lock allows.
  if (reservation.locked || reservation.accountFailures > limits.limit) {
    return {
      admitted: false,
      refusal: 'locked',
      limits,
      minutesLeft: minutesUntil(reservation.lockedUntil, limits.lockMinutes),
    };
  }
  return { admitted: true, failureId: reservation.failureId, limits };
}

/**
 * The attempt failed (or was refused): it stays counted, and the account locks once its count reaches the
 * limit. Answers whether this failure locked it.
 */
export async function recordFailure(
  sql: Tx,
  key: AttemptKey,
  limits: AccountLimits,
): Promise<{ lockedNow: boolean }> {
  if (!key.entityId) return { lockedNow: false };
  return await throttle.lock_if_over_limit(sql, {
    entityId: key.entityId,
    username: key.username,
    ...limits,
  });
}

/**
 * The secret was right: inside the caller's transaction, re-checks the lock (a concurrent attempt may have set
 * it while this one was hashing) and, when none is in force, forgives the attempt and resets the count. False:
 * refuse as if the secret were wrong; a success never clears a lock in force.
 */
export async function confirmSuccess(
  tx: Tx,
  key: AttemptKey & { entityId: string },
  failureId: string,
): Promise<boolean> {
  if (await throttle.lock_in_force(tx, key.entityId, key.username)) return false;
  await throttle.forgive_login_attempt(tx, {
    failureId,
    entityId: key.entityId,
    username: key.username,
    ipAddress: key.ipAddress,
  });
  return true;
}
