/**
 * Sign-in throttling kept in Postgres, so every instance agrees: consecutive failures per username (known or
 * not), with the time of the last one, and recent failures per client address in two budgets (DOC numbers,
 * e-mail addresses).
 *
 * An attempt is counted BEFORE its secret is checked (reserve_login_attempt), atomically, and forgiven only when
 * it succeeds (forgive_login_attempt): a burst sent at once cannot all be checked against the hash while the
 * counters still read zero, which is what a read-check-then-record order allowed.
 */
import type { Sql, Tx } from './client.ts';

/**
 * The class of the two-key advisory locks that serialise one address's reservations (the second key is the
 * address's hashtext). The two-key form never meets the one-key locks of advisory_locks.ts.
 */
const ADDRESS_LOCK_CLASS = 7_110_101;
/**
 * The class of the two-key advisory locks that serialise one account's reservations where its wait is checked
 * (the second key is the hashtext of entity and username): always taken after the address's, so never a cycle.
 */
const ACCOUNT_LOCK_CLASS = 7_110_102;

/** What reserving an attempt found. */
export type Reservation =
  /** The address has used this budget for the window: refuse at once; nothing was recorded. */
  | { addressThrottled: true; addressFailures: number; retryAfterSeconds: number }
  /** The account's consecutive failures ask for a wait before the next attempt: nothing was recorded. */
  | { addressThrottled: false; waitSeconds: number }
  | {
    addressThrottled: false;
    waitSeconds?: undefined;
    /** The address's failure row for this attempt, deleted if the attempt succeeds. */
    failureId: string;
    /** Attempts counted against the username so far, this one included (0 when not counted against it). */
    accountFailures: number;
    /** True while a lock is in force (set before this attempt). */
    locked: boolean;
    /** The end of that lock; null when none is in force. */
    lockedUntil: Date | null;
  };

/**
 * Counts one attempt against the address and against the username, in one transaction: an advisory lock
 * serialises the address's reservations, and the username's counter is one upsert, so two attempts never read
 * the same count. An expired lock starts the count again.
 *
 * The address's failures within the window are capped at `addressLimit` per budget: `staff` (an e-mail address)
 * and DOC numbers are counted apart, so one group's failures never close the address to the other. `facility`
 * (a DOC number at an address its entity's whitelist admits, where its tablets share one NAT address) is counted
 * in no address budget. `waitAfter` (offender accounts): the seconds the account must wait after so many
 * consecutive failures, counted from the last one; an attempt sooner is refused and recorded nowhere.
 * `countAccount` false records the attempt against the address only (a DOC-number sign-in from a network its
 * entity does not admit: it could not succeed, so it must not count against the account).
 */
export async function reserve_login_attempt(
  sql: Sql,
  a: {
    entityId: string | null;
    username: string;
    ipAddress: string;
    facility: boolean;
    staff: boolean;
    countAccount: boolean;
    addressLimit: number;
    windowMinutes: number;
    waitAfter?: (failures: number) => number;
  },
): Promise<Reservation> {
  return await sql.begin(async (tx): Promise<Reservation> => {
    await tx`select pg_advisory_xact_lock(${ADDRESS_LOCK_CLASS}, hashtext(${a.ipAddress}))`;
    if (!a.facility) {
      const [recent] = await tx<{ n: number }[]>`
        select count(*)::int as n from login_failures
        where ip_address = ${a.ipAddress} and not facility and staff = ${a.staff}
          and created_at > now() - make_interval(mins => ${a.windowMinutes})`;
      if (recent.n >= a.addressLimit) {
        // The budget opens again when the failure whose leaving the window brings the count under the limit leaves.
        const [opens] = await tx<{ seconds: number }[]>`
          select extract(epoch from created_at + make_interval(mins => ${a.windowMinutes}) - now())::float8
            as seconds
          from login_failures
          where ip_address = ${a.ipAddress} and not facility and staff = ${a.staff}
            and created_at > now() - make_interval(mins => ${a.windowMinutes})
          order by created_at offset ${recent.n - a.addressLimit} limit 1`;
        return {
          addressThrottled: true,
          addressFailures: recent.n,
          retryAfterSeconds: Math.max(1, Math.ceil(opens?.seconds ?? a.windowMinutes * 60)),
        };
      }
    }
    const countAccount = a.entityId !== null && a.countAccount;
    if (countAccount && a.waitAfter) {
      await tx`select pg_advisory_xact_lock(${ACCOUNT_LOCK_CLASS}, hashtext(${
        a.entityId + ' ' + a.username
      }))`;
      const [account] = await tx<{ failures: number; since: number | null; locked: boolean }[]>`
        select consecutive_failures as failures, extract(epoch from now() - last_failure_at)::float8 as since,
          coalesce(locked_until > now(), false) as locked
        from login_lockouts where entity_id = ${a.entityId} and username = ${a.username}`;
      // While a lock is in force the attempt goes on to be answered with it, not with a wait.
      if (account && !account.locked && account.since !== null) {
        const wait = a.waitAfter(account.failures) - account.since;
        if (wait > 0) return { addressThrottled: false, waitSeconds: Math.ceil(wait) };
      }
    }
    const [failure] = await tx<{ id: string }[]>`
      insert into login_failures (ip_address, username, facility, staff)
      values (${a.ipAddress}, ${a.username}, ${a.facility}, ${a.staff}) returning id::text as id`;
    if (!countAccount) {
      return {
        addressThrottled: false,
        failureId: failure.id,
        accountFailures: 0,
        locked: false,
        lockedUntil: null,
      };
    }
    const [account] = await tx<{ failures: number; locked: boolean; locked_until: Date | null }[]>`
      insert into login_lockouts as l (entity_id, username, consecutive_failures, last_failure_at)
      values (${a.entityId}, ${a.username}, 1, now())
      on conflict (entity_id, username) do update
        set consecutive_failures = case when l.locked_until <= now() then 1 else l.consecutive_failures + 1 end,
            locked_until = case when l.locked_until <= now() then null else l.locked_until end,
            last_failure_at = now()
      returning consecutive_failures as failures, coalesce(locked_until > now(), false) as locked,
        case when locked_until > now() then locked_until end as locked_until`;
    return {
      addressThrottled: false,
      failureId: failure.id,
      accountFailures: account.failures,
      locked: account.locked,
      lockedUntil: account.locked_until,
    };
  });
}

/**
 * Locks the username for `lockMinutes` when its count has reached `limit` and no lock is in force; returns
 * whether this call locked it (once per lock, so `account_locked` is audited once).
 */
export async function lock_if_over_limit(
  sql: Tx,
  f: { entityId: string; username: string; limit: number; lockMinutes: number },
): Promise<{ lockedNow: boolean }> {
  const rows = await sql`
    update login_lockouts set locked_until = now() + make_interval(mins => ${f.lockMinutes})
    where entity_id = ${f.entityId} and username = ${f.username} and consecutive_failures >= ${f.limit}
      and (locked_until is null or locked_until <= now())
    returning 1`;
  return { lockedNow: rows.length > 0 };
}

/**
 * Whether the username is locked, read with its row locked (FOR UPDATE) so a concurrent attempt cannot lock it
 * between this check and the caller's reset in the same transaction.
 */
export async function lock_in_force(sql: Tx, entityId: string, username: string): Promise<boolean> {
  const [row] = await sql<{ locked: boolean }[]>`
    select coalesce(locked_until > now(), false) as locked from login_lockouts
    where entity_id = ${entityId} and username = ${username} for update`;
  return row?.locked ?? false;
}

/** A successful attempt is no failure: its address row goes, and the username's count (and its wait) starts again. */
export async function forgive_login_attempt(
  sql: Tx,
  f: { failureId: string; entityId: string; username: string; ipAddress: string },
): Promise<void> {
  await sql`delete from login_failures where id = ${f.failureId}`;
  await reset_login_failures(sql, f.entityId, f.username);
}

/** Clears the username's count and lock (a success, or an admin's PIN reset). */
export async function reset_login_failures(sql: Tx, entityId: string, username: string): Promise<void> {
  await sql`delete from login_lockouts where entity_id = ${entityId} and username = ${username}`;
}

/**
 * An admin's unlock: clears the username's count and lock. Answers the end of the lock that was in force, or null
 * when none was (an expired lock or a count below the limit is cleared all the same).
 */
export async function clear_login_lock(
  sql: Tx,
  entityId: string,
  username: string,
): Promise<{ lockedUntil: Date | null }> {
  const [row] = await sql<{ locked_until: Date | null }[]>`
    delete from login_lockouts where entity_id = ${entityId} and username = ${username}
    returning case when locked_until > now() then locked_until end as locked_until`;
  return { lockedUntil: row?.locked_until ?? null };
}
