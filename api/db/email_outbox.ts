/**
 * The e-mail outbox: messages are written in the transaction of the change they announce and delivered later
 * by the worker (api/email/worker.ts). Claiming takes a lease (next_attempt_at pushed forward) under
 * `for update skip locked`, so several API instances never send the same message twice, and a message whose
 * sender died mid-delivery is retried once its lease runs out.
 */
import type { Tx } from './client.ts';

export interface OutgoingEmail {
  kind: string;
  to: string;
  subject: string;
  body: string;
  /** A secret the body's placeholder stands for, sealed (api/email/sealed_secret.ts): never stored in clear. */
  sealedSecret?: Uint8Array;
}

export interface OutboxRow {
  id: string;
  created_at: Date;
  kind: string;
  to_address: string;
  subject: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  next_attempt_at: Date;
  last_error: string | null;
  sent_at: Date | null;
}

export interface ClaimedEmail {
  id: string;
  to_address: string;
  subject: string;
  body: string;
  sealed_secret: Uint8Array | null;
  attempts: number;
}

/** Queues one message; call it inside the transaction of the change it announces. */
export async function enqueue_email(sql: Tx, email: OutgoingEmail): Promise<void> {
  await sql`
    insert into email_outbox (kind, to_address, subject, body, sealed_secret)
    values (${email.kind}, ${email.to}, ${email.subject}, ${email.body}, ${email.sealedSecret ?? null})`;
}

/**
 * Claims up to `limit` due messages for `leaseSeconds`, counting the attempt now (so a crash mid-send still
 * counts). Returns them with the attempt number they are on.
 */
export function claim_due_emails(
  sql: Tx,
  options: { limit: number; leaseSeconds: number },
): Promise<ClaimedEmail[]> {
  // UPDATE ... RETURNING has no order: the CTE puts messages back in queue order (received before approved).
  return sql<ClaimedEmail[]>`
    with claimed as (
      update email_outbox o
      set attempts = o.attempts + 1, next_attempt_at = now() + make_interval(secs => ${options.leaseSeconds})
      where o.id in (
        select id from email_outbox
        where status = 'pending' and next_attempt_at <= now()
        order by next_attempt_at, id
        limit ${options.limit}
        for update skip locked
      )
      returning o.id, o.to_address, o.subject, o.body, o.sealed_secret, o.attempts
    )
    select id::text as id, to_address, subject, body, sealed_secret, attempts from claimed order by id`;
}

/**
 * Renews this round's claim on one message just before it is sent: true when it is still ours (still pending, on
 * the attempt we claimed). A round sends its messages one by one, each up to a slow relay's timeouts, so the
 * lease taken for the batch may have run out and another instance claimed the message (it would be sent twice).
 */
export async function renew_email_claim(
  sql: Tx,
  claim: { id: string; attempts: number },
  leaseSeconds: number,
): Promise<boolean> {
  const rows = await sql`
    update email_outbox set next_attempt_at = now() + make_interval(secs => ${leaseSeconds})
    where id = ${claim.id} and status = 'pending' and attempts = ${claim.attempts}
    returning id`;
  return rows.length === 1;
}

/** The queued messages' sealed secrets, locked for a rotation of the key they are sealed under. */
export function lock_sealed_email_secrets(
  sql: Tx,
): Promise<{ id: string; to_address: string; sealed_secret: Uint8Array }[]> {
  return sql<{ id: string; to_address: string; sealed_secret: Uint8Array }[]>`
    select id::text as id, to_address, sealed_secret from email_outbox
    where sealed_secret is not null order by id for update`;
}

/** A queued message's secret sealed again (under a new key). */
export async function update_email_secret(sql: Tx, id: string, sealed: Uint8Array): Promise<void> {
  await sql`update email_outbox set sealed_secret = ${sealed} where id = ${id}`;
}

/** Records a delivery; a secret the message carried is dropped: it now lives in the recipient's mailbox only. */
export async function mark_email_sent(sql: Tx, id: string): Promise<void> {
  await sql`
    update email_outbox set status = 'sent', sent_at = now(), last_error = null, sealed_secret = null
    where id = ${id}`;
}

/**
 * Records a failed attempt: retried after `retryInSeconds`, or given up (status failed) when that is null, and
 * then a secret it carried is dropped (nobody will send it).
 */
export async function mark_email_failed(
  sql: Tx,
  id: string,
  failure: { error: string; retryInSeconds: number | null },
): Promise<void> {
  const error = failure.error.slice(0, 1000);
  if (failure.retryInSeconds === null) {
    await sql`
      update email_outbox set status = 'failed', last_error = ${error}, sealed_secret = null where id = ${id}`;
  } else {
    await sql`
      update email_outbox set last_error = ${error}, next_attempt_at = now() + make_interval(secs => ${failure.retryInSeconds})
      where id = ${id}`;
  }
}

/** The newest messages first, without their bodies (which may hold personal details). */
export function list_outbox(
  sql: Tx,
  options: { status?: OutboxRow['status']; limit: number },
): Promise<OutboxRow[]> {
  return sql<OutboxRow[]>`
    select id::text as id, created_at, kind, to_address, subject, status, attempts, next_attempt_at, last_error, sent_at
    from email_outbox
    ${options.status ? sql`where status = ${options.status}` : sql``}
    order by created_at desc, id desc
    limit ${options.limit}`;
}

/** The outbox's state for the operator's metrics: messages by status, and the age of the oldest one waiting. */
export async function count_outbox_backlog(sql: Tx): Promise<{
  pending: number;
  retrying: number;
  failed: number;
  oldestPendingSeconds: number;
}> {
  const [row] = await sql<{ pending: number; retrying: number; failed: number; oldest: number | null }[]>`
    select count(*) filter (where status = 'pending')::int as pending,
           count(*) filter (where status = 'pending' and attempts > 0)::int as retrying,
           count(*) filter (where status = 'failed')::int as failed,
           extract(epoch from now() - min(created_at) filter (where status = 'pending'))::float8 as oldest
    from email_outbox where status <> 'sent'`;
  return {
    pending: row.pending,
    retrying: row.retrying,
    failed: row.failed,
    oldestPendingSeconds: row.oldest ?? 0,
  };
}
