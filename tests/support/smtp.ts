/**
 * A real SMTP relay for tests: Debian's python3-aiosmtpd (tests/support/smtp_server.py) in a child process,
 * with STARTTLS (or implicit TLS) and AUTH on a self-signed certificate made here with openssl.
 */
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
