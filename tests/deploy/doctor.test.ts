/**
 * `npm run doctor`, run as docs/operations.md writes it with the service's environment: every check passes on a
 * healthy installation (PostgreSQL with the roles "Database roles" makes, the API as its own role and no
 * MIGRATION_DATABASE_URL in its environment, keys recorded, a blob store, a relay with TLS and a login,
 * PORTAL_URL, a front on this host), and it exits non-zero naming the check when a key does not match the data,
 * the blob store cannot be reached or the API's role could drop the audit log's triggers. Roles are per cluster:
 * the PostgreSQL cases run on a new one (tests/support/pg_cluster.ts).
 */
import assert from 'node:assert/strict';
import postgres from 'postgres';
import { freePort, ROOT, startInstance } from '../support/instance.ts';
import { makeCertificate, startSmtpRelay } from '../support/smtp.ts';
import { type PgCluster, startPgCluster } from '../support/pg_cluster.ts';

const OPTIONS = { sanitizeResources: false, sanitizeOps: false } as const;

/** The checks docs/operations.md's "Checking an installation" table names (its first column). */
async function documentedChecks(): Promise<string[]> {
  const doc = await Deno.readTextFile(`${ROOT}docs/operations.md`);
  const section = doc.slice(doc.indexOf('## Checking an installation'));
  const start = section.indexOf('| check | passes when |');
  const table = section.slice(start, section.indexOf('\n\n', start));
  return table.split('\n').slice(2).flatMap((row) =>
    [...row.split('|')[1].matchAll(/`([^`]+)`/g)].map((m) => m[1])
  );
}

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

/**
 * A new cluster with the roles docs/operations.md's "Database roles" makes (the schema's owner, the group role, the
 * API's login in it, the database owned by the owner), migrated by the owner with `npm run db:migrate`.
 */
async function installedCluster(dataDir: string): Promise<{ cluster: PgCluster; at(role: string): string }> {
  const cluster = await startPgCluster();
  const superuser = postgres(cluster.url('postgres'), { max: 1, onnotice: () => {} });
  try {
    await superuser.unsafe('create role legalmail_owner login');
    await superuser.unsafe('create role legal_mail_api nologin');
    await superuser.unsafe('create role legalmail_api login in role legal_mail_api');
    await superuser.unsafe('create database legalmail owner legalmail_owner');
  } finally {
    await superuser.end();
  }
  const at = (role: string) => `postgres://${role}@${cluster.host}:${cluster.port}/legalmail`;
  const migrated = await new Deno.Command('npm', {
    args: ['run', '--silent', 'db:migrate'],
    cwd: ROOT,
    env: { NO_COLOR: '1', MIGRATION_DATABASE_URL: at('legalmail_owner'), DATA_DIR: dataDir },
    stdout: 'piped',
    stderr: 'piped',
  }).output();
  if (migrated.code !== 0) {
    await cluster.stop();
    throw new Error(`db:migrate: ${new TextDecoder().decode(migrated.stderr)}`);
  }
  return { cluster, at };
}

Deno.test({
  name:
    "npm run doctor: exit 0 with every line ok on an installation made as documented; non-zero naming the check for a wrong key, an unreachable blob store, an API role that is a superuser, owns the schema or owns a table, and a newer release's migrations",
  ...OPTIONS,
  fn: async () => {
    const dataDir = await Deno.makeTempDir({ prefix: 'lmp-doctor-' });
    const certificate = await makeCertificate();
    const relay = await startSmtpRelay({ certificate, user: 'relay', password: 'relay-pass' });
    const { cluster, at } = await installedCluster(dataDir);
    // The service's environment file, as deploy/portal.env.example has it: the API's role, no owner's URL.
    const env = {
      DATABASE_URL: at('legalmail_api'),
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
    const sql = postgres(cluster.url('legalmail'), { max: 1, onnotice: () => {} });
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
      // One line per check of docs/operations.md's table, and no other.
      const documented = await documentedChecks();
      assert.ok(
        documented.includes('BLOB_KEY') && documented.includes('blob offload'),
        documented.join(', '),
      );
      assert.deepEqual(
        checks.map((l) => /^(?:ok|FAIL) ([^:]+): /.exec(l)?.[1]).sort(),
        [...documented].sort(),
        `the doctor prints the table's checks:\n${healthy.lines.join('\n')}`,
      );
      assert.ok(checks.every((l) => l.startsWith('ok ')), healthy.lines.join('\n'));
      assert.match(healthy.lines.at(-1)!, new RegExp(`^All ${documented.length} checks passed\\.$`));
      // The audit checkpoints' public key is printed: whoever checks the log needs it.
      assert.ok(checks.some((l) => /^ok AUDIT_SIGNING_KEY: Ed25519 public key [A-Za-z0-9+/]{43}= /.test(l)));
      assert.ok(checks.some((l) => /^ok SMTP: .*accepted the connection and the login of relay/.test(l)));
      assert.ok(
        checks.includes("ok database role: DATABASE_URL's role legalmail_api owns nothing"),
        checks.join('\n'),
      );
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

      // The API connected as a role that could drop the audit log's triggers, with or without an owner's URL beside
      // it: the failure names the role and where the fix is written.
      const roleFailure = async (extra: Record<string, string>, line: RegExp) => {
        const ran = await doctor({ ...env, ...extra });
        assert.equal(ran.code, 1, ran.lines.join('\n'));
        assert.ok(ran.lines.some((l) => line.test(l)), ran.lines.join('\n'));
        assert.match(ran.lines.at(-1)!, /^1 check\(s\) failed: database role$/);
      };
      await roleFailure(
        { DATABASE_URL: cluster.url('legalmail') },
        /^FAIL database role: DATABASE_URL's role postgres is a superuser: .*"Database roles"\)$/,
      );
      await roleFailure(
        { DATABASE_URL: at('legalmail_owner') },
        /^FAIL database role: DATABASE_URL's role legalmail_owner owns [1-9]\d* table\(s\).*"Database roles"\)$/,
      );
      await roleFailure(
        { DATABASE_URL: cluster.url('legalmail'), MIGRATION_DATABASE_URL: at('legalmail_owner') },
        /^FAIL database role: DATABASE_URL's role postgres is a superuser/,
      );
      await sql.unsafe('alter table documents owner to legalmail_api');
      await roleFailure(
        {},
        /^FAIL database role: DATABASE_URL's role legalmail_api owns [1-9]\d* table\(s\)/,
      );
      await sql.unsafe('alter table documents owner to legalmail_owner');

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
      await cluster.stop();
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
      for (
        const name of [
          'database',
          'migrations',
          'database role',
          'PIN_PEPPER',
          'MFA_SECRET_KEY',
          'blob store',
        ]
      ) {
        assert.ok(
          stopped.lines.some((l) => l.startsWith(`ok ${name}: `)),
          `${name}:\n${stopped.lines.join('\n')}`,
        );
      }
      assert.ok(
        stopped.lines.some((l) => /^ok database role: does not apply/.test(l)),
        stopped.lines.join('\n'),
      );
    } finally {
      await portal.stop();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});
