/**
 * A small SMTP client (RFC 5321) on Deno.connect: EHLO (HELO as fallback), MAIL FROM, RCPT TO, DATA with
 * dot-stuffing and CRLF line ends, QUIT. Plain text UTF-8 messages to one recipient.
 *
 * Not supported: STARTTLS and AUTH. Point smtp_host at a relay reachable on a trusted network (a local
 * Postfix or the agency's internal relay accepting mail from this host), which then handles TLS onwards.
 */

export interface SmtpSettings {
  host: string;
  port: number;
  from: string;
  /** Per command, milliseconds. */
  timeoutMs?: number;
}

export interface SmtpMessage {
  to: string;
  subject: string;
  body: string;
}

/** An SMTP failure; `permanent` when the server answered 5xx (retrying will not help). */
export class SmtpError extends Error {
  constructor(message: string, readonly permanent = false) {
    super(message);
  }
}

const ADDRESS = /^[^\s<>@]+@[^\s<>@]+$/;
const encoder = new TextEncoder();

/** A header value on one line: CR and LF removed (no header injection), non-ASCII as an RFC 2047 word. */
export function headerValue(value: string): string {
  const line = value.replace(/[\r\n]+/g, ' ');
  if (/^[\x20-\x7e]*$/.test(line)) return line;
  const bytes = encoder.encode(line);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return `=?UTF-8?B?${btoa(binary)}?=`;
}

/**
 * The DATA payload: headers, blank line, body with CRLF line ends and every line starting with a dot
 * doubled (RFC 5321 4.5.2), ended by CRLF.CRLF.
 */
export function formatMessage(from: string, message: SmtpMessage, now = new Date()): string {
  const domain = from.split('@')[1] ?? 'localhost';
  const headers = [
    `From: ${headerValue(from)}`,
    `To: ${headerValue(message.to)}`,
    `Subject: ${headerValue(message.subject)}`,
    `Date: ${now.toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: <${crypto.randomUUID()}@${domain}>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
  ];
  const body = message.body.replace(/\r\n|\r|\n/g, '\r\n').split('\r\n')
    .map((line) => (line.startsWith('.') ? `.${line}` : line)).join('\r\n');
  return `${headers.join('\r\n')}\r\n\r\n${body}\r\n.\r\n`;
}

/** Reads SMTP replies (multi-line "250-..." continued until "250 ...") from a connection. */
class ReplyReader {
  #buffer = '';
  #decoder = new TextDecoder();
  constructor(private conn: Deno.Conn, private timeoutMs: number) {}

  async #line(): Promise<string> {
    while (true) {
      const end = this.#buffer.indexOf('\r\n');
      if (end >= 0) {
        const line = this.#buffer.slice(0, end);
        this.#buffer = this.#buffer.slice(end + 2);
        return line;
      }
      const chunk = new Uint8Array(4096);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const n = await Promise.race([
        this.conn.read(chunk),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new SmtpError('the SMTP server did not answer in time')),
            this.timeoutMs,
          );
        }),
      ]).finally(() => clearTimeout(timer));
      if (n === null) throw new SmtpError('the SMTP server closed the connection');
      this.#buffer += this.#decoder.decode(chunk.subarray(0, n), { stream: true });
      if (this.#buffer.length > 64 * 1024) throw new SmtpError('the SMTP server sent an over-long reply');
    }
  }

  /** The next complete reply: its code and text. */
  async reply(): Promise<{ code: number; text: string }> {
    const lines: string[] = [];
    while (true) {
      const line = await this.#line();
      lines.push(line.slice(4));
      if (!/^\d{3}[ -]?/.test(line)) throw new SmtpError(`unexpected SMTP reply: ${line.slice(0, 100)}`);
      if (line[3] !== '-') return { code: Number(line.slice(0, 3)), text: lines.join(' ') };
    }
  }
}

/** Sends one message; resolves when the server accepted it (250 after DATA), throws SmtpError otherwise. */
export async function sendMail(settings: SmtpSettings, message: SmtpMessage): Promise<void> {
  if (!ADDRESS.test(settings.from)) {
    throw new SmtpError(`the sender address "${settings.from}" is not valid`, true);
  }
  if (!ADDRESS.test(message.to)) {
    throw new SmtpError(`the recipient address "${message.to}" is not valid`, true);
  }
  const timeoutMs = settings.timeoutMs ?? 15_000;
  let conn: Deno.Conn;
  try {
    conn = await Deno.connect({ hostname: settings.host, port: settings.port });
  } catch (error) {
    throw new SmtpError(`cannot connect to ${settings.host}:${settings.port}: ${(error as Error).message}`);
  }
  const reader = new ReplyReader(conn, timeoutMs);
  const expect = async (step: string, ok: (code: number) => boolean) => {
    const reply = await reader.reply();
    if (!ok(reply.code)) {
      throw new SmtpError(`${step} refused: ${reply.code} ${reply.text}`.slice(0, 500), reply.code >= 500);
    }
    return reply;
  };
  const send = async (line: string) => {
    const bytes = encoder.encode(line);
    let written = 0;
    while (written < bytes.length) written += await conn.write(bytes.subarray(written));
  };
  try {
    await expect('greeting', (c) => c === 220);
    const helloName = 'legal-mail-portal.localdomain';
    await send(`EHLO ${helloName}\r\n`);
    const ehlo = await reader.reply();
    if (ehlo.code !== 250) {
      await send(`HELO ${helloName}\r\n`);
      await expect('HELO', (c) => c === 250);
    }
    await send(`MAIL FROM:<${settings.from}>\r\n`);
    await expect('MAIL FROM', (c) => c === 250);
    await send(`RCPT TO:<${message.to}>\r\n`);
    await expect('RCPT TO', (c) => c === 250 || c === 251);
    await send('DATA\r\n');
    await expect('DATA', (c) => c === 354);
    await send(formatMessage(settings.from, message));
    await expect('message', (c) => c === 250);
    await send('QUIT\r\n');
    await reader.reply().catch(() => {/* the message is accepted; a lost goodbye does not matter */});
  } finally {
    try {
      conn.close();
    } catch { /* already closed */ }
  }
}
