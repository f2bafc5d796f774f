/**
 * A real SMTP relay for tests: Debian's python3-aiosmtpd (tests/support/smtp_server.py) in a child process,
 * with STARTTLS (or implicit TLS) and AUTH on a self-signed certificate made here with openssl.
 */
import type { SmtpConfig } from '../../api/config.ts';
import type { DeliveryOptions } from '../../api/email/worker.ts';
import { setSetting, type TestApp } from './app.ts';

const HERE = new URL('.', import.meta.url).pathname;
/** Debian's python has aiosmtpd; a pyenv or venv python on PATH may not. */
const PYTHON = '/usr/bin/python3';

/** What the relay accepted, decoded by Python's email package. */
export interface Received {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  body: string;
  authenticated: boolean;
  tls: boolean;
}

export interface Certificate {
  dir: string;
  cert: string;
  key: string;
}

/** A self-signed certificate for 127.0.0.1 and localhost; the certificate is its own CA (SMTP_CA_FILE). */
export async function makeCertificate(): Promise<Certificate> {
  const dir = await Deno.makeTempDir({ prefix: 'lmp-smtp-tls-' });
  const cert = `${dir}/cert.pem`;
  const key = `${dir}/key.pem`;
  const out = await new Deno.Command('openssl', {
    args: [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    stdout: 'null',
    stderr: 'piped',
  }).output();
  if (!out.success) throw new Error(`openssl failed: ${new TextDecoder().decode(out.stderr)}`);
  return { dir, cert, key };
}

export interface SmtpRelay {
  port: number;
  received: Received[];
  close(): Promise<void>;
}

/** Starts the relay (port 0: a free one); resolves once it listens. */
export async function startSmtpRelay(options: {
  certificate: Certificate;
  user: string;
  password: string;
  port?: number;
  mode?: 'starttls' | 'implicit';
}): Promise<SmtpRelay> {
  const { certificate, user, password } = options;
  const child = new Deno.Command(PYTHON, {
    args: [
      `${HERE}smtp_server.py`,
      String(options.port ?? 0),
      certificate.cert,
      certificate.key,
      user,
      password,
      options.mode ?? 'starttls',
    ],
    stdout: 'piped',
    stderr: 'piped',
  }).spawn();
  const received: Received[] = [];
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const { promise: ready, resolve: resolvePort } = Promise.withResolvers<number>();
  const reading = (async () => {
    while (true) {
      const { value, done } = await lines.read();
      if (done) return;
      buffer += value;
      let eol;
      while ((eol = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 1);
        if (line.startsWith('ready ')) resolvePort(Number(line.slice(6)));
        else if (line.startsWith('{')) received.push(JSON.parse(line));
      }
    }
  })();
  const errors = new Response(child.stderr).text();
  const exited = child.status.then(async (s) => {
    throw new Error(`the SMTP relay exited (${s.code}): ${await errors}`);
  });
  const port = await Promise.race([ready, exited]);
  exited.catch(() => {/* expected once closed */});
  return {
    port,
    received,
    async close() {
      try {
        child.kill('SIGTERM');
      } catch { /* already gone */ }
      await child.status;
      await reading.catch(() => {});
      await errors;
    },
  };
}

/** The relay's login in the tests that wire it into an app. */
export const RELAY_LOGIN = { user: 'portal-relay', password: 'relay-Secret-2026' } as const;

export interface AppRelay {
  relay: SmtpRelay;
  certificate: Certificate;
  /** The outbox worker's options for this relay: STARTTLS, the login, the certificate as CA, the app's key. */
  options: DeliveryOptions & { transport: SmtpConfig };
  /** Stops the relay and removes its certificate. */
  close(): Promise<void>;
}

/**
 * A relay the app's outbox sends to: the admin's SMTP settings point at it, and registrations from the tests' one
 * client address are not capped by the hourly default.
 */
export async function startAppRelay(t: TestApp): Promise<AppRelay> {
  const certificate = await makeCertificate();
  const relay = await startSmtpRelay({ certificate, ...RELAY_LOGIN });
  await setSetting(t, 'smtp_host', '127.0.0.1');
  await setSetting(t, 'smtp_port', relay.port);
  await setSetting(t, 'smtp_from', 'portal@doc.example');
  await setSetting(t, 'smtp_enabled', true);
  await setSetting(t, 'registration_limit_per_hour', 1000);
  return {
    relay,
    certificate,
    options: {
      transport: { tls: undefined, ...RELAY_LOGIN, caFile: certificate.cert },
      smtpTimeoutMs: 5000,
      secretKey: t.deps.mfaKey,
    },
    async close() {
      await relay.close();
      await Deno.remove(certificate.dir, { recursive: true }).catch(() => {});
    },
  };
}
