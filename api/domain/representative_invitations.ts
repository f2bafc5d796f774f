/**
 * An attorney invites a representative: the invited address is e-mailed a single-use registration link, valid
 * INVITATION_DAYS, that fills in the inviting attorney as supervisor on the registration form. The representative
 * still registers and is approved as every registrant is; approval links them to the inviting attorney already
 * accepted, since the attorney asked for them (docs/product.md). Only the link's SHA-256 is stored (the code
 * itself rests sealed in the outbox until sent), and the link works for the invited address only.
 */
import type { AppDeps } from '../deps.ts';
import { insert_audit_event } from '../db/audit.ts';
import type { Tx } from '../db/client.ts';
import { enqueue_email } from '../db/email_outbox.ts';
import {
  consume_invitation,
  count_recent_invitations,
  find_usable_invitation,
  insert_invitation,
  lock_inviting_attorney,
  type UsableInvitation,
} from '../db/representative_invitations.ts';
import { email_language } from '../db/users.ts';
import { representativeInvitationEmail } from '../email/messages.ts';
import { sealEmailSecret, SECRET_PLACEHOLDER } from '../email/sealed_secret.ts';
import { fail, type Outcome } from './outcome.ts';
import { newToken, tokenHash } from './password_reset.ts';

/** How long an invitation's link works: a week leaves the representative a weekend and a working week. */
export const INVITATION_DAYS = 7;

/**
 * Invitations one attorney may send a day. A practice invites a few people at a time; the limit keeps an attorney's
 * account (or whoever holds its session) from becoming a way to mail any address from the department's relay.
 */
export const INVITATIONS_PER_DAY = 10;
const DAY_MINUTES = 24 * 60;

/** Sends the invitation e-mail; 'invitation_throttled' past INVITATIONS_PER_DAY. Audited `representative_invited`. */
export async function inviteRepresentative(
  deps: Pick<AppDeps, 'sql' | 'config' | 'mfaKey'>,
  attorney: { id: string; first_name: string; last_name: string },
  r: { email: string; ipAddress: string },
): Promise<Outcome> {
  const address = r.email.trim().toLowerCase();
  const token = newToken();
  const hash = await tokenHash(token);
  return await deps.sql.begin(async (tx): Promise<Outcome> => {
    // Counted under the attorney's row lock: two invitations at once cannot both pass the last slot.
    await lock_inviting_attorney(tx, attorney.id);
    const sent = await count_recent_invitations(tx, attorney.id, DAY_MINUTES);
    if (sent >= INVITATIONS_PER_DAY) return fail('invitation_throttled');
    await insert_invitation(tx, {
      tokenHash: hash,
      attorneyId: attorney.id,
      email: address,
      minutes: INVITATION_DAYS * DAY_MINUTES,
    });
    // The code rests sealed beside the message, as a set-password code does (api/email/sealed_secret.ts).
    const email = representativeInvitationEmail({
      to: address,
      token: SECRET_PLACEHOLDER,
      attorneyName: `${attorney.first_name} ${attorney.last_name}`.trim(),
      portalUrl: deps.config.portalUrl,
      days: INVITATION_DAYS,
    }, await email_language(tx, attorney.id));
    await enqueue_email(tx, { ...email, sealedSecret: await sealEmailSecret(deps.mfaKey, token, email.to) });
    await insert_audit_event(tx, {
      userId: attorney.id,
      eventType: 'representative_invited',
      resourceType: 'user',
      resourceId: attorney.id,
      ipAddress: r.ipAddress,
      eventData: { email: address, days: INVITATION_DAYS },
    });
    return { ok: true };
  });
}

/**
 * The invitation a registration names, while it is usable and for this address; undefined otherwise (the caller
 * refuses with 'invitation_invalid'). Uses nothing: `spendInvitation` does, in the registration's transaction.
 */
export async function invitationFor(
  sql: Tx,
  r: { token: string; email: string; entityId: string },
): Promise<UsableInvitation | undefined> {
  const found = await find_usable_invitation(sql, {
    tokenHash: await tokenHash(r.token.trim()),
    entityId: r.entityId,
  });
  return found && found.email === r.email.trim().toLowerCase() ? found : undefined;
}

/** Uses the invitation once, atomically: false when another registration used it first or it just expired. */
export async function spendInvitation(tx: Tx, r: { token: string; entityId: string }): Promise<boolean> {
  return (await consume_invitation(tx, {
    tokenHash: await tokenHash(r.token.trim()),
    entityId: r.entityId,
  })) !==
    undefined;
}
