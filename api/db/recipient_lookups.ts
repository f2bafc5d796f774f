/**
 * The recipient lookups' budget per sender, counted from their own audit rows ('recipient_lookup' within the
 * last hour): the audit is the record of every lookup anyway, and a sliding hour needs no table of its own.
 */
import { LOCK_KEYS } from './advisory_locks.ts';
import type { Tx } from './client.ts';

/**
 * Holds the sender's lookup lock until the transaction ends: their concurrent lookups count one after another,
 * so none overshoots the limit. Other senders are not held up (the lock is per sender).
 */
export async function lock_recipient_lookups(sql: Tx, senderId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(${LOCK_KEYS.recipientLookups}, hashtext(${senderId}))`;
}

/** The sender's lookups within the last hour. */
export async function count_recent_recipient_lookups(sql: Tx, senderId: string): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    select count(*)::int as n from audit_logs
    where user_id = ${senderId} and created_at > now() - interval '1 hour' and event_type = 'recipient_lookup'`;
  return row.n;
}

/** Whether the sender's refusal for the limit was already audited within the last hour. */
export async function recipient_lookup_refusal_recorded(sql: Tx, senderId: string): Promise<boolean> {
  const [row] = await sql<{ found: boolean }[]>`
    select exists (select 1 from audit_logs
      where user_id = ${senderId} and created_at > now() - interval '1 hour'
        and event_type = 'recipient_lookup_throttled') as found`;
  return row.found;
}
