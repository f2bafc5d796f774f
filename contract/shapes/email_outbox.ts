/** A queued, sent or failed e-mail, without its body (GET /api/admin/email-outbox `data.emails`). */

export type OutboxStatus = 'pending' | 'sent' | 'failed';

export interface OutboxEmail {
  id: string;
  /** ISO 8601. */
  created_at: string;
  kind: string;
  to_address: string;
  subject: string;
  status: OutboxStatus;
  attempts: number;
  /** ISO 8601. */
  next_attempt_at: string;
  last_error: string | null;
  /** ISO 8601. */
  sent_at: string | null;
}

/** GET /api/admin/email-outbox answer. */
export interface OutboxEmailListAnswer {
  success: true;
  data: { emails: OutboxEmail[] };
}
