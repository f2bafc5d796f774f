/**
 * Sign-in throttling kept in Postgres, so every instance agrees: consecutive
 * failures per username (known or not) and recent failures per client address.
 */
import type { Tx } from './client.ts';

/** True while the username is locked. */
export async function is_locked(sql: Tx, entityId: string, username: string): Promise<boolean> {
  const [row] = await sql`
    select 1 from login_lockouts
    where entity_id = ${entityId} and username = ${username} and locked_until > now()`;
  return row !== undefined;
}

/**
 * Counts one failure for the username and the address. Reaching `limit` consecutive
 * failures locks the username for `lockMinutes`; returns whether this failure locked it.
 */
export async function record_login_failure(
  sql: Tx,
  f: { entityId: string; username: string; ipAddress: string; limit: number; lockMinutes: number },
): Promise<{ lockedNow: boolean }> {
  await sql`insert into login_failures (ip_address) values (${f.ipAddress})`;
  const [row] = await sql<{ locked_now: boolean }[]>`
    insert into login_lockouts as l (entity_id, username, consecutive_failures)
    values (${f.entityId}, ${f.username}, 1)
    on conflict (entity_id, username) do update
      set consecutive_failures = case when l.locked_until is not null and l.locked_until <= now() then 1
                                      else l.consecutive_failures + 1 end,
          locked_until = case when l.locked_until is not null and l.locked_until <= now() then null
                              else l.locked_until end
    returning consecutive_failures >= ${f.limit} and (locked_until is null or locked_until <= now()) as locked_now`;
  if (row.locked_now) {
    await sql`update login_lockouts
              set locked_until = now() + make_interval(mins => ${f.lockMinutes}), consecutive_failures = 0
              where entity_id = ${f.entityId} and username = ${f.username}`;
  }
  return { lockedNow: row.locked_now };
}

/** A successful sign-in resets the username's count. */
export async function reset_login_failures(sql: Tx, entityId: string, username: string): Promise<void> {
  await sql`delete from login_lockouts where entity_id = ${entityId} and username = ${username}`;
}

/** Failures from one address within the window. */
export async function count_recent_address_failures(
  sql: Tx,
  ipAddress: string,
  windowMinutes: number,
): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    select count(*)::int as n from login_failures
    where ip_address = ${ipAddress} and created_at > now() - make_interval(mins => ${windowMinutes})`;
  return row.n;
}
