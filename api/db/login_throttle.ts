/**
 * Sign-in throttling kept in Postgres, so every instance agrees: consecutive failures per username (known or
 * not) and recent failures per client address (and, at a facility address, per address and username).
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

/** What reserving an attempt found. */
export type Reservation =
  /** The address has used its failure budget for the window: refuse at once; nothing was recorded. */
  | { addressThrottled: true; addressFailures: number }
  /** At a facility address, this username's recent failures from it ask for a wait: nothing was recorded. */
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
 * The wait before the next attempt for one username from one facility address, after `failures` recent ones:
 * two mistyped PINs cost nothing, then 10 s, doubling each time (20 s, 40 s, …) up to 10 minutes. The account
 * lock (5 failures, CJIS) still applies on top; the delays keep one guesser at a shared address from using
 * another person's attempts, without slowing anyone else there.
 */
export function facilityDelaySeconds(failures: number): number {
  const FREE = 2;
  if (failures <= FREE) return 0;
  return Math.min(10 * 2 ** (failures - FREE - 1), 600);
}

/**
 * Counts one attempt against the address and against the username, in one transaction: an advisory lock
 * serialises the address's reservations, and the username's counter is one upsert, so two attempts never read
 * the same count. An expired lock starts the count again.
 *
 * At an ordinary address the address's failures within the window are capped at `addressLimit`. At a facility
 * address (`facility`: the sign-in's entity's whitelist admits it) there is no address-wide cap: the attempt waits
 * out facilityDelaySeconds of this username's failures from the address instead. `countAccount` false records the
 * attempt against the address only (a DOC-number sign-in from a network its entity does not admit: it could not
 * succeed, so it must not lock the account).
 */
export async function reserve_login_attempt(
  sql: Sql,
  a: {
    entityId: string | null;
    username: string;
    ipAddress: string;
    facility: boolean;
    countAccount: boolean;
    addressLimit: number;
    windowMinutes: number;
  },
): Promise<Reservation> {
  return await sql.begin(async (tx): Promise<Reservation> => {
    await tx`select pg_advisory_xact_lock(${ADDRESS_LOCK_CLASS}, hashtext(${a.ipAddress}))`;
    if (a.facility) {
      const [recent] = await tx<{ n: number; since: number | null }[]>`
        select count(*)::int as n, extract(epoch from now() - max(created_at))::float8 as since
        from login_failures
        where facility and ip_address = ${a.ipAddress} and username = ${a.username}
          and created_at > now() - make_interval(mins => ${a.windowMinutes})`;
      const wait = facilityDelaySeconds(recent.n) - (recent.since ?? 0);
      if (wait > 0) return { addressThrottled: false, waitSeconds: Math.ceil(wait) };
    } else {
      const [recent] = await tx<{ n: number }[]>`
        select count(*)::int as n from login_failures
        where ip_address = ${a.ipAddress} and not facility
          and created_at > now() - make_interval(mins => ${a.windowMinutes})`;
      if (recent.n >= a.addressLimit) return { addressThrottled: true, addressFailures: recent.n };
    }
    const [failure] = await tx<{ id: string }[]>`
      insert into login_failures (ip_address, username, facility)
      values (${a.ipAddress}, ${a.username}, ${a.facility}) returning id::text as id`;
    if (!a.entityId || !a.countAccount) {
      return {
        addressThrottled: false,
        failureId: failure.id,
        accountFailures: 0,
        locked: false,
        lockedUntil: null,
      };
    }
    const [account] = await tx<{ failures: number; locked: boolean; locked_until: Date | null }[]>`
      insert into login_lockouts as l (entity_id, username, consecutive_failures)
      values (${a.entityId}, ${a.username}, 1)
      on conflict (entity_id, username) do update
        set consecutive_failures = case when l.locked_until <= now() then 1 else l.consecutive_failures + 1 end,
            locked_until = case when l.locked_until <= now() then null else l.locked_until end
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

/**
 * A successful attempt is no failure: its address row goes, so do the username's earlier failures at this facility
 * address (its delays start again), and the username's count starts again.
 */
export async function forgive_login_attempt(
  sql: Tx,
  f: { failureId: string; entityId: string; username: string; ipAddress: string },
): Promise<void> {
  await sql`delete from login_failures where id = ${f.failureId}`;
  await sql`delete from login_failures
    where facility and ip_address = ${f.ipAddress} and username = ${f.username}`;
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
