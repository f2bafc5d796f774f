/**
 * Links that set a staff password (the forgotten-password e-mail, an admin's reset). Only the SHA-256 of a link's
 * token is stored: the token itself exists in the e-mail alone.
 */
import type { Sql, Tx } from './client.ts';

export type PasswordResetPurpose = 'forgotten' | 'admin_reset';

/** Stores a new link's token hash; earlier unused links of the user stop working (the newest one counts). */
export async function insert_password_reset(
  sql: Tx,
  r: {
    tokenHash: string;
    userId: string;
    purpose: PasswordResetPurpose;
    createdBy: string | null;
    minutes: number;
  },
): Promise<void> {
  await sql`update password_reset_tokens set used_at = now() where user_id = ${r.userId} and used_at is null`;
  await sql`
    insert into password_reset_tokens (token_hash, user_id, purpose, created_by, expires_at)
    values (${r.tokenHash}, ${r.userId}, ${r.purpose}, ${r.createdBy},
            now() + make_interval(mins => ${r.minutes}))`;
}

/**
 * Uses a link: marks it used and answers its user and purpose, once, if it is unused, unexpired and its user is
 * active staff; undefined otherwise. Atomic: of two uses at once, one gets it.
 */
export async function consume_password_reset(
  sql: Tx,
  tokenHash: string,
): Promise<{ user_id: string; purpose: PasswordResetPurpose; created_by: string | null } | undefined> {
  const [row] = await sql<{ user_id: string; purpose: PasswordResetPurpose; created_by: string | null }[]>`
    update password_reset_tokens t set used_at = now()
    from users u join entities e on e.id = u.entity_id
    where t.token_hash = ${tokenHash} and t.used_at is null and t.expires_at > now()
      and u.id = t.user_id and u.status = 'active' and e.status = 'active' and u.role <> 'offender'
    returning t.user_id, t.purpose, t.created_by`;
  return row;
}

/**
 * A link's user, if the link is usable now (unused, unexpired, its user active staff of an active entity), without
 * using it: what the set-password form checks before it hashes anything. consume_password_reset still decides.
 */
export async function find_usable_password_reset(
  sql: Sql,
  tokenHash: string,
): Promise<{ user_id: string; email: string | null; first_name: string; last_name: string } | undefined> {
  const [row] = await sql<{ user_id: string; email: string | null; first_name: string; last_name: string }[]>`
    select u.id as user_id, u.email, u.first_name, u.last_name
    from password_reset_tokens t join users u on u.id = t.user_id join entities e on e.id = u.entity_id
    where t.token_hash = ${tokenHash} and t.used_at is null and t.expires_at > now()
      and u.status = 'active' and e.status = 'active' and u.role <> 'offender'`;
  return row;
}

/**
 * Counts one more set-password attempt from `ipAddress` and returns the count in its current window (a window
 * starts at the first count and lasts `windowMinutes`). Expired windows of every address are swept first.
 * Atomic: attempts sent at once each get their own number.
 */
export async function count_reset_code_attempt(
  sql: Sql,
  c: { ipAddress: string; windowMinutes: number },
): Promise<number> {
  await sql`delete from reset_code_attempts
            where window_started_at <= now() - make_interval(mins => ${c.windowMinutes})`;
  const [row] = await sql<{ attempts: number }[]>`
    insert into reset_code_attempts as t (ip_address) values (${c.ipAddress})
    on conflict (ip_address) do update
      set window_started_at = case when t.window_started_at <= now() - make_interval(mins => ${c.windowMinutes})
                                   then now() else t.window_started_at end,
          attempts = case when t.window_started_at <= now() - make_interval(mins => ${c.windowMinutes})
                          then 1 else t.attempts + 1 end
    returning attempts`;
  return row.attempts;
}
