/**
 * Links that set a staff password (the forgotten-password e-mail, an admin's reset). Only the SHA-256 of a link's
 * token is stored: the token itself exists in the e-mail alone.
 */
import type { Tx } from './client.ts';

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
