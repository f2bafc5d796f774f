/**
 * What a sender knows of a delivery and can do about it: who a DOC number is, before sending or as an upload
 * checks it (one budget for both, throttled and audited, so the roster cannot be scraped), withdrawing a mistake
 * before the recipient has it, and the opt-in "opened" e-mail.
 */
import { insert_audit_event } from '../db/audit.ts';
import type { Tx } from '../db/client.ts';
import {
  claim_opened_notice,
  find_active_offender,
  find_active_offenders,
  find_sent_document,
  type Recipient,
  withdraw_document,
} from '../db/documents.ts';
import { enqueue_email } from '../db/email_outbox.ts';
import {
  count_recent_recipient_lookups,
  lock_recipient_lookups,
  recipient_lookup_refusal_recorded,
} from '../db/recipient_lookups.ts';
import { get_setting } from '../db/settings.ts';
import type { ActiveSession } from '../db/sessions.ts';
import { email_language } from '../db/users.ts';
import { documentOpenedEmail } from '../email/messages.ts';
import { emailDate } from '../email/texts.ts';
import type { AppDeps } from '../deps.ts';
import type { RecipientPreview } from '../../contract/shapes/recipient.ts';
import { fail, type Outcome } from './outcome.ts';

/** Longest DOC number an audit event keeps (the column allows 32; the URL is the client's). */
const AUDITED_DOC_LENGTH = 40;

/**
 * How a recipient is shown to a sender: the last name in capitals, a comma and the first name's initial
 * ("SMITH, J."). A last name of several words or with a particle keeps them all ("DE LA CRUZ, M."); one name
 * alone (the other blank) is shown alone ("MADONNA"). Never the whole first name: the roster shows only what
 * confirms the sender typed the right number.
 */
export function displayName(first: string, last: string): string {
  const lastName = last.trim().replace(/\s+/g, ' ').toLocaleUpperCase('en-US');
  const firstName = first.trim();
  // The first character as a person reads it (a code point, not half of a surrogate pair).
  const initial = Array.from(firstName)[0]?.toLocaleUpperCase('en-US') ?? '';
  if (lastName && initial) return `${lastName}, ${initial}.`;
  return lastName || firstName.replace(/\s+/g, ' ').toLocaleUpperCase('en-US');
}

export type LookupResult = Outcome<{ recipient: RecipientPreview }>;

/**
 * Spends `count` of the sender's lookups, or refuses: at most `recipient_lookup_limit_per_hour` in any hour,
 * counted from their 'recipient_lookup' audit rows, which the caller writes in the same transaction (one per DOC
 * number it checks). Call it first in that transaction: it takes the sender's lock, so concurrent lookups and
 * uploads count one after another and none overshoots. A refusal spends nothing and is audited
 * 'recipient_lookup_throttled' once an hour (`docNumber` the first asked, `via` where it was asked when not the
 * lookup itself); the rest of a scraping run writes nothing.
 */
async function spendLookups(
  tx: Tx,
  sender: ActiveSession,
  request: { count: number; limit: number; docNumber: string; ipAddress: string; via?: 'upload' },
): Promise<boolean> {
  await lock_recipient_lookups(tx, sender.id);
  if (await count_recent_recipient_lookups(tx, sender.id) + request.count <= request.limit) return true;
  if (!(await recipient_lookup_refusal_recorded(tx, sender.id))) {
    await insert_audit_event(tx, {
      userId: sender.id,
      eventType: 'recipient_lookup_throttled',
      resourceType: 'user',
      ipAddress: request.ipAddress,
      eventData: { docNumber: request.docNumber, limit: request.limit, ...viaOf(request) },
    });
  }
  return false;
}

const viaOf = (request: { via?: 'upload' }) => (request.via ? { via: request.via } : {});

/** One checked DOC number's audit row ('recipient_lookup'): the number asked and whether it was found. */
async function auditLookup(
  tx: Tx,
  sender: ActiveSession,
  request: { docNumber: string; found?: Recipient; ipAddress: string; via?: 'upload' },
): Promise<void> {
  await insert_audit_event(tx, {
    userId: sender.id,
    eventType: 'recipient_lookup',
    resourceType: 'user',
    resourceId: request.found?.id ?? null,
    ipAddress: request.ipAddress,
    eventData: {
      docNumber: request.docNumber.trim().slice(0, AUDITED_DOC_LENGTH),
      found: request.found !== undefined,
      ...viaOf(request),
    },
  });
}

/**
 * GET /api/recipients/{docNumber}: the active offender of the sender's own entity with this DOC number, or
 * 'recipient_not_found' (unknown, deactivated, released, transferred or another entity's: one answer). At most
 * `recipient_lookup_limit_per_hour` lookups per sender in any hour, shared with the recipients their uploads
 * check (findUploadRecipients); 'recipient_lookup_throttled' past it, audited once per hour. Each lookup is
 * audited ('recipient_lookup' with the number asked and whether it was found). The count, the lookup and its
 * audit row share one transaction under a per-sender lock, so concurrent lookups cannot overshoot the limit.
 */
export async function lookupRecipient(
  deps: Pick<AppDeps, 'sql'>,
  sender: ActiveSession,
  request: { docNumber: string; ipAddress: string },
): Promise<LookupResult> {
  const limit = await get_setting(deps.sql, 'recipient_lookup_limit_per_hour');
  const asked = request.docNumber.trim().slice(0, AUDITED_DOC_LENGTH);
  return await deps.sql.begin(async (tx): Promise<LookupResult> => {
    const spent = await spendLookups(tx, sender, {
      count: 1,
      limit,
      docNumber: asked,
      ipAddress: request.ipAddress,
    });
    if (!spent) return fail('recipient_lookup_throttled');
    const found = /^[A-Za-z0-9-]{1,32}$/.test(request.docNumber.trim())
      ? await find_active_offender(tx, sender.entity_id, request.docNumber.trim())
      : undefined;
    await auditLookup(tx, sender, { docNumber: asked, found, ipAddress: request.ipAddress });
    if (!found) return fail('recipient_not_found');
    return {
      ok: true,
      recipient: { docNumber: found.doc_number, displayName: displayName(found.first_name, found.last_name) },
    };
  });
}

/**
 * An upload's recipients, checked as lookups are: each distinct DOC number spends one of the sender's lookups
 * (the same budget as GET /api/recipients) and is audited 'recipient_lookup' with `via: 'upload'`, found or not.
 * All or none: when the numbers do not all fit in what is left of the hour's budget, none is looked at and the
 * answer is 'recipient_lookup_throttled' (audited as the lookup's refusal). Otherwise the recipients in the order
 * given, or 'upload_no_offender' naming every number that is not an active offender of the sender's entity
 * (the sender must know which to fix; the budget bounds what that tells a prober). The checks' audit rows stay
 * whatever the upload's outcome.
 */
export async function findUploadRecipients(
  deps: Pick<AppDeps, 'sql'>,
  sender: ActiveSession,
  request: { docNumbers: string[]; ipAddress: string },
): Promise<Outcome<{ recipients: Recipient[] }>> {
  const wanted = [...new Set(request.docNumbers)];
  const limit = await get_setting(deps.sql, 'recipient_lookup_limit_per_hour');
  return await deps.sql.begin(async (tx): Promise<Outcome<{ recipients: Recipient[] }>> => {
    const spent = await spendLookups(tx, sender, {
      count: wanted.length,
      limit,
      docNumber: (wanted[0] ?? '').slice(0, AUDITED_DOC_LENGTH),
      ipAddress: request.ipAddress,
      via: 'upload',
    });
    if (!spent) return fail('recipient_lookup_throttled');
    const found = new Map(
      (await find_active_offenders(tx, sender.entity_id, wanted)).map((r) => [r.doc_number, r]),
    );
    for (const docNumber of wanted) {
      await auditLookup(tx, sender, {
        docNumber,
        found: found.get(docNumber),
        ipAddress: request.ipAddress,
        via: 'upload',
      });
    }
    const unknown = wanted.filter((number) => !found.has(number));
    if (unknown.length > 0) return fail('upload_no_offender', unknown.join(', '));
    return { ok: true, recipients: wanted.map((number) => found.get(number)!) };
  });
}

/** The date a refusal names, as the senders' lists show dates ('Jan 5, 2025', UTC). */
export function usDate(at: Date): string {
  return new Intl.DateTimeFormat('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  })
    .format(at);
}

/**
 * POST /api/documents/{id}/withdraw: the sender, or the supervising attorney recorded on the document, takes it
 * back before the recipient has it. From then on it is in no list of the recipient's, every read of it is a 404,
 * its bytes are collected, and its sender's list shows it Withdrawn. Refused once the recipient read or printed it
 * ('document_already_opened' with the date) or their tablet fetched it ahead ('document_already_fetched': the
 * copy on the tablet could not be taken back). Anyone else, and a document deleted or past retention, gets
 * 'document_not_found'.
 */
export async function withdrawDocument(
  deps: Pick<AppDeps, 'sql'>,
  actor: Pick<ActiveSession, 'id' | 'role'>,
  request: { id: string; ipAddress: string },
): Promise<Outcome<{ withdrawnAt: Date }>> {
  const { sql } = deps;
  const id = request.id.toLowerCase();
  if (actor.role !== 'attorney' && actor.role !== 'representative') return fail('document_not_found');
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)) {
    return fail('document_not_found');
  }
  const doc = await find_sent_document(sql, id);
  if (!doc || (doc.sender_id !== actor.id && doc.supervising_attorney_id !== actor.id)) {
    return fail('document_not_found');
  }
  if (doc.deleted_at) return fail('document_not_found');
  return await sql.begin(async (tx): Promise<Outcome<{ withdrawnAt: Date }>> => {
    const result = await withdraw_document(tx, doc.id, actor.id);
    switch (result.outcome) {
      case 'withdrawn':
        await insert_audit_event(tx, {
          userId: actor.id,
          eventType: 'document_withdrawn',
          resourceType: 'document',
          resourceId: doc.id,
          ipAddress: request.ipAddress,
          eventData: {
            title: doc.title,
            sha256: doc.sha256,
            recipient_doc_number: doc.recipient_doc_number,
            senderId: doc.sender_id,
            bySupervisingAttorney: actor.id !== doc.sender_id,
          },
        });
        return { ok: true, withdrawnAt: result.withdrawn_at };
      case 'opened':
        return fail('document_already_opened', usDate(result.at));
      case 'prefetched':
        return fail('document_already_fetched', usDate(result.at));
      case 'already_withdrawn':
        return fail('document_already_withdrawn');
      case 'missing':
        return fail('document_not_found');
    }
  });
}

/**
 * Inside the transaction that recorded a document's first reading: queues its sender's "opened" e-mail when they
 * turned it on and none went out for this document before (claim_opened_notice decides, once).
 */
export async function queueOpenedNotice(tx: Tx, documentId: string): Promise<void> {
  const notice = await claim_opened_notice(tx, documentId);
  if (!notice) return;
  const language = await email_language(tx, notice.sender_id);
  await enqueue_email(
    tx,
    documentOpenedEmail({ ...notice, openedOn: emailDate(notice.viewed_at, language) }, language),
  );
}
