/**
 * Delivers the e-mail outbox over SMTP. Reads the email settings fresh on every round, so enabling SMTP or
 * changing the host takes effect without a restart; while SMTP is disabled or has no host, messages wait.
 * A failed attempt is retried with exponential back-off (30 s, 1 min, 2 min … capped at 1 hour); after
 * MAX_ATTEMPTS, or at once when the relay refuses the message itself (5xx to its addresses or content), the
 * message is marked failed with its last error. A refused login or a TLS failure is not final: the message waits
 * with the reason in the outbox screen until the operator fixes the relay's settings.
 *
 * A message that carries a secret (a set-password code) holds it sealed (sealed_secret.ts): it is opened here,
 * put in place of the body's placeholder for the relay alone, and dropped from the row once sent.
 */
import type { Sql } from '../db/client.ts';
import {
  claim_due_emails,
  type ClaimedEmail,
  mark_email_failed,
  mark_email_sent,
  renew_email_claim,
} from '../db/email_outbox.ts';
import type { SmtpConfig } from '../config.ts';
import type { Logger } from '../log.ts';
import { list_settings } from '../db/settings.ts';
import { openEmailSecret, SECRET_PLACEHOLDER } from './sealed_secret.ts';
import { sendMail, SmtpError, type SmtpSettings } from './smtp_client.ts';

/** Ten attempts with the default back-off span about four and a half hours: a relay outage of an afternoon. */
export const MAX_ATTEMPTS = 10;

export interface DeliveryOptions {
  /** First retry delay; doubled on each further attempt. */
  backoffBaseSeconds?: number;
  backoffMaxSeconds?: number;
  maxAttempts?: number;
  /** Messages per round. */
  batch?: number;
  /** How long a claimed message is reserved for this sender before another may retry it. */
  leaseSeconds?: number;
  smtpTimeoutMs?: number;
  /** Login, TLS mode and CA from the environment (config.smtp). */
  transport?: SmtpConfig;
  /** Where sends and failures are reported (by outbox id: addresses stay out of the log). */
  logger?: Logger;
  /** The key a message's secret is sealed under (AppDeps.mfaKey): without it such a message cannot be sent. */
  secretKey?: Uint8Array;
}

/** A claimed message's body as the relay gets it: its sealed secret, if any, in place of the placeholder. */
export async function bodyForRelay(email: ClaimedEmail, key: Uint8Array | undefined): Promise<string> {
  if (!email.sealed_secret) return email.body;
  const secret = key && await openEmailSecret(key, new Uint8Array(email.sealed_secret), email.to_address);
  // Permanent: a key that changed (MFA_SECRET_KEY rotated) will not open it on a later attempt either.
  if (!secret) throw new SmtpError('The code this message carries cannot be opened with this key.', true);
  return email.body.replaceAll(SECRET_PLACEHOLDER, secret);
}

/** The SMTP settings, or null when e-mail is disabled or not configured. */
export async function readSmtpSettings(sql: Sql): Promise<SmtpSettings | null> {
  const values = new Map((await list_settings(sql)).map((s) => [s.key, s.value.value]));
  const host = String(values.get('smtp_host') ?? '').trim();
  if (values.get('smtp_enabled') !== true || !host) return null;
  const port = Number(values.get('smtp_port') ?? 25);
  return {
    host,
    port: Number.isInteger(port) && port > 0 && port < 65536 ? port : 25,
    from: String(values.get('smtp_from') ?? ''),
  };
}

/** The delay before retry number `attempt + 1`. */
export function backoffSeconds(attempt: number, base = 30, max = 3600): number {
  return Math.min(max, base * 2 ** Math.max(0, attempt - 1));
}

/** One round: claims the due messages and tries each once. Returns how many were sent and how many failed. */
export async function deliverDueEmails(
  sql: Sql,
  options: DeliveryOptions = {},
): Promise<{ sent: number; failed: number }> {
  const smtp = await readSmtpSettings(sql);
  if (!smtp) return { sent: 0, failed: 0 };
  const maxAttempts = options.maxAttempts ?? MAX_ATTEMPTS;
  const leaseSeconds = options.leaseSeconds ?? 300;
  const claimed = await claim_due_emails(sql, { limit: options.batch ?? 20, leaseSeconds });
  let sent = 0;
  let failed = 0;
  for (const email of claimed) {
    // Another instance took it over after this batch's lease ran out: it is theirs to send, once.
    if (!(await renew_email_claim(sql, email, leaseSeconds))) continue;
    try {
      const body = await bodyForRelay(email, options.secretKey);
      await sendMail(smtp, { to: email.to_address, subject: email.subject, body }, {
        transport: options.transport,
        timeoutMs: options.smtpTimeoutMs,
      });
      await mark_email_sent(sql, email.id);
      options.logger?.info('e-mail sent', { email_id: email.id, attempt: email.attempts });
      sent++;
    } catch (error) {
      failed++;
      const permanent = error instanceof SmtpError && error.permanent;
      const giveUp = permanent || email.attempts >= maxAttempts;
      const reason = error instanceof Error ? error.message : String(error);
      const retryInSeconds = giveUp
        ? null
        : backoffSeconds(email.attempts, options.backoffBaseSeconds, options.backoffMaxSeconds);
      await mark_email_failed(sql, email.id, { error: reason, retryInSeconds });
      options.logger?.warn(giveUp ? 'e-mail failed for good' : 'e-mail not sent, will retry', {
        email_id: email.id,
        attempt: email.attempts,
        retry_in_s: retryInSeconds,
        error: reason,
      });
    }
  }
  return { sent, failed };
}

/** Polls the outbox every `intervalMs` until stopped. Errors (a database hiccup) are logged, not fatal. */
export function startEmailWorker(
  sql: Sql,
  options: DeliveryOptions & { intervalMs?: number; log?: boolean } = {},
): { stop(): Promise<void> } {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();
  const round = () => {
    running = (async () => {
      try {
        await deliverDueEmails(sql, options);
      } catch (error) {
        if (options.log === false) { /* a test that expects failures */ }
        else if (options.logger) {
          options.logger.error('e-mail delivery round failed', { error: (error as Error).message });
        } else console.error('[email] delivery round failed:', (error as Error).message);
      }
      if (!stopped) timer = setTimeout(round, options.intervalMs ?? 5000);
    })();
  };
  timer = setTimeout(round, options.intervalMs ?? 5000);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
