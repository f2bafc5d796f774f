/**
 * docs/operations.md, "Rotating a key", its sh blocks run as written with the service's environment file on a
 * running installation (`systemctl` is this test's stop and start of the API with that file): SESSION_SECRET, here
 * generated into DATA_DIR first, with nobody signed out; PIN_PEPPER with each PIN moved at its owner's next sign-in
 * (the doctor counting those still under the previous pepper); MFA_SECRET_KEY re-sealed by
 * `npm run keys:rotate-mfa`. Needs TEST_DATABASE_URL.
 */
import assert from 'node:assert/strict';
import postgres from 'postgres';
import { openEmailSecret } from '../../api/email/sealed_secret.ts';
import { docCommands } from '../support/doc_commands.ts';
import { freshDatabase, type Instance, ROOT, signInAt, startInstance } from '../support/instance.ts';
import { enrolAuthenticator, signInWithTotp } from '../support/totp.ts';

const SERVER = Deno.env.get('TEST_DATABASE_URL');
const OPTIONS = { sanitizeResources: false, sanitizeOps: false, ignore: !SERVER } as const;
const ADMIN = { username: 'admin@demo.test', password: 'Demo-Admin-2026!' };
const key = () => crypto.randomUUID().replaceAll('-', '');
const SERVICE = /^systemctl (stop|start|restart) legal-mail-portal$/;

/** A shell command as an operator types it, in the portal's folder, with nothing of the test's environment. */
async function sh(command: string) {
  const out = await new Deno.Command('sh', {
    args: ['-c', command],
    cwd: ROOT,
    clearEnv: true,
    env: { NO_COLOR: '1', PATH: Deno.env.get('PATH')!, HOME: Deno.env.get('HOME') ?? '/tmp' },
    stdout: 'piped',
    stderr: 'piped',
  }).output();
  const text = new TextDecoder();
  return { code: out.code, output: text.decode(out.stdout) + text.decode(out.stderr) };
}

/** The environment file as systemd reads it: one NAME=value a line, the last of a name winning. */
async function readEnvFile(file: string): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  for (const line of (await Deno.readTextFile(file)).split('\n')) {
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (match) env[match[1]] = match[2];
  }
  return env;
}

async function me(base: string, token: string): Promise<number> {
  const r = await fetch(`${base}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
  await r.body?.cancel();
  return r.status;
}

Deno.test({
  name:
    "each key rotates as documented: the doc's commands keep sessions signed with the previous secret, move PINs to the new pepper at sign-in, keep authenticator apps working under the new MFA key",
  ...OPTIONS,
  fn: async () => {
    const blocks = await docCommands('docs/operations.md', '### Rotating a key');
    assert.equal(blocks.length, 10, blocks.map((b) => b.join('; ')).join('\n'));
    const [
      sessionNew,
      sessionSet,
      sessionRestart,
      sessionDone,
      pepper,
      doctor,
      pepperDone,
      mfaStop,
      mfaRotate,
      mfaSet,
    ] = blocks;
    assert.match(sessionNew[0], /openssl rand -hex 32 > \/root\/session-secret\.new$/);
    assert.deepEqual(sessionRestart, ['systemctl restart legal-mail-portal']);
    assert.match(doctor.join(), /npm run doctor$/);
    assert.match(mfaRotate.join(), /npm run keys:rotate-mfa$/);
    assert.ok(mfaStop.includes('systemctl stop legal-mail-portal'));
    assert.ok(mfaSet.includes('systemctl start legal-mail-portal'));

    const db = await freshDatabase(SERVER!);
    const dataDir = await Deno.makeTempDir({ prefix: 'lmp-rotate-' });
    const file = `${dataDir}/portal.env`;
    await Deno.mkdir(`${dataDir}/root`);
    const old = { PIN_PEPPER: key(), MFA_SECRET_KEY: key() };
    // SESSION_SECRET unset: generated into DATA_DIR/session-secret at the first start.
    await Deno.writeTextFile(
      file,
      Object.entries({ DATABASE_URL: db.url, DATA_DIR: dataDir, PWA_DIST: `${dataDir}/no-pwa`, ...old })
        .map(([k, v]) => `${k}=${v}`).join('\n') + '\n',
    );
    let portal: Instance | undefined = await startInstance({ ...await readEnvFile(file), DEMO_SEED: '1' });
    const service = async (action: string) => {
      if (action !== 'start') {
        assert.equal(await portal?.stop(), 0);
        portal = undefined;
      }
      if (action !== 'stop') portal = await startInstance(await readEnvFile(file));
    };
    /** One block as written (its paths moved into the test's folder); `systemctl` lines are `service`. */
    const runBlock = async (block: string[], options: { check?: boolean } = {}) => {
      let output = '';
      for (const line of block) {
        const action = SERVICE.exec(line)?.[1];
        if (action) {
          await service(action);
          continue;
        }
        const command = line
          .replaceAll('/root/', `${dataDir}/root/`)
          .replaceAll('/etc/legal-mail-portal.env', file)
          .replaceAll('/opt/legal-mail-portal', ROOT)
          .replaceAll('/var/lib/legal-mail-portal', dataDir);
        const ran = await sh(command);
        if (options.check !== false) assert.equal(ran.code, 0, `${line}\n${ran.output}`);
        output += ran.output;
      }
      return output;
    };
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
      const generated = (await Deno.readTextFile(`${dataDir}/session-secret`)).trim();

      // SESSION_SECRET, steps 1-3: the generated secret is the previous one, the session from before stays.
      await runBlock(sessionNew);
      await runBlock(sessionSet);
      const rotatingSession = await readEnvFile(file);
      assert.equal(rotatingSession.SESSION_SECRET_PREVIOUS, generated);
      assert.equal(
        rotatingSession.SESSION_SECRET,
        (await Deno.readTextFile(`${dataDir}/root/session-secret.new`)).trim(),
      );
      await runBlock(sessionRestart);
      assert.equal(await me(portal!.url, offender), 200, 'a session signed with the previous secret stays');

      // PIN_PEPPER, steps 1-3: the doctor counts the PIN still under the previous pepper until its sign-in.
      await runBlock(pepper);
      assert.equal((await readEnvFile(file)).PIN_PEPPER_PREVIOUS, old.PIN_PEPPER);
      const pepperLine = async () =>
        (await runBlock(doctor, { check: false })).split('\n').find((l) => l.includes(' PIN_PEPPER: '));
      assert.match(
        (await pepperLine())!,
        /^ok PIN_PEPPER: .*1 PIN\(s\) still hashed under PIN_PEPPER_PREVIOUS/,
      );
      const again = await signInAt(portal!.url, '100001', '246810');
      assert.match((await pepperLine())!, /no PIN is hashed under PIN_PEPPER_PREVIOUS any more: remove it/);
      await runBlock(pepperDone);
      assert.equal((await readEnvFile(file)).PIN_PEPPER_PREVIOUS, undefined);
      assert.equal(
        typeof await signInAt(portal!.url, '100001', '246810'),
        'string',
        'the PIN under the new pepper',
      );

      // SESSION_SECRET, step 4: the previous secret removed.
      await runBlock(sessionDone);
      assert.equal(await me(portal!.url, again), 200, 'a session signed with the new secret');
      assert.equal(await me(portal!.url, offender), 401, 'the previous secret no longer accepted');

      // MFA_SECRET_KEY: stopped; a previous key that is not the data's changes nothing; the doc's command moves
      // every secret; the new key in the file, started.
      await runBlock(mfaStop);
      const fresh = (await Deno.readTextFile(`${dataDir}/root/mfa-key.new`)).trim();
      const wrong = await sh(
        `set -a; . ${file}; set +a; MFA_SECRET_KEY_PREVIOUS=${key()} MFA_SECRET_KEY=${fresh} npm run --silent keys:rotate-mfa`,
      );
      assert.equal(wrong.code, 1, wrong.output);
      assert.match(wrong.output, /MFA_SECRET_KEY_PREVIOUS does not match this database.*Nothing was changed/);
      const rotated = await runBlock(mfaRotate);
      assert.match(rotated, /Sealed 1 authenticator app secret\(s\) under the new MFA_SECRET_KEY/);
      assert.match(rotated, /set-password codes of 1 e-mail\(s\) waiting in the outbox/);
      const reader = postgres(db.url, { max: 1, onnotice: () => {} });
      try {
        const [queued] = await reader<{ to_address: string; sealed_secret: Uint8Array }[]>`
          select to_address, sealed_secret from email_outbox where sealed_secret is not null`;
        const code = await openEmailSecret(
          new TextEncoder().encode(fresh),
          queued.sealed_secret,
          queued.to_address,
        );
        assert.match(code ?? '', /^[A-Za-z0-9_-]{43}$/, 'the queued code opens under the new key');
      } finally {
        await reader.end();
      }
      // The file still names the old key: until step 3 the portal does not start.
      const refused = await startInstance(await readEnvFile(file)).then(
        async (i) => (await i.stop(), ''),
        (e: Error) => e.message,
      );
      assert.match(
        refused,
        /MFA_SECRET_KEY does not match this database/,
        'the old MFA key no longer starts',
      );
      await runBlock(mfaSet);
      assert.equal((await readEnvFile(file)).MFA_SECRET_KEY, fresh);
      const signedIn = await signInWithTotp(portal!.url, { ...ADMIN, secret, steps: 1 });
      assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
    } finally {
      await portal?.stop();
      await db.drop();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});
