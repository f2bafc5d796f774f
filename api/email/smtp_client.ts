/**
 * Sends one plain-text message through an SMTP relay with nodemailer, which does what the hand-written client
 * this replaced could not: STARTTLS (required unless told otherwise), implicit TLS on 465, AUTH, and encoding
 * that keeps every line within the RFC's limits. We keep only the policy: which TLS mode, which timeouts, and
 * which failures are worth retrying.
 */
import { rootCertificates } from 'node:tls';
import nodemailer from 'nodemailer';
import { MAILBOX_PATTERN } from '../../contract/rules/registration.ts';
import type { SmtpConfig } from '../config.ts';

/** What the settings table says (read each round, so an admin's change needs no restart). */
export interface SmtpSettings {
  host: string;
  port: number;
  from: string;
}

export interface SmtpMessage {
  to: string;
  subject: string;
  body: string;
}

export interface SendOptions {
  /** Login, TLS mode and extra CA from the environment (config.ts). */
  transport?: SmtpConfig;
  /** Connection and per-command inactivity limit, milliseconds. */
  timeoutMs?: number;
}

/**
 * An SMTP failure. `permanent` only when the relay refused this message or its addresses (5xx after MAIL,
 * RCPT or DATA): retrying cannot help. A refused login, a TLS problem or an unreachable relay are the
 * operator's to fix, so the message waits and is retried with back-off.
 */
export class SmtpError extends Error {
  constructor(message: string, readonly permanent = false) {
    super(message);
  }
}

/** Long enough for a slow relay's greeting and TLS handshake, short enough that a hung one frees the worker. */
const DEFAULT_TIMEOUT_MS = 30_000;

/** The TLS mode in force: an explicit SMTP_TLS, else implicit TLS on 465 (RFC 8314) and STARTTLS elsewhere. */
export function tlsMode(port: number, configured: SmtpConfig['tls']): 'starttls' | 'implicit' | 'none' {
  return configured ?? (port === 465 ? 'implicit' : 'starttls');
}

function transportFor(settings: SmtpSettings, options: SendOptions) {
  const config = options.transport;
  const mode = tlsMode(settings.port, config?.tls);
  const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return nodemailer.createTransport({
    host: settings.host,
    port: settings.port,
    secure: mode === 'implicit',
    // STARTTLS is required, never opportunistic: a relay that stops offering it must not get mail in clear.
    requireTLS: mode === 'starttls',
    ignoreTLS: mode === 'none',
    auth: config?.user ? { user: config.user, pass: config.password ?? '' } : undefined,
    tls: {
      minVersion: 'TLSv1.2',
      // Node's `ca` replaces the built-in roots: keep them, so a public relay is still trusted beside ours.
      ...(config?.caFile ? { ca: [...rootCertificates, Deno.readTextFileSync(config.caFile)] } : {}),
    },
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
    dnsTimeout: timeout,
    name: 'legal-mail-portal.localdomain',
  });
}

/** Why a send failed, in words for the outbox screen, and whether it is final. */
function describe(error: unknown, settings: SmtpSettings): SmtpError {
  const e = error as { code?: string; responseCode?: number; message?: string; response?: string };
  const where = `${settings.host}:${settings.port}`;
  const detail = (e.response ?? e.message ?? String(error)).replace(/\s+/g, ' ').trim();
  if (e.code === 'EAUTH') {
    return new SmtpError(`the relay ${where} refused the login (SMTP_USER/SMTP_PASSWORD): ${detail}`);
  }
  if (e.code === 'ETLS' || /certificate|STARTTLS|SSL|TLS/i.test(detail) && !e.responseCode) {
    return new SmtpError(`TLS with ${where} failed: ${detail}`);
  }
  if (e.code === 'ECONNECTION' || e.code === 'ESOCKET' || e.code === 'ETIMEDOUT' || e.code === 'EDNS') {
    return new SmtpError(`cannot connect to ${where}: ${detail}`);
  }
  // A 5xx about this message or its addresses is final; a 5.7.x (authentication required, relaying denied)
  // is the relay's policy towards us, which the operator can change, so the message waits for that.
  const policy = e.responseCode === 530 || /\b5\.7\.\d+/.test(detail);
  const refused = (e.code === 'EENVELOPE' || e.code === 'EMESSAGE') && (e.responseCode ?? 0) >= 500 &&
    !policy;
  return new SmtpError(`the relay ${where} refused the message: ${detail}`, refused);
}

/** Sends one message; resolves once the relay accepted it, throws SmtpError otherwise. */
export async function sendMail(
  settings: SmtpSettings,
  message: SmtpMessage,
  options: SendOptions = {},
): Promise<void> {
  // One mailbox and nothing else: the mail library reads `,` and `;` as separators of a list and `<>"()` as a
  // display name, so an address holding them could reach someone else (the registration rule refuses them first).
  if (!MAILBOX_PATTERN.test(settings.from)) {
    throw new SmtpError(`the sender address "${settings.from}" is not valid`, true);
  }
  if (!MAILBOX_PATTERN.test(message.to)) {
    throw new SmtpError(`the recipient address "${message.to}" is not valid`, true);
  }
  const transport = transportFor(settings, options);
  try {
    await transport.sendMail({
      from: settings.from,
      to: message.to,
      subject: message.subject,
      text: message.body,
      // Quoted-printable folds long lines (a 2,000-character rejection reason) at 76 characters and carries
      // UTF-8 through relays without 8BITMIME; the reader's mail program unfolds it.
      textEncoding: 'quoted-printable',
    });
  } catch (error) {
    throw describe(error, settings);
  } finally {
    transport.close();
  }
}

/**
 * Connects to the relay as a send would (TLS, login) and says goodbye without sending (`npm run doctor`);
 * throws SmtpError naming what failed.
 */
export async function checkRelay(settings: SmtpSettings, options: SendOptions = {}): Promise<void> {
  const transport = transportFor(settings, options);
  try {
    await transport.verify();
  } catch (error) {
    throw describe(error, settings);
  } finally {
    transport.close();
  }
}
