/**
 * Second factors (authenticator apps, passkeys and security keys), recovery codes, and the sign-in step between
 * a right password and the second factor (migration 0023).
 */
import type { Tx } from './client.ts';

export type FactorKind = 'totp' | 'webauthn';

export interface FactorRow {
  id: string;
  user_id: string;
  kind: FactorKind;
  name: string;
  totp_secret: Uint8Array | null;
  totp_last_step: string | null;
  credential_id: string | null;
  public_key: Uint8Array | null;
  sign_count: string | null;
  transports: string[] | null;
  confirmed_at: Date | null;
  created_at: Date;
  last_used_at: Date | null;
}

/** A user's factors, oldest first; `confirmed` true: only those that finished enrolment. */
export function list_factors(
  sql: Tx,
  userId: string,
  options: { confirmed?: boolean } = {},
): Promise<FactorRow[]> {
  return sql<FactorRow[]>`
    select * from mfa_factors
    where user_id = ${userId} ${options.confirmed ? sql`and confirmed_at is not null` : sql``}
    order by created_at, id`;
}

/** One factor of a user. */
export async function find_factor(sql: Tx, userId: string, factorId: string): Promise<FactorRow | undefined> {
  const [row] = await sql<FactorRow[]>`
    select * from mfa_factors where user_id = ${userId} and id = ${factorId}`;
  return row;
}

/** Starts an authenticator app's enrolment (unconfirmed); a user's earlier unconfirmed one is dropped. */
export async function insert_totp_factor(
  sql: Tx,
  f: { id: string; userId: string; name: string; sealedSecret: Uint8Array },
): Promise<void> {
  await sql`delete from mfa_factors where user_id = ${f.userId} and kind = 'totp' and confirmed_at is null`;
  await sql`insert into mfa_factors (id, user_id, kind, name, totp_secret)
            values (${f.id}, ${f.userId}, 'totp', ${f.name}, ${f.sealedSecret})`;
}

/**
 * Takes the time step of an accepted code, only when it is later than the last one accepted: false when this
 * step (or a later one) was already used, so one code signs in once even when sent twice at the same instant.
 */
export async function take_totp_step(sql: Tx, factorId: string, step: number): Promise<boolean> {
  const rows = await sql`
    update mfa_factors set totp_last_step = ${step}, last_used_at = now()
    where id = ${factorId} and (totp_last_step is null or totp_last_step < ${step})
    returning 1`;
  return rows.length > 0;
}

/** Finishes a factor's enrolment. */
export async function confirm_factor(sql: Tx, factorId: string): Promise<void> {
  await sql`update mfa_factors set confirmed_at = now() where id = ${factorId} and confirmed_at is null`;
}

/** Removes one factor; false when it was not the user's. */
export async function delete_factor(sql: Tx, userId: string, factorId: string): Promise<boolean> {
  const rows = await sql`delete from mfa_factors where user_id = ${userId} and id = ${factorId} returning 1`;
  return rows.length > 0;
}

/** Removes every factor and recovery code of a user (an admin's reset); returns how many factors went. */
export async function delete_all_factors(sql: Tx, userId: string): Promise<number> {
  await sql`delete from mfa_recovery_codes where user_id = ${userId}`;
  const rows = await sql`delete from mfa_factors where user_id = ${userId} returning 1`;
  return rows.length;
}

/** Replaces a user's recovery codes with new ones (their hashes). */
export async function replace_recovery_codes(sql: Tx, userId: string, hashes: string[]): Promise<void> {
  await sql`delete from mfa_recovery_codes where user_id = ${userId}`;
  for (const hash of hashes) {
    await sql`insert into mfa_recovery_codes (user_id, code_hash) values (${userId}, ${hash})`;
  }
}

/** Unused recovery codes of a user. */
export async function count_recovery_codes(sql: Tx, userId: string): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    select count(*)::int as n from mfa_recovery_codes where user_id = ${userId} and used_at is null`;
  return row.n;
}

/** Uses one recovery code (by its hash); false when it is not an unused code of the user. */
export async function use_recovery_code(sql: Tx, userId: string, hash: string): Promise<boolean> {
  const rows = await sql`
    update mfa_recovery_codes set used_at = now()
    where user_id = ${userId} and code_hash = ${hash} and used_at is null returning 1`;
  return rows.length > 0;
}

export interface ChallengeRow {
  user_id: string;
  purpose: 'verify' | 'enroll';
  attempt_entity_id: string;
  attempt_username: string;
  password_failure_id: string;
  webauthn_challenge: string | null;
}

/** Opens the second-factor step of a sign-in; it lives `minutes`. */
export async function insert_challenge(
  sql: Tx,
  c: {
    tokenHash: string;
    userId: string;
    purpose: 'verify' | 'enroll';
    entityId: string;
    username: string;
    passwordFailureId: string;
    minutes: number;
  },
): Promise<void> {
  // Steps of this user that ended long ago go with each new one, so the table stays small.
  await sql`delete from mfa_challenges where user_id = ${c.userId} and expires_at < now() - interval '1 day'`;
  await sql`
    insert into mfa_challenges (token_hash, user_id, purpose, attempt_entity_id, attempt_username,
                                password_failure_id, expires_at)
    values (${c.tokenHash}, ${c.userId}, ${c.purpose}, ${c.entityId}, ${c.username}, ${c.passwordFailureId},
            now() + make_interval(mins => ${c.minutes}))`;
}

/** The live (unused, unexpired) step a token names. */
export async function find_live_challenge(sql: Tx, tokenHash: string): Promise<ChallengeRow | undefined> {
  const [row] = await sql<ChallengeRow[]>`
    select user_id, purpose, attempt_entity_id, attempt_username, password_failure_id, webauthn_challenge
    from mfa_challenges where token_hash = ${tokenHash} and used_at is null and expires_at > now()`;
  return row;
}

/** Uses the step up; false when it was used (or ran out) meanwhile. */
export async function use_challenge(sql: Tx, tokenHash: string): Promise<boolean> {
  const rows = await sql`
    update mfa_challenges set used_at = now()
    where token_hash = ${tokenHash} and used_at is null and expires_at > now() returning 1`;
  return rows.length > 0;
}

/**
 * Ends every pending second-factor step of a user: a step is the proof of the password it was opened with, which
 * a password reset or change makes stale.
 */
export async function end_user_challenges(sql: Tx, userId: string): Promise<void> {
  await sql`update mfa_challenges set used_at = now() where user_id = ${userId} and used_at is null`;
}

/** Records that the session's owner just proved it is them (the password, or a second factor). */
export async function mark_identity_proved(sql: Tx, sessionId: string): Promise<void> {
  await sql`update sessions set identity_proved_at = now() where id = ${sessionId}`;
}

/** Whether the session's owner proved it is them within the last `minutes`. */
export async function identity_proved_within(sql: Tx, sessionId: string, minutes: number): Promise<boolean> {
  const rows = await sql`
    select 1 from sessions
    where id = ${sessionId} and identity_proved_at > now() - make_interval(mins => ${minutes})`;
  return rows.length > 0;
}

/** Marks a session as opened (or confirmed) with a second factor. */
export async function mark_session_second_factor(sql: Tx, sessionId: string): Promise<void> {
  await sql`update sessions set second_factor = true where id = ${sessionId}`;
}

/** Ends the open sessions of users of `roles` that were opened without a second factor; returns how many. */
export async function revoke_password_only_sessions(sql: Tx, roles: string[]): Promise<number> {
  if (roles.length === 0) return 0;
  const rows = await sql`
    update sessions s set revoked_at = now(), data_key = null
    from users u
    where u.id = s.user_id and u.role = any(${roles}) and s.revoked_at is null and not s.second_factor
    returning 1`;
  return rows.length;
}

/** Starts a passkey or security key that its registration proved: confirmed at once. False: the credential is known. */
export async function insert_webauthn_factor(
  sql: Tx,
  f: {
    id: string;
    userId: string;
    name: string;
    credentialId: string;
    publicKey: Uint8Array;
    signCount: number;
    transports: string[];
  },
): Promise<boolean> {
  const rows = await sql`
    insert into mfa_factors (id, user_id, kind, name, credential_id, public_key, sign_count, transports, confirmed_at)
    values (${f.id}, ${f.userId}, 'webauthn', ${f.name}, ${f.credentialId}, ${f.publicKey}, ${f.signCount},
            ${f.transports}, now())
    on conflict (credential_id) do nothing returning 1`;
  return rows.length > 0;
}

/**
 * Takes an accepted assertion's signature counter, only when the factor's counter is still the one checked: false
 * when another assertion of the same key got there first.
 */
export async function take_webauthn_counter(
  sql: Tx,
  factorId: string,
  checked: number,
  next: number,
): Promise<boolean> {
  const rows = await sql`
    update mfa_factors set sign_count = ${next}, last_used_at = now()
    where id = ${factorId} and sign_count = ${checked} returning 1`;
  return rows.length > 0;
}

/** Keeps the passkey challenge just issued for a sign-in step (replacing an earlier one of the step). */
export async function set_step_webauthn_challenge(
  sql: Tx,
  tokenHash: string,
  challenge: string,
): Promise<void> {
  await sql`update mfa_challenges set webauthn_challenge = ${challenge}
            where token_hash = ${tokenHash} and used_at is null and expires_at > now()`;
}

/** Takes (and clears) a sign-in step's passkey challenge: each is good for one answer. */
export async function take_step_webauthn_challenge(sql: Tx, tokenHash: string): Promise<string | undefined> {
  const [row] = await sql<{ challenge: string }[]>`
    update mfa_challenges c set webauthn_challenge = null
    from (select token_hash, webauthn_challenge from mfa_challenges where token_hash = ${tokenHash} for update) old
    where c.token_hash = old.token_hash and old.webauthn_challenge is not null
      and c.used_at is null and c.expires_at > now()
    returning old.webauthn_challenge as challenge`;
  return row?.challenge;
}

/** Keeps the passkey challenge just issued to a signed-in session; it lives `seconds`. */
export async function set_session_webauthn_challenge(
  sql: Tx,
  sessionId: string,
  challenge: string,
  seconds: number,
): Promise<void> {
  await sql`update sessions set webauthn_challenge = ${challenge},
              webauthn_challenge_expires_at = now() + make_interval(secs => ${seconds})
            where id = ${sessionId}`;
}

/** Takes (and clears) a session's passkey challenge while it is live: each is good for one answer. */
export async function take_session_webauthn_challenge(
  sql: Tx,
  sessionId: string,
): Promise<string | undefined> {
  const [row] = await sql<{ challenge: string; live: boolean }[]>`
    update sessions s set webauthn_challenge = null, webauthn_challenge_expires_at = null
    from (select id, webauthn_challenge, webauthn_challenge_expires_at from sessions where id = ${sessionId}
          for update) old
    where s.id = old.id and old.webauthn_challenge is not null
    returning old.webauthn_challenge as challenge, old.webauthn_challenge_expires_at > now() as live`;
  return row?.live ? row.challenge : undefined;
}
