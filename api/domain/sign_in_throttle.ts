/**
 * The sign-in throttle that sign-in and password change share: every attempt is counted before its secret is
 * checked (api/db/login_throttle.ts), refused before any hashing once the account or the address is over its
 * limit, and forgiven only when it succeeds while no lock is in force.
 *
 * Two budgets: the per-account lock (the `failed_login_limit` and `lockout_minutes` settings, CJIS floors), the
 * main defence; and failures per client address within a window, against a PIN sprayed across many DOC numbers.
 * A facility's tablets share one NAT address (the one its IP whitelist names), so at an address inside an active
 * range of the attempt's own entity there is no address-wide budget, which one burst or one housing unit
 * mistyping PINs at shift change would use up for everyone: each username is slowed there by growing delays of
 * its own (api/db/login_throttle.ts facilityDelaySeconds). Another entity's ranges give an address nothing.
 */
import type { Sql, Tx } from '../db/client.ts';
import * as throttle from '../db/login_throttle.ts';
import { get_setting } from '../db/settings.ts';
import { InFlightLimiter } from './in_flight.ts';
import { addressInEntityRanges } from './ip_whitelist.ts';

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

/** An attempt that may check its secret, or why not. */
export type Admission =
  | { admitted: true; failureId: string; limits: AccountLimits }
  | { admitted: false; refusal: 'address_budget'; addressFailures: number }
  /** A facility address's growing delay for this username: try again in `waitSeconds`. */
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

/**
 * Counts the attempt against the account and the address, and says whether its secret may be checked.
 * `addressOnly`: count it against the address alone (an attempt that cannot succeed from where it comes).
 */
export async function admitAttempt(
  sql: Sql,
  key: AttemptKey,
  options: { addressOnly?: boolean } = {},
): Promise<Admission> {
  const [facility, limit, lockMinutes, addressLimit, windowMinutes] = await Promise.all([
    key.entityId ? addressInEntityRanges(sql, key.entityId, key.ipAddress) : false,
    get_setting(sql, 'failed_login_limit'),
    get_setting(sql, 'lockout_minutes'),
    get_setting(sql, 'login_address_failure_limit'),
    get_setting(sql, 'login_address_failure_window_minutes'),
  ]);
  const reservation = await throttle.reserve_login_attempt(sql, {
    ...key,
    facility,
    countAccount: !options.addressOnly,
    addressLimit,
    windowMinutes,
  });
  if (reservation.addressThrottled) {
    return { admitted: false, refusal: 'address_budget', addressFailures: reservation.addressFailures };
  }
  if (reservation.waitSeconds !== undefined) {
    return { admitted: false, refusal: 'wait', waitSeconds: reservation.waitSeconds };
  }
  const limits = { limit, lockMinutes };
  // Over the limit: the attempts before this one already had every check the lock allows.
  if (reservation.locked || reservation.accountFailures > limit) {
    return {
      admitted: false,
      refusal: 'locked',
      limits,
      minutesLeft: minutesUntil(reservation.lockedUntil, lockMinutes),
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
