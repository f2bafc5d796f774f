/**
 * Sign-in, sign-out and password change. Every failure of a sign-in looks the
 * same from outside (one message, one status, the same hashing work), and is
 * told apart only in the audit log.
 */
import type { AppDeps } from '../deps.ts';
import { insert_audit_event } from '../db/audit.ts';
import { find_entity_by_slug } from '../db/entities.ts';
import * as throttle from '../db/login_throttle.ts';
import {
  clear_session_password_flag,
  insert_session,
  revoke_session,
  revoke_user_sessions,
} from '../db/sessions.ts';
import type { ActiveSession } from '../db/sessions.ts';
import { get_setting } from '../db/settings.ts';
import {
  find_login_candidate,
  find_password_hashes,
  mark_temporary_password_used,
  update_password,
} from '../db/users.ts';
import { offenderAddressAllowed } from './ip_whitelist.ts';
import { dummySecretHash, hashSecret, verifySecret } from './passwords.ts';
import { checkPasswordStrength } from './password_strength.ts';
import type { PublicUser } from '../../contract/shapes/user.ts';
import { fail, type Outcome } from './outcome.ts';
import { toPublicUser } from './public_user.ts';
import { signSessionToken } from './tokens.ts';

/**
 * More than 10 failures in 30 minutes from one address: a 6-digit PIN can be
 * sprayed across many DOC numbers, which the per-username lock alone never sees.
 */
export const ADDRESS_FAILURE_LIMIT = 10;
export const ADDRESS_FAILURE_WINDOW_MINUTES = 30;

export interface LoginAttempt {
  username: string;
  password: string;
  entity: string;
  ipAddress: string;
  userAgent: string | null;
}

/** Fails for 'throttled', 'bad_credentials' (every other refusal looks like it) or 'ip_not_allowed'. */
export type LoginResult = Outcome<{ token: string; user: PublicUser }>;

/** Checks credentials and opens a session. */
export async function login(deps: AppDeps, attempt: LoginAttempt): Promise<LoginResult> {
  const { sql } = deps;
  const username = attempt.username.trim();
  const lockKey = username.toLowerCase();
  const audit = (eventType: string, userId: string | null, eventData: Record<string, unknown>) =>
    insert_audit_event(sql, {
      userId,
      eventType,
      resourceType: 'auth',
      ipAddress: attempt.ipAddress,
      eventData,
    });

  const recentFailures = await throttle.count_recent_address_failures(
    sql,
    attempt.ipAddress,
    ADDRESS_FAILURE_WINDOW_MINUTES,
  );
  if (recentFailures > ADDRESS_FAILURE_LIMIT) {
    await audit('login_throttled', null, { username, failures: recentFailures });
    return fail('throttled');
  }

  const entity = await find_entity_by_slug(sql, attempt.entity);
  const candidate = entity ? await find_login_candidate(sql, entity.id, username) : undefined;
  const locked = entity ? await throttle.is_locked(sql, entity.id, lockKey) : false;

  // Always two full-cost checks, so neither an unknown user nor a pending temporary password shows in the timing.
  const dummy = await dummySecretHash();
  const tempUsable = candidate?.temp_password_hash && !candidate.temp_password_used_at &&
    candidate.temp_password_expires_at !== null && candidate.temp_password_expires_at > new Date();
  const [passwordOk, tempOk] = await Promise.all([
    verifySecret(attempt.password, candidate?.password_hash ?? dummy),
    verifySecret(attempt.password, tempUsable ? candidate!.temp_password_hash! : dummy),
  ]);
  const secretOk = passwordOk || (tempOk && Boolean(tempUsable));

  if (!entity || !candidate || locked || candidate.status !== 'active' || !secretOk) {
    const reason = !candidate
      ? 'unknown_user'
      : locked
      ? 'locked'
      : candidate.status !== 'active'
      ? candidate.status
      : 'bad_secret';
    if (entity) {
      const [limit, lockMinutes] = await Promise.all([
        get_setting(sql, 'failed_login_limit'),
        get_setting(sql, 'lockout_minutes'),
      ]);
      const { lockedNow } = await throttle.record_login_failure(sql, {
        entityId: entity.id,
        username: lockKey,
        ipAddress: attempt.ipAddress,
        limit,
        lockMinutes,
      });
      if (lockedNow) await audit('account_locked', candidate?.id ?? null, { username, minutes: lockMinutes });
    }
    await audit('login_failed', candidate?.id ?? null, { username, reason });
    return fail('bad_credentials');
  }

  // Checked only once the PIN is proven, so the refusal never tells a stranger whether a DOC number exists.
  if (candidate.role === 'offender' && !(await offenderAddressAllowed(sql, entity.id, attempt.ipAddress))) {
    await audit('login_blocked_ip', candidate.id, { username });
    return fail('ip_not_allowed');
  }

  const usedTemporary = !passwordOk;
  const maxHours = await get_setting(sql, 'session_max_hours');
  const session = await sql.begin(async (tx) => {
    await throttle.reset_login_failures(tx, entity.id, lockKey);
    if (usedTemporary) await mark_temporary_password_used(tx, candidate.id);
    const opened = await insert_session(tx, {
      userId: candidate.id,
      maxHours,
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
      eventData: { role: candidate.role, temporaryPassword: usedTemporary },
    });
    return opened;
  });
  const token = await signSessionToken(deps.signingKey, {
    sessionId: session.id,
    userId: candidate.id,
    expiresAt: session.expires_at,
  });
  return { ok: true, token, user: toPublicUser(candidate, usedTemporary) };
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
 * sessions of the user end.
 */
export async function changePassword(
  deps: AppDeps,
  session: ActiveSession,
  change: { currentPassword: string; newPassword: string; ipAddress: string },
): Promise<ChangePasswordResult> {
  const hashes = await find_password_hashes(deps.sql, session.id);
  if (!hashes) return fail('session_gone');
  const [currentOk, tempOk] = await Promise.all([
    verifySecret(change.currentPassword, hashes.password_hash),
    session.must_change_password && hashes.temp_password_hash
      ? verifySecret(change.currentPassword, hashes.temp_password_hash)
      : Promise.resolve(false),
  ]);
  if (!currentOk && !tempOk) return fail('current_password_wrong');
  if (change.newPassword === change.currentPassword) return fail('password_unchanged');
  const strength = checkPasswordStrength(change.newPassword, {
    email: session.email,
    firstName: session.first_name,
    lastName: session.last_name,
  });
  if (!strength.ok) return strength;
  const newHash = await hashSecret(change.newPassword);
  await deps.sql.begin(async (tx) => {
    await update_password(tx, session.id, newHash);
    await clear_session_password_flag(tx, session.session_id);
    await revoke_user_sessions(tx, session.id, { except: session.session_id });
    await insert_audit_event(tx, {
      userId: session.id,
      eventType: 'password_changed',
      resourceType: 'user',
      resourceId: session.id,
      ipAddress: change.ipAddress,
    });
  });
  return { ok: true, user: toPublicUser(session, false) };
}
