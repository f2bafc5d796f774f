/**
 * Staff passwords set again through an e-mailed link: the forgotten-password form, and an admin's reset of a
 * staff member's password. Also "Sign out of all sessions", for every user.
 *
 * The link is single-use and short-lived (FORGOTTEN_LINK_MINUTES; ADMIN_LINK_MINUTES for an admin's reset, which
 * the owner may read only the next working day). Only the SHA-256 of its token is stored, and the queued e-mail
 * holds the token sealed under a key outside the database until it is sent (api/email/sealed_secret.ts), so a
 * copy of the database or of a backup sets no password. The form answers the
 * same whether the address has an account or not, and is throttled per client address (a 429 that tells nothing
 * about any address) and per account (further requests are answered alike and send nothing).
 */
import type { AppDeps } from '../deps.ts';
import { insert_audit_event } from '../db/audit.ts';
import type { Tx } from '../db/client.ts';
import { enqueue_email } from '../db/email_outbox.ts';
import { find_entity_by_slug } from '../db/entities.ts';
import { reset_login_failures } from '../db/login_throttle.ts';
import { end_user_challenges } from '../db/mfa.ts';
import {
  consume_password_reset,
  count_reset_code_attempt,
  find_usable_password_reset,
  insert_password_reset,
  type PasswordResetPurpose,
} from '../db/password_resets.ts';
import { count_registration_attempt, sweep_registration_throttle } from '../db/registrations.ts';
import { revoke_user_sessions } from '../db/sessions.ts';
import type { ActiveSession } from '../db/sessions.ts';
import {
  email_language,
  find_staff_by_email,
  lock_user,
  update_password,
  type UserRow,
} from '../db/users.ts';
import { type SetPasswordCause, setPasswordEmail } from '../email/messages.ts';
import { sealEmailSecret, SECRET_PLACEHOLDER } from '../email/sealed_secret.ts';
import { PASSWORD_MIN_LENGTH, REGISTRATION_MESSAGES } from '../../contract/rules/registration.ts';
import type { Actor } from './actor.ts';
import { tellOwner } from './mfa.ts';
import { fail, type Outcome } from './outcome.ts';
import { checkPasswordStrength } from './password_strength.ts';
import { hashSecret } from './passwords.ts';

export const FORGOTTEN_LINK_MINUTES = 30;
export const ADMIN_LINK_MINUTES = 24 * 60;
/** Forgotten-password requests one client address may send an hour. */
export const RESET_REQUESTS_PER_ADDRESS = 5;
/** Links one account may be sent an hour through the form: the rest are answered alike and send nothing. */
export const RESET_EMAILS_PER_ACCOUNT = 3;
/**
 * Set-password attempts one client address may make an hour. A person needs one or two (a refused weak password
 * is another); the code is 256 random bits, so the limit is not what keeps it from being guessed: it bounds the
 * look-ups and hashing one address can ask for, and 20 leaves room for colleagues behind one office address.
 */
export const RESET_CODES_PER_ADDRESS = 20;
const WINDOW_MINUTES = 60;

/** A link's secret: 32 random bytes, base64url. */
export function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export async function tokenHash(token: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Stores a new link for `user` and queues its e-mail (the token sealed), in the caller's transaction. The e-mail
 * says why by the link's purpose, or by `cause` when it says more (an account just made for its owner).
 */
export async function sendLink(
  tx: Tx,
  deps: Pick<AppDeps, 'config' | 'mfaKey'>,
  user: UserRow & { email: string },
  r: { purpose: PasswordResetPurpose; createdBy: string | null; minutes: number; cause?: SetPasswordCause },
): Promise<void> {
  const { cause, ...link } = r;
  const token = newToken();
  await insert_password_reset(tx, { tokenHash: await tokenHash(token), userId: user.id, ...link });
  const email = setPasswordEmail(
    {
      to: user.email,
      token: SECRET_PLACEHOLDER,
      portalUrl: deps.config.portalUrl,
      minutes: r.minutes,
      cause: cause ?? r.purpose,
    },
    await email_language(tx, user.id),
  );
  await enqueue_email(tx, { ...email, sealedSecret: await sealEmailSecret(deps.mfaKey, token, email.to) });
}

/**
 * The forgotten-password form: an active staff account of `entity` with this address is e-mailed a link. Fails
 * only for 'password_reset_throttled' (too many requests from the client address); every other request is
 * answered alike, whether an e-mail went out or not.
 */
export async function requestPasswordReset(
  deps: Pick<AppDeps, 'sql' | 'config' | 'mfaKey'>,
  r: { email: string; entity: string; ipAddress: string },
): Promise<Outcome> {
  return await deps.sql.begin(async (tx): Promise<Outcome> => {
    await sweep_registration_throttle(tx, WINDOW_MINUTES);
    const fromAddress = await count_registration_attempt(tx, {
      kind: 'password_reset_address',
      subject: r.ipAddress,
      windowMinutes: WINDOW_MINUTES,
    });
    if (fromAddress > RESET_REQUESTS_PER_ADDRESS) return fail('password_reset_throttled');
    const entity = await find_entity_by_slug(tx, r.entity);
    const user = entity && entity.status === 'active'
      ? await find_staff_by_email(tx, entity.id, r.email.trim())
      : undefined;
    let sent = false;
    if (user?.email && user.status === 'active') {
      const toAccount = await count_registration_attempt(tx, {
        kind: 'password_reset_email',
        subject: user.id,
        windowMinutes: WINDOW_MINUTES,
      });
      if (toAccount <= RESET_EMAILS_PER_ACCOUNT) {
        await sendLink(tx, deps, { ...user, email: user.email }, {
          purpose: 'forgotten',
          createdBy: null,
          minutes: FORGOTTEN_LINK_MINUTES,
        });
        sent = true;
      }
    }
    // The address typed is not kept: it may be anyone's.
    await insert_audit_event(tx, {
      userId: user?.id ?? null,
      eventType: 'password_reset_requested',
      resourceType: 'user',
      resourceId: user?.id ?? null,
      ipAddress: r.ipAddress,
      eventData: { knownAccount: user !== undefined, sent },
    });
    return { ok: true };
  });
}

/**
 * Sets a new password from a link: once, within its lifetime, for an active staff account. The owner's other
 * sessions end, so do the sign-in steps opened with the old password, and any sign-in lock lifts; the owner is
 * told by e-mail. 'reset_link_invalid' for a used, expired or unknown link;
 * 'reset_code_throttled' past RESET_CODES_PER_ADDRESS attempts from the client address in the window.
 *
 * The link is looked up before the new password is hashed, so an unknown or used code costs one indexed read and
 * no PBKDF2: the form is open to anyone, and hashing first let any client keep the server's cores busy.
 */
export async function completePasswordReset(
  deps: Pick<AppDeps, 'sql'>,
  r: { token: string; newPassword: string; ipAddress: string },
): Promise<Outcome> {
  if (r.newPassword.length < PASSWORD_MIN_LENGTH) {
    return fail('invalid_input', REGISTRATION_MESSAGES.passwordLength);
  }
  const attempts = await count_reset_code_attempt(deps.sql, {
    ipAddress: r.ipAddress,
    windowMinutes: WINDOW_MINUTES,
  });
  if (attempts > RESET_CODES_PER_ADDRESS) return fail('reset_code_throttled');
  const hash = await tokenHash(r.token.trim());
  const link = await find_usable_password_reset(deps.sql, hash);
  if (!link) return fail('reset_link_invalid');
  // A weak password leaves the link usable for a better one: nothing is used or hashed yet.
  const strength = checkPasswordStrength(r.newPassword, {
    email: link.email,
    firstName: link.first_name,
    lastName: link.last_name,
  });
  if (!strength.ok) return strength;
  const newHash = await hashSecret(r.newPassword);
  return await deps.sql.begin(async (tx): Promise<Outcome> => {
    // Used now, atomically: of two uses at once (or a use and a newer link), one gets it.
    const used = await consume_password_reset(tx, hash);
    if (!used || used.user_id !== link.user_id) return fail('reset_link_invalid');
    const user = await lock_user(tx, used.user_id);
    if (!user) return fail('reset_link_invalid');
    await update_password(tx, user.id, newHash);
    // A sign-in's second step opened with the old password ends with the sessions.
    await revoke_user_sessions(tx, user.id);
    await end_user_challenges(tx, user.id);
    await tellOwner(tx, user, { event: 'password_changed', how: 'reset' });
    if (user.email) await reset_login_failures(tx, user.entity_id, user.email.toLowerCase());
    await insert_audit_event(tx, {
      userId: user.id,
      eventType: 'password_reset_completed',
      resourceType: 'user',
      resourceId: user.id,
      ipAddress: r.ipAddress,
      eventData: { purpose: used.purpose, ...(used.created_by ? { resetBy: used.created_by } : {}) },
    });
    return { ok: true };
  });
}

/**
 * An admin resets a staff member's password: of their own entity only (any other is 'user_not_found', as for
 * every admin route), never an offender's (their PIN has its own reset). The old password stops working, every
 * session of the owner ends, and the owner is e-mailed a link to set a new one. Audited with the admin.
 */
export async function adminResetStaffPassword(
  deps: Pick<AppDeps, 'sql' | 'config' | 'mfaKey'>,
  userId: string,
  actor: Actor,
): Promise<Outcome> {
  // Nobody knows this secret: until the owner uses the link, nothing signs in.
  const unusableHash = await hashSecret(newToken(), undefined, { patient: true });
  return await deps.sql.begin(async (tx): Promise<Outcome> => {
    const user = await lock_user(tx, userId);
    if (!user || user.entity_id !== actor.entityId || user.role === 'offender' || !user.email) {
      return fail('user_not_found');
    }
    await update_password(tx, user.id, unusableHash);
    await revoke_user_sessions(tx, user.id);
    await end_user_challenges(tx, user.id);
    await sendLink(tx, deps, { ...user, email: user.email }, {
      purpose: 'admin_reset',
      createdBy: actor.userId,
      minutes: ADMIN_LINK_MINUTES,
    });
    await insert_audit_event(tx, {
      userId: actor.userId,
      eventType: 'user_updated',
      resourceType: 'user',
      resourceId: user.id,
      ipAddress: actor.ipAddress,
      eventData: { change: 'password_reset', email: user.email, role: user.role },
    });
    return { ok: true };
  });
}

/** "Sign out of all sessions": every session of the user ends, this one included. */
export async function signOutEverywhere(
  deps: Pick<AppDeps, 'sql'>,
  session: ActiveSession,
  ipAddress: string,
): Promise<void> {
  await deps.sql.begin(async (tx) => {
    await revoke_user_sessions(tx, session.id);
    await insert_audit_event(tx, {
      userId: session.id,
      eventType: 'logout_all',
      resourceType: 'session',
      resourceId: session.session_id,
      ipAddress,
    });
  });
}
