/**
 * Two API processes on one PostgreSQL behind Debian's nginx, as several instances run in production:
 * revocations, lockouts and uploads are seen by both at once; the purge and the e-mail worker act once per row.
 * Needs TEST_DATABASE_URL (a PostgreSQL server; the embedded database cannot be shared).
 */
import assert from 'node:assert/strict';
import postgres from 'postgres';
import { makePdf } from '../support/pdfs.ts';
import { startNginxFront } from '../support/nginx_front.ts';
import { freshDatabase, type Instance, ROOT, signInAt, startInstance } from '../support/instance.ts';
import { makeCertificate, startSmtpRelay } from '../support/smtp.ts';
import { enrolAuthenticator, signInWithTotp } from '../support/totp.ts';

const SERVER = Deno.env.get('TEST_DATABASE_URL');
const SECRET = 'two-instances-share-this-secret-0123456789';
const OPTIONS = { sanitizeResources: false, sanitizeOps: false, ignore: !SERVER } as const;

async function api(
  base: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
) {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(`${base}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await r.text();
  return { status: r.status, body: text.startsWith('{') ? JSON.parse(text) : text };
}

const login = (base: string, username: string, password: string) =>
  api(base, 'POST', '/api/auth/login', { body: { username, password, entity: 'default' } });

async function until(what: string, check: () => Promise<boolean>, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

for (const blobStore of ['postgres', 'fs'] as const) {
  Deno.test({
    name:
      `two instances behind nginx (BLOB_STORE=${blobStore}) share sessions, lockouts, documents; purge and e-mail act once`,
    ...OPTIONS,
    fn: async () => {
      const db = await freshDatabase(SERVER!);
      const sql = postgres(db.url, { max: 2, onnotice: () => {} });
      // fs: one DATA_DIR both instances mount (an NFS share or a shared volume in production).
      const shared = await Deno.makeTempDir({ prefix: 'lmp-shared-' });
      const certificate = await makeCertificate();
      const relay = await startSmtpRelay({ certificate, user: 'relay', password: 'relay-pass' });
      const env = (seed: boolean) => ({
        DATABASE_URL: db.url,
        SESSION_SECRET: SECRET,
        BLOB_STORE: blobStore,
        DATA_DIR: shared,
        DEMO_SEED: seed ? '1' : '0',
        TRUSTED_PROXIES: '127.0.0.1',
        PWA_DIST: `${shared}/no-pwa`,
        SMTP_USER: 'relay',
        SMTP_PASSWORD: 'relay-pass',
        SMTP_CA_FILE: certificate.cert,
      });
      let a: Instance | undefined;
      let b: Instance | undefined;
      const fronts: { stop(): Promise<void> }[] = [];
      try {
        a = await startInstance(env(true));
        b = await startInstance(env(false));
        const front = await startNginxFront([`127.0.0.1:${a.port}`, `127.0.0.1:${b.port}`]);
        fronts.push(front);

        // A logout on one is a 401 on the other at once.
        const token = await signInAt(a.url, 'attorney@demo.test', 'Demo-Attorney-2026!');
        assert.equal((await api(b.url, 'GET', '/api/auth/me', { token })).status, 200);
        assert.equal((await api(front.url, 'GET', '/api/auth/me', { token })).status, 200);
        assert.equal((await api(a.url, 'POST', '/api/auth/logout', { token })).status, 200);
        assert.equal(
          (await api(b.url, 'GET', '/api/auth/me', { token })).status,
          401,
          'logout on A seen by B',
        );
        for (let i = 0; i < 2; i++) {
          assert.equal((await api(front.url, 'GET', '/api/auth/me', { token })).status, 401);
        }

        // A deactivation through one instance ends the session held on the other.
        const admin = await signInAt(a.url, 'admin@demo.test', 'Demo-Admin-2026!');
        const approver = await signInAt(b.url, 'approver@demo.test', 'Demo-Approver-2026!');
        const [{ id: approverId }] = await sql<
          { id: string }[]
        >`select id::text as id from users where email = 'approver@demo.test'`;
        const off = await api(a.url, 'PUT', `/api/admin/users/${approverId}/status`, {
          token: admin,
          body: { status: 'deactivated' },
        });
        assert.equal(off.status, 200, JSON.stringify(off.body));
        assert.equal(
          (await api(b.url, 'GET', '/api/auth/me', { token: approver })).status,
          401,
          'deactivation on A seen by B',
        );

        // Failures counted on both instances lock the account on both (5: failed_login_limit).
        for (let i = 0; i < 5; i++) {
          const r = await login(i % 2 ? b.url : a.url, 'representative@demo.test', 'wrong-password');
          assert.equal(r.status, 401);
        }
        assert.equal(
          (await login(a.url, 'representative@demo.test', 'Demo-Rep-2026!')).status,
          401,
          'locked on A',
        );
        assert.equal(
          (await login(b.url, 'representative@demo.test', 'Demo-Rep-2026!')).status,
          401,
          'locked on B',
        );

        // An upload through A is read byte for byte through B and through the front.
        const attorney = await signInAt(a.url, 'attorney@demo.test', 'Demo-Attorney-2026!');
        const pdf = await makePdf({ pages: 3, title: 'Shared between instances', padTo: 300_000 });
        const form = new FormData();
        form.set('file', new File([pdf as BlobPart], 'letter.pdf', { type: 'application/pdf' }));
        form.set('recipient_doc_number', '100001');
        form.set('title', 'Across instances');
        const up = await fetch(`${a.url}/api/documents/upload`, {
          method: 'POST',
          headers: { authorization: `Bearer ${attorney}` },
          body: form,
        });
        const uploaded = await up.json();
        assert.equal(up.status, 201, JSON.stringify(uploaded));
        const id = uploaded.document.documentid;
        const offender = await signInAt(b.url, '100001', '246810');
        for (const base of [b.url, front.url, front.url]) {
          const r = await fetch(`${base}/api/documents/view/${id}`, {
            headers: { authorization: `Bearer ${offender}` },
          });
          assert.equal(r.status, 200);
          assert.deepEqual(new Uint8Array(await r.arrayBuffer()), pdf, `same bytes through ${base}`);
        }

        // The front balanced over both, passing its request id (trusted proxy) into both logs. A request's line
        // reaches stdout up to api/log.ts's batch window after its answer: it is waited for.
        const viaFront = (i: Instance | undefined) =>
          !!i?.lines.some((l) => /"request_id":"[0-9a-f]{32}"/.test(l));
        await until(
          'both instances served requests through nginx',
          () => Promise.resolve(viaFront(a) && viaFront(b)),
        );

        // E-mail: every message sent once although both workers poll the same outbox.
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
        const count = 30;
        await sql`insert into email_outbox (kind, to_address, subject, body)
        select 'test', 'once-' || g || '@example.test', 'Once ' || g, 'body' from generate_series(1, ${count}) g`;
        await until('every message sent', async () => {
          const [{ n }] = await sql<
            { n: number }[]
          >`select count(*)::int as n from email_outbox where kind = 'test' and status = 'sent'`;
          return n === count;
        });
        await new Promise((r) => setTimeout(r, 500));
        const onces = relay.received.filter((m) => m.to[0].startsWith('once-')).map((m) => m.to[0]);
        assert.equal(onces.length, count, 'no message sent twice');
        assert.equal(new Set(onces).size, count);
        const sentLines = [...a.lines, ...b.lines].filter((l) => l.includes('"msg":"e-mail sent"'));
        assert.equal(sentLines.length, count, 'the two workers together logged one send per message');

        // The purge: both instances start together (each purges at start-up) over expired documents.
        await Promise.all([a.stop(), b.stop()]);
        const expired = await sql<{ id: string }[]>`
        update documents set uploaded_at = now() - interval '4000 days' returning id::text as id`;
        assert.ok(expired.length >= 2, 'the demo letters and the upload');
        [a, b] = await Promise.all([startInstance(env(false)), startInstance(env(false))]);
        // Each stays a tombstone (no bytes) in its sender's list for one more retention period.
        await until(
          'the purge',
          async () => (await sql`select 1 from documents where deleted_at is null`).length === 0,
        );
        const audited = await sql<{ resource_id: string; n: number }[]>`
        select resource_id::text as resource_id, count(*)::int as n from audit_logs
        where event_type = 'document_deleted' group by resource_id`;
        assert.deepEqual(audited.map((r) => r.resource_id).sort(), expired.map((r) => r.id).sort());
        assert.ok(audited.every((r) => r.n === 1), `each document deleted once: ${JSON.stringify(audited)}`);
      } finally {
        for (const f of fronts) await f.stop();
        for (const i of [a, b]) if (i) await i.stop();
        await relay.close();
        await sql.end();
        await db.drop();
        await Deno.remove(shared, { recursive: true }).catch(() => {});
        await Deno.remove(certificate.dir, { recursive: true }).catch(() => {});
      }
    },
  });
}

/** The variables docs/operations.md's "Several instances" says every instance must share (its first sh block). */
async function documentedSharedSettings(): Promise<string[]> {
  const doc = await Deno.readTextFile(new URL('../../docs/operations.md', import.meta.url));
  const section = doc.slice(doc.indexOf('## Several instances'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1];
  return [...block.matchAll(/^([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]);
}

Deno.test({
  name:
    "two instances from the documented shared settings, each with a DATA_DIR of its own: an offender signed in on A uses the session on B and signs in on B; an authenticator enrolled on A is accepted by B; the checkpoints each signed pass audit:verify with the other's environment",
  ...OPTIONS,
  fn: async () => {
    const db = await freshDatabase(SERVER!);
    const dirs = await Promise.all(['a', 'b'].map((n) => Deno.makeTempDir({ prefix: `lmp-own-${n}-` })));
    const certificate = await makeCertificate();
    const relay = await startSmtpRelay({ certificate, user: 'relay', password: 'relay-pass' });
    const shared: Record<string, string> = {
      DATABASE_URL: db.url,
      SESSION_SECRET: SECRET,
      PIN_PEPPER: 'two-instances-share-this-pepper-0123456789',
      MFA_SECRET_KEY: 'two-instances-share-this-mfa-key-0123456789',
      BLOB_KEY: 'two-instances-share-this-blob-key-0123456789',
      AUDIT_SIGNING_KEY: 'a1'.repeat(32),
      // Empty outside a rotation, as compose's .env leaves them: the same as unset.
      SESSION_SECRET_PREVIOUS: '',
      PIN_PEPPER_PREVIOUS: '',
      MFA_SECRET_KEY_PREVIOUS: '',
      BLOB_KEY_PREVIOUS: '',
      BLOB_STORE: 'postgres',
      PORTAL_URL: 'https://mail.doc.example',
      SMTP_USER: 'relay',
      SMTP_PASSWORD: 'relay-pass',
      SMTP_TLS: 'starttls',
      SMTP_CA_FILE: certificate.cert,
      TRUSTED_PROXIES: '127.0.0.1',
    };
    assert.deepEqual(
      Object.keys(shared).sort(),
      (await documentedSharedSettings()).sort(),
      'the test shares exactly what docs/operations.md names',
    );
    const env = (i: number, seed: boolean) => ({
      ...shared,
      DATA_DIR: dirs[i],
      PWA_DIST: `${dirs[i]}/no-pwa`,
      DEMO_SEED: seed ? '1' : '0',
      AUDIT_CHECKPOINT_SECONDS: '1',
    });
    let a: Instance | undefined;
    let b: Instance | undefined;
    try {
      a = await startInstance(env(0, true));
      b = await startInstance(env(1, false));

      // The offender's session from A is good on B, and the PIN hashed on A (first sign-in) verifies on B.
      const offender = await signInAt(a.url, '100001', '246810');
      const list = await api(b.url, 'GET', '/api/documents/offender/100001', { token: offender });
      assert.equal(list.status, 200, JSON.stringify(list.body));
      assert.equal(typeof await signInAt(b.url, '100001', '246810'), 'string', 'the PIN on B');

      // An authenticator app enrolled on A signs the admin in on B.
      const admin = await signInAt(a.url, 'admin@demo.test', 'Demo-Admin-2026!');
      const secret = await enrolAuthenticator(a.url, admin, 'Demo-Admin-2026!');
      const onB = await signInWithTotp(b.url, {
        username: 'admin@demo.test',
        password: 'Demo-Admin-2026!',
        secret,
        steps: 1,
      });
      assert.equal(onB.status, 200, JSON.stringify(onB.body));
      assert.equal(typeof onB.body.token, 'string');

      // The checkpoints either instance signed (into its own DATA_DIR) hold under the other's environment.
      const files = dirs.map((d) => `${d}/audit-checkpoints.jsonl`);
      const written = () => Promise.all(files.map((f) => Deno.stat(f).then(() => true, () => false)));
      await until('a checkpoint', async () => (await written()).some(Boolean));
      await Promise.all([a.stop(), b.stop()]);
      [a, b] = [undefined, undefined];
      const present = await written();
      for (const i of [0, 1]) {
        if (!present[i]) continue;
        const other = env(1 - i, false);
        const out = await new Deno.Command(`${ROOT}node_modules/.bin/deno`, {
          args: ['run', '-A', 'api/cli/audit_verify.ts', '--checkpoints', files[i]],
          cwd: ROOT,
          env: other,
          stdout: 'piped',
          stderr: 'piped',
        }).output();
        const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
        assert.equal(out.code, 0, `instance ${i}'s checkpoints under the other's key: ${text}`);
      }
    } finally {
      for (const i of [a, b]) if (i) await i.stop();
      await relay.close();
      await db.drop();
      for (const d of dirs) await Deno.remove(d, { recursive: true }).catch(() => {});
      await Deno.remove(certificate.dir, { recursive: true }).catch(() => {});
    }
  },
});
