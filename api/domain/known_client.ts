/**
 * Which sign-ins take the password-hashing gate's priority line (api/domain/hashing_gate.ts): those very likely
 * a returning person's, as OWASP's "device cookies" trust a client that has signed in before, but told from the
 * request alone so no client needs changing. A sign-in is known when
 *
 *  - a session was opened from its address in the last KNOWN_ADDRESS_DAYS days: someone proved a secret from
 *    there (and passed the second factor, where there is one), which a stranger flooding from fresh addresses
 *    has not; or
 *  - it is a DOC number's, from inside an active range of the entity it names: the facility's own network, the
 *    only place an offender signs in from.
 *
 * Neither depends on whether the username exists, so being known tells nothing about an account; and neither
 * lifts any budget or lock: a known address that floods is held by the sign-in's per-address in-flight limit
 * and failure budget, as any other. Not known, so no better off than before: a person signing in for the first
 * time from a new address (a new attorney, a phone on a new network).
 */
import type { Tx } from '../db/client.ts';
import { find_known_client } from '../db/sessions.ts';
import { inActiveRanges } from '../../contract/rules/ip_ranges.ts';

/**
 * How long a session's address stays known: 30 days, so a person who signs in about monthly (an attorney
 * between hearings) is still known at the next visit, while an address people have left (a home's dynamic
 * address, handed to someone else) stops counting within a month.
 */
export const KNOWN_ADDRESS_DAYS = 30;

/** Whether a sign-in is very likely a returning person's (one query, sessions_ip_address_created_idx). */
export async function isKnownClient(
  sql: Tx,
  attempt: { entity: string; username: string; ipAddress: string },
): Promise<boolean> {
  // A DOC number: staff sign in with an e-mail address, which a DOC number cannot hold (as sign-in decides).
  const docNumber = !attempt.username.trim().includes('@');
  const found = await find_known_client(sql, {
    ipAddress: attempt.ipAddress,
    days: KNOWN_ADDRESS_DAYS,
    entitySlug: docNumber ? attempt.entity : null,
  });
  return found.signedInBefore || inActiveRanges(found.entityRanges, attempt.ipAddress);
}
