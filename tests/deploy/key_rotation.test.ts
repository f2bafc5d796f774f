/**
 * docs/operations.md, "Rotating a key", step by step on a running installation: SESSION_SECRET with nobody signed
 * out, PIN_PEPPER with each PIN moved at its owner's next sign-in (the doctor counting those still under the
 * previous pepper), MFA_SECRET_KEY re-sealed by `npm run keys:rotate-mfa` with the service's environment file.
 * Needs TEST_DATABASE_URL.
 */
import assert from 'node:assert/strict';
import postgres from 'postgres';
import { openEmailSecret } from '../../api/email/sealed_secret.ts';
import { freshDatabase, type Instance, ROOT, signInAt, startInstance } from '../support/instance.ts';
import { enrolAuthenticator, signInWithTotp } from '../support/totp.ts';

const SERVER = Deno.env.get('TEST_DATABASE_URL');
const OPTIONS = { sanitizeResources: false, sanitizeOps: false, ignore: !SERVER } as const;
const ADMIN = { username: 'admin@demo.test', password: 'Demo-Admin-2026!' };
const key = () => crypto.randomUUID().replaceAll('-', '');

/** A shell command as an operator types it, in the portal's folder; its exit code and output. */
async function sh(command: string, env: Record<string, string> = {}) {
  const out = await new Deno.Command('sh', {
    args: ['-c', command],
    cwd: ROOT,
    env: { NO_COLOR: '1', ...env },
    stdout: 'piped',
    stderr: 'piped',
  }).output();
  const text = new TextDecoder();
  return { code: out.code, output: text.decode(out.stdout) + text.decode(out.stderr) };
}

const envFile = (values: Record<string, string>) =>
  Object.entries(values).map(([k, v]) => `${k}=${v}`).join('\n') + '\n';

async function me(base: string, token: string): Promise<number> {
  const r = await fetch(`${base}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
  await r.body?.cancel();
  return r.status;
}

Deno.test({
  name:
    'each key rotates as documented: sessions signed with the previous secret stay, PINs move to the new pepper at sign-in, authenticator apps keep working under the new MFA key',
  ...OPTIONS,
  fn: async () => {
    const db = await freshDatabase(SERVER!);
    const dataDir = await Deno.makeTempDir({ prefix: 'lmp-rotate-' });
    const file = `${dataDir}/portal.env`;
    const base = { DATABASE_URL: db.url, DATA_DIR: dataDir, PWA_DIST: `${dataDir}/no-pwa` };
    const old = { SESSION_SECRET: key(), PIN_PEPPER: key(), MFA_SECRET_KEY: key() };
    const fresh = { SESSION_SECRET: key(), PIN_PEPPER: key(), MFA_SECRET_KEY: key() };
    let portal: Instance | undefined = await startInstance({ ...base, ...old, DEMO_SEED: '1' });
    try {
      const offender = await signInAt(portal.url, '100001', '246810');
      const admin = await signInAt(portal.url, ADMIN.username, ADMIN.password);
      const secret = await enrolAuthenticator(portal.url, admin, ADMIN.password);
      // A set-password e-mail waits in the outbox (no relay here), its code sealed under the MFA key.
      const asked = await fetch(`${portal.url}/api/auth/forgot-password`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: ADMIN.username, entity: 'default' }),
      });
      assert.equal(asked.status, 200, await asked.text());
      await portal.stop();
      portal = undefined;

      // MFA_SECRET_KEY, steps 2-4: stopped; the command with the service's environment file; the new key set.
      await Deno.writeTextFile(file, envFile({ ...base, ...old }));
      const wrong = await sh(
        `set -a; . ${file}; set +a; MFA_SECRET_KEY_PREVIOUS=${key()} MFA_SECRET_KEY=${fresh.MFA_SECRET_KEY} npm run --silent keys:rotate-mfa`,
      );
      assert.equal(wrong.code, 1, wrong.output);
      assert.match(wrong.output, /MFA_SECRET_KEY_PREVIOUS does not match this database.*Nothing was changed/);
      const rotated = await sh(
        `set -a; . ${file}; set +a; MFA_SECRET_KEY_PREVIOUS="$MFA_SECRET_KEY" MFA_SECRET_KEY=${fresh.MFA_SECRET_KEY} npm run --silent keys:rotate-mfa`,
      );
      assert.equal(rotated.code, 0, rotated.output);
      assert.match(rotated.output, /Sealed 1 authenticator app secret\(s\) under the new MFA_SECRET_KEY/);
      assert.match(rotated.output, /set-password codes of 1 e-mail\(s\) waiting in the outbox/);
      const reader = postgres(db.url, { max: 1, onnotice: () => {} });
      try {
        const [queued] = await reader<{ to_address: string; sealed_secret: Uint8Array }[]>`
          select to_address, sealed_secret from email_outbox where sealed_secret is not null`;
        const encoder = new TextEncoder();
        const code = await openEmailSecret(
          encoder.encode(fresh.MFA_SECRET_KEY),
          queued.sealed_secret,
          queued.to_address,
        );
        assert.match(code ?? '', /^[A-Za-z0-9_-]{43}$/, 'the queued code opens under the new key');
      } finally {
        await reader.end();
      }
      const refused = await startInstance({ ...base, ...old }).then(
        async (i) => (await i.stop(), ''),
        (e: Error) => e.message,
      );
      assert.match(
        refused,
        /MFA_SECRET_KEY does not match this database/,
        'the old MFA key no longer starts',
      );

      // SESSION_SECRET and PIN_PEPPER, step 2: the previous values beside the new ones, restarted.
      const rotating = {
        ...base,
        SESSION_SECRET: fresh.SESSION_SECRET,
        SESSION_SECRET_PREVIOUS: old.SESSION_SECRET,
        PIN_PEPPER: fresh.PIN_PEPPER,
        PIN_PEPPER_PREVIOUS: old.PIN_PEPPER,
        MFA_SECRET_KEY: fresh.MFA_SECRET_KEY,
      };
      portal = await startInstance(rotating);
      assert.equal(await me(portal.url, offender), 200, 'a session signed with the previous secret stays');
      const doctorLine = async () =>
        (await sh('npm run --silent doctor', rotating)).output.split('\n').find((l) =>
          l.includes(' PIN_PEPPER: ')
        );
      assert.match(
        (await doctorLine())!,
        /^ok PIN_PEPPER: .*1 PIN\(s\) still hashed under PIN_PEPPER_PREVIOUS/,
      );
      const again = await signInAt(portal.url, '100001', '246810');
      assert.match((await doctorLine())!, /no PIN is hashed under PIN_PEPPER_PREVIOUS any more: remove it/);
      const signedIn = await signInWithTotp(portal.url, { ...ADMIN, secret, steps: 1 });
      assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
      await portal.stop();

      // Step 4: the previous values removed.
      portal = await startInstance({ ...base, ...fresh });
      assert.equal(await me(portal.url, again), 200, 'a session signed with the new secret');
      assert.equal(await me(portal.url, offender), 401, 'the previous secret no longer accepted');
      assert.equal(
        typeof await signInAt(portal.url, '100001', '246810'),
        'string',
        'the PIN under the new pepper',
      );
    } finally {
      await portal?.stop();
      await db.drop();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});
