/**
 * `npm run doctor`, run as docs/operations.md writes it with the service's environment: every check passes on a
 * healthy installation (PostgreSQL, keys recorded, a blob store, a relay with TLS and a login, PORTAL_URL, a
 * front on this host), and it exits non-zero naming the check when a key does not match the data or the blob
 * store cannot be reached. Needs TEST_DATABASE_URL.
 */
import assert from 'node:assert/strict';
import postgres from 'postgres';
import { freePort, freshDatabase, ROOT, startInstance } from '../support/instance.ts';
import { makeCertificate, startSmtpRelay } from '../support/smtp.ts';
import { startPgCluster } from '../support/pg_cluster.ts';

const SERVER = Deno.env.get('TEST_DATABASE_URL');
const OPTIONS = { sanitizeResources: false, sanitizeOps: false, ignore: !SERVER } as const;

/** `npm run doctor` with the given environment: its exit code and its lines. */
async function doctor(env: Record<string, string>): Promise<{ code: number; lines: string[] }> {
  const out = await new Deno.Command('npm', {
    args: ['run', '--silent', 'doctor'],
    cwd: ROOT,
    env: { NO_COLOR: '1', ...env },
    stdout: 'piped',
    stderr: 'piped',
  }).output();
  const text = new TextDecoder();
  const lines = (text.decode(out.stdout) + text.decode(out.stderr)).split('\n').filter(Boolean);
  return { code: out.code, lines };
}

Deno.test({
  name:
    "npm run doctor: exit 0 with every line ok on a healthy installation; non-zero naming the check for a wrong key, an unreachable blob store, an API role that owns the schema and a newer release's migrations",
  ...OPTIONS,
  fn: async () => {
    const db = await freshDatabase(SERVER!);
    const dataDir = await Deno.makeTempDir({ prefix: 'lmp-doctor-' });
    const certificate = await makeCertificate();
    const relay = await startSmtpRelay({ certificate, user: 'relay', password: 'relay-pass' });
    // The service's environment file, as deploy/portal.env.example has it.
    const env = {
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      PWA_DIST: `${dataDir}/no-pwa`,
      HOST: '127.0.0.1',
      TRUSTED_PROXIES: '127.0.0.1',
      PORTAL_URL: 'https://mail.doc.example',
      SESSION_SECRET: 'doctor-test-session-secret-0123456789',
      PIN_PEPPER: 'doctor-test-pin-pepper-0123456789abcd',
      MFA_SECRET_KEY: 'doctor-test-mfa-key-0123456789abcdef',
      SMTP_USER: 'relay',
      SMTP_PASSWORD: 'relay-pass',
      SMTP_CA_FILE: certificate.cert,
    };
    const portal = await startInstance(env);
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    try {
      for (
        const [key, value] of [['smtp_host', '127.0.0.1'], ['smtp_port', relay.port], [
          'smtp_from',
          'portal@doc.example',
        ], ['smtp_enabled', true]] as const
      ) {
        await sql`update settings set value = jsonb_set(value, '{value}', ${
          sql.json(value)
        }) where key = ${key}`;
      }

      const healthy = await doctor(env);
      assert.equal(healthy.code, 0, healthy.lines.join('\n'));
      const checks = healthy.lines.slice(0, -1);
      for (
        const name of [
          'configuration',
          'database',
          'migrations',
          'database role',
          'SESSION_SECRET',
          'AUDIT_SIGNING_KEY',
          'PIN_PEPPER',
          'MFA_SECRET_KEY',
          'BLOB_KEY',
          'blob store',
          'SMTP',
          'blob offload',
          'PORTAL_URL',
          'TRUSTED_PROXIES',
        ]
      ) {
        assert.ok(
          checks.some((l) => l.startsWith(`ok ${name}: `)),
          `${name} in:\n${healthy.lines.join('\n')}`,
        );
      }
      assert.ok(checks.every((l) => l.startsWith('ok ')), healthy.lines.join('\n'));
      assert.match(healthy.lines.at(-1)!, /^All 14 checks passed\.$/);
      // The audit checkpoints' public key is printed: whoever checks the log needs it.
      assert.ok(checks.some((l) => /^ok AUDIT_SIGNING_KEY: Ed25519 public key [A-Za-z0-9+/]{43}= /.test(l)));
      assert.ok(checks.some((l) => /^ok SMTP: .*accepted the connection and the login of relay/.test(l)));
      assert.doesNotMatch(healthy.lines.join('\n'), /doctor-test-|relay-pass/, 'no secret printed');

      const wrongKey = await doctor({ ...env, PIN_PEPPER: 'the-pepper-of-another-installation-012345' });
      assert.equal(wrongKey.code, 1, wrongKey.lines.join('\n'));
      assert.ok(
        wrongKey.lines.some((l) => l.startsWith('FAIL PIN_PEPPER: PIN_PEPPER does not match this database')),
        wrongKey.lines.join('\n'),
      );
      assert.match(wrongKey.lines.at(-1)!, /1 check\(s\) failed: PIN_PEPPER/);

      // An object store nobody answers at.
      const unreachable = await doctor({
        ...env,
        BLOB_STORE: 's3',
        S3_ENDPOINT: `http://127.0.0.1:${freePort()}`,
        S3_BUCKET: 'legal-mail',
        S3_ACCESS_KEY_ID: 'doctor',
        S3_SECRET_ACCESS_KEY: 'doctor-secret',
      });
      assert.equal(unreachable.code, 1, unreachable.lines.join('\n'));
      assert.ok(
        unreachable.lines.some((l) => /^FAIL blob store: .*cannot reach the object store/.test(l)),
        unreachable.lines.join('\n'),
      );
      assert.match(unreachable.lines.at(-1)!, /1 check\(s\) failed: blob store/);

      // Two roles named, but the API's is the schema's owner (here a superuser too): it could drop the audit triggers.
      const owner = await doctor({ ...env, MIGRATION_DATABASE_URL: db.url });
      assert.equal(owner.code, 1, owner.lines.join('\n'));
      assert.ok(
        owner.lines.some((l) => /^FAIL database role: DATABASE_URL's role postgres is a superuser/.test(l)),
        owner.lines.join('\n'),
      );

      // A database a newer release migrated.
      await sql`insert into schema_migrations (version, name) values ('9999', 'from_the_future')`;
      const newer = await doctor(env);
      assert.equal(newer.code, 1, newer.lines.join('\n'));
      assert.ok(
        newer.lines.some((l) => /^FAIL migrations: migrated by a newer release \(9999 unknown/.test(l)),
        newer.lines.join('\n'),
      );
    } finally {
      await sql.end();
      await portal.stop();
      await relay.close();
      await db.drop();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
      await Deno.remove(certificate.dir, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test({
  name:
    'npm run doctor on the embedded database: refused while the portal runs on it (one process at a time), checked once it is stopped',
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dataDir = await Deno.makeTempDir({ prefix: 'lmp-doctor-embedded-' });
    const env = { DATA_DIR: dataDir, PWA_DIST: `${dataDir}/no-pwa`, DEMO_SEED: '0' };
    const portal = await startInstance(env);
    try {
      const running = await doctor(env);
      assert.equal(running.code, 1);
      assert.ok(
        running.lines.some((l) => /^FAIL database: the portal is running on the embedded database/.test(l)),
        running.lines.join('\n'),
      );
      await portal.stop();
      const stopped = await doctor(env);
      for (const name of ['database', 'migrations', 'PIN_PEPPER', 'MFA_SECRET_KEY', 'blob store']) {
        assert.ok(
          stopped.lines.some((l) => l.startsWith(`ok ${name}: `)),
          `${name}:\n${stopped.lines.join('\n')}`,
        );
      }
    } finally {
      await portal.stop();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test({
  name:
    "npm run doctor with two roles on a new cluster: the API's role owning nothing passes; owning a table fails, naming the check",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const cluster = await startPgCluster();
    const dataDir = await Deno.makeTempDir({ prefix: 'lmp-doctor-roles-' });
    const superuser = postgres(cluster.url('postgres'), { max: 1, onnotice: () => {} });
    try {
      await superuser.unsafe('create role legalmail_owner login');
      await superuser.unsafe('create role legal_mail_api nologin');
      await superuser.unsafe('create role legalmail_api login in role legal_mail_api');
      await superuser.unsafe('create database legalmail owner legalmail_owner');
      const at = (role: string) => `postgres://${role}@${cluster.host}:${cluster.port}/legalmail`;
      const env = {
        DATABASE_URL: at('legalmail_api'),
        MIGRATION_DATABASE_URL: at('legalmail_owner'),
        DATA_DIR: dataDir,
        PIN_PEPPER: 'doctor-roles-pin-pepper-0123456789abcd',
        MFA_SECRET_KEY: 'doctor-roles-mfa-key-0123456789abcdef',
      };
      const migrated = await new Deno.Command('npm', {
        args: ['run', '--silent', 'db:migrate'],
        cwd: ROOT,
        env: { NO_COLOR: '1', ...env },
        stdout: 'piped',
        stderr: 'piped',
      }).output();
      assert.equal(migrated.code, 0, new TextDecoder().decode(migrated.stderr));
      const apart = await doctor(env);
      assert.ok(
        apart.lines.includes("ok database role: DATABASE_URL's role legalmail_api owns nothing"),
        apart.lines.join('\n'),
      );
      const db = postgres(cluster.url('legalmail'), { max: 1, onnotice: () => {} });
      await db.unsafe('alter table documents owner to legalmail_api');
      await db.end();
      const owning = await doctor(env);
      assert.equal(owning.code, 1);
      assert.ok(
        owning.lines.some((l) =>
          /^FAIL database role: DATABASE_URL's role legalmail_api owns [1-9]\d* table\(s\)/.test(l)
        ),
        owning.lines.join('\n'),
      );
    } finally {
      await superuser.end();
      await cluster.stop();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});
