/**
 * A representative's supervising attorney. Approval proposes the one active attorney whose bar number, bar
 * state and e-mail all match what the representative typed; the link shares nothing until that attorney accepts
 * it in their portal, and either side of it can be ended by the attorney (Remove). What is shared is decided per
 * document when it is sent (documents.supervising_attorney_id, api/db/documents.ts), so changing or ending a
 * link never changes who reads mail already sent.
 */
import { insert_audit_event } from '../db/audit.ts';
import type { Tx } from '../db/client.ts';
import * as links from '../db/representatives.ts';
import type { AppDeps } from '../deps.ts';
import type { LinkedRepresentative } from '../../contract/shapes/representative.ts';
import { fail, type Outcome } from './outcome.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The attorney acting on their Representatives list. */
export interface Supervisor {
  id: string;
}

/** The list row of one representative. */
export function toLinkedRepresentative(row: links.LinkedRepresentativeRow): LinkedRepresentative {
  return {
    id: row.id,
    name: `${row.first_name} ${row.last_name}`.trim(),
    email: row.email,
    bar_number: row.bar_number,
    bar_state: row.bar_state,
    link_status: row.supervisor_accepted_at ? 'accepted' : 'pending',
    account_status: row.status,
    proposed_at: row.supervisor_proposed_at ? new Date(row.supervisor_proposed_at).toISOString() : null,
    accepted_at: row.supervisor_accepted_at ? new Date(row.supervisor_accepted_at).toISOString() : null,
  };
}

/** The representatives who named this attorney, pending first. */
export async function listRepresentatives(
  deps: Pick<AppDeps, 'sql'>,
  attorney: Supervisor,
): Promise<LinkedRepresentative[]> {
  return (await links.list_representatives_of(deps.sql, attorney.id)).map(toLinkedRepresentative);
}

/**
 * Proposes `attorneyId` as the representative's supervisor (pending), with its audit event, inside the caller's
 * transaction (the approval's).
 */
export async function proposeSupervisor(
  tx: Tx,
  link: { representativeId: string; attorneyId: string },
  by: { userId: string; ipAddress: string; registrationId?: string },
): Promise<void> {
  await links.propose_supervisor(tx, link.representativeId, link.attorneyId);
  await insert_audit_event(tx, {
    userId: by.userId,
    eventType: 'representative_link_proposed',
    resourceType: 'user',
    resourceId: link.representativeId,
    ipAddress: by.ipAddress,
    eventData: { attorneyId: link.attorneyId, registrationId: by.registrationId ?? null },
  });
}

/**
 * The attorney accepts a representative who named them: from now on the documents that representative sends
 * are shared with the attorney. Accepting an accepted link changes nothing. Anyone not linked to this attorney
 * is `representative_not_found`, like an id that does not exist.
 */
export async function acceptRepresentative(
  deps: Pick<AppDeps, 'sql'>,
  attorney: Supervisor,
  options: { representativeId: string; ipAddress: string },
): Promise<Outcome<{ representative: LinkedRepresentative }>> {
  if (!UUID.test(options.representativeId)) return fail('representative_not_found');
  const id = options.representativeId.toLowerCase();
  return await deps.sql.begin(async (tx): Promise<Outcome<{ representative: LinkedRepresentative }>> => {
    const row = await links.lock_representative_of(tx, attorney.id, id);
    if (!row) return fail('representative_not_found');
    if (row.supervisor_accepted_at) return { ok: true, representative: toLinkedRepresentative(row) };
    const acceptedAt = await links.accept_supervisor(tx, id);
    await insert_audit_event(tx, {
      userId: attorney.id,
      eventType: 'representative_link_accepted',
      resourceType: 'user',
      resourceId: id,
      ipAddress: options.ipAddress,
      eventData: { attorneyId: attorney.id, email: row.email },
    });
    return {
      ok: true,
      representative: toLinkedRepresentative({ ...row, supervisor_accepted_at: acceptedAt }),
    };
  });
}

/**
 * The attorney removes a representative (declines a pending link or ends an accepted one): the representative
 * works alone from now on. Documents already shared with the attorney stay readable by them: a document's
 * readers are fixed when it is sent.
 */
export async function removeRepresentative(
  deps: Pick<AppDeps, 'sql'>,
  attorney: Supervisor,
  options: { representativeId: string; ipAddress: string },
): Promise<Outcome> {
  if (!UUID.test(options.representativeId)) return fail('representative_not_found');
  const id = options.representativeId.toLowerCase();
  return await deps.sql.begin(async (tx): Promise<Outcome> => {
    const row = await links.lock_representative_of(tx, attorney.id, id);
    if (!row) return fail('representative_not_found');
    await links.remove_supervisor(tx, id);
    await insert_audit_event(tx, {
      userId: attorney.id,
      eventType: 'representative_link_removed',
      resourceType: 'user',
      resourceId: id,
      ipAddress: options.ipAddress,
      eventData: {
        attorneyId: attorney.id,
        email: row.email,
        wasAccepted: row.supervisor_accepted_at !== null,
      },
    });
    return { ok: true };
  });
}
