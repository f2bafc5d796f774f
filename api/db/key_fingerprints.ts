/**
 * The fingerprints of the keys the data was made under (migration 0035), and what the data itself says about
 * them: the pepper's key id inside each PIN hash, and the sealed authenticator-app secrets.
 */
import type { Tx } from './client.ts';

/** The fingerprint recorded for a key, or undefined when none was yet. */
export async function find_key_fingerprint(sql: Tx, name: string): Promise<string | undefined> {
  const [row] = await sql<{ fingerprint: string }[]>`
    select fingerprint from key_fingerprints where name = ${name}`;
  return row?.fingerprint;
}

/** Records a key's fingerprint unless one is there already; answers the one the table holds afterwards. */
export async function insert_key_fingerprint(sql: Tx, name: string, fingerprint: string): Promise<string> {
  await sql`insert into key_fingerprints (name, fingerprint) values (${name}, ${fingerprint})
    on conflict (name) do nothing`;
  return (await find_key_fingerprint(sql, name))!;
}

/** Replaces a key's fingerprint (a rotation), only while it is still `from`; true when it was. */
export async function update_key_fingerprint(
  sql: Tx,
  name: string,
  change: { from: string; to: string },
): Promise<boolean> {
  const rows = await sql`update key_fingerprints set fingerprint = ${change.to}, recorded_at = now()
    where name = ${name} and fingerprint = ${change.from}`;
  return rows.count === 1;
}

/** How many peppered PIN hashes name each pepper key id (the 8 hex digits after the scheme). */
export async function count_pins_by_pepper(sql: Tx): Promise<Map<string, number>> {
  const rows = await sql<{ key_id: string; n: number }[]>`
    select split_part(password_hash, '$', 2) as key_id, count(*)::int as n from users
    where password_hash like 'pbkdf2-sha256-pepper$%' group by 1`;
  return new Map(rows.map((r) => [r.key_id, r.n]));
}

/** One sealed authenticator-app secret with the id it was sealed with, or undefined when there is none. */
export async function find_any_totp_secret(sql: Tx): Promise<{ id: string; sealed: Uint8Array } | undefined> {
  const [row] = await sql<{ id: string; totp_secret: Uint8Array }[]>`
    select id::text as id, totp_secret from mfa_factors where kind = 'totp' order by created_at limit 1`;
  return row && { id: row.id, sealed: row.totp_secret };
}

/** Every sealed authenticator-app secret, locked until the transaction ends (the MFA key's rotation). */
export function lock_totp_secrets(sql: Tx): Promise<{ id: string; totp_secret: Uint8Array }[]> {
  return sql<{ id: string; totp_secret: Uint8Array }[]>`
    select id::text as id, totp_secret from mfa_factors where kind = 'totp' order by id for update`;
}

/** Replaces one factor's sealed secret (the MFA key's rotation). */
export async function update_totp_secret(sql: Tx, id: string, sealed: Uint8Array): Promise<void> {
  await sql`update mfa_factors set totp_secret = ${sealed} where id = ${id}`;
}

/** Removes every unused recovery code (hashed under a key being retired); answers how many users had some. */
export async function delete_unused_recovery_codes(sql: Tx): Promise<number> {
  const rows = await sql<{ user_id: string }[]>`
    delete from mfa_recovery_codes where used_at is null returning user_id::text as user_id`;
  return new Set(rows.map((r) => r.user_id)).size;
}
