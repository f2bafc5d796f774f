/**
 * The operator's commands that write to the database, on the embedded database (no DATABASE_URL): it is one
 * process's, so `admin:create` ("First administrator" in docs/operations.md, run as written) works before the
 * portal's first start and with the portal stopped, and every writing command refuses while the portal runs on it,
 * naming what to do, and leaves the running portal working (a second process on its files broke its sign-ins).
 */
import assert from 'node:assert/strict';
import { docCommands } from '../support/doc_commands.ts';
import { startInstance } from '../support/instance.ts';
import { run } from './helpers.ts';

const PASSWORD = 'Granite-Harbor-Lantern-73';

async function post(base: string, path: string, body: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: await r.json() };
}

/** The set-password code admin:create printed on its last line (no PORTAL_URL: the bare code). */
function printedCode(output: string): string {
  const code = output.trim().split('\n').pop()!;
  assert.match(code, /^[A-Za-z0-9_-]{40,}$/, output);
  return code;
}

/** Sets the password with the printed code and signs in: the admin reaches second-factor enrolment. */
async function setPasswordAndSignIn(base: string, email: string, code: string): Promise<void> {
  const set = await post(base, '/api/auth/reset-password', { token: code, newPassword: PASSWORD });
  assert.equal(set.status, 200, JSON.stringify(set.body));
  const step = await post(base, '/api/auth/login', {
    username: email,
    password: PASSWORD,
    entity: 'default',
  });
  assert.equal(step.status, 200, JSON.stringify(step.body));
  assert.equal(step.body.mfaEnrollmentRequired, true);
}

Deno.test({
  name:
    'embedded database: admin:create works before the first start and with the portal stopped; every writing command refuses while the portal runs, and the portal keeps signing in',
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const [[adminCreate]] = await docCommands('docs/operations.md', '## First administrator');
    const email = /--email (\S+)/.exec(adminCreate)![1];
    const dataDir = await Deno.makeTempDir({ prefix: 'lmp-embedded-commands-' });
    const env = { DATA_DIR: dataDir, PWA_DIST: `${dataDir}/no-pwa`, DEMO_SEED: '0' };
    const sh = (line: string, more: Record<string, string> = {}) =>
      run('sh', ['-ec', line], { env: { ...env, ...more } });
    let portal = undefined as Awaited<ReturnType<typeof startInstance>> | undefined;
    try {
      // Before the first start: the command makes the database, as the document's order has it.
      const first = await sh(adminCreate);
      assert.equal(first.code, 0, first.output);
      const firstCode = printedCode(first.output);

      portal = await startInstance(env);
      await setPasswordAndSignIn(portal.url, email, firstCode);

      // While the portal runs: each writing command refuses, names what to do, and touches nothing.
      const second = 'npm run --silent admin:create -- --email second.admin@doc.example.gov --entity default';
      await Deno.writeTextFile(
        `${dataDir}/roster.csv`,
        'doc_number,first_name,last_name\n1001,Ann,Example\n',
      );
      const keys = {
        MFA_SECRET_KEY_PREVIOUS: 'embedded-commands-mfa-old-0123456789ab',
        MFA_SECRET_KEY: 'embedded-commands-mfa-new-0123456789ab',
        BLOB_KEY_PREVIOUS: 'embedded-commands-blob-old-0123456789ab',
        BLOB_KEY: 'embedded-commands-blob-new-0123456789ab',
      };
      for (
        const [command, line] of [
          ['admin:create', second],
          ['roster:import', `npm run --silent roster:import -- ${dataDir}/roster.csv`],
          ['blobs:encrypt', 'npm run --silent blobs:encrypt'],
          ['keys:rotate-mfa', 'npm run --silent keys:rotate-mfa'],
          ['keys:rotate-blob', 'npm run --silent keys:rotate-blob'],
          ['db:migrate', 'npm run --silent db:migrate'],
        ]
      ) {
        const refused = await sh(line, command.startsWith('keys:') ? keys : {});
        assert.equal(refused.code, 1, `${command}:\n${refused.output}`);
        assert.match(
          refused.output,
          new RegExp(
            `the portal is running on the embedded database in .*: stop the portal first, then run ${command}`,
          ),
          `${command}:\n${refused.output}`,
        );
      }
      // The portal's database is still its own: a sign-in writes its audit row and answers as before.
      const wrong = await post(portal.url, '/api/auth/login', {
        username: email,
        password: 'not-the-password',
        entity: 'default',
      });
      assert.equal(wrong.status, 401, JSON.stringify(wrong.body));
      const again = await post(portal.url, '/api/auth/login', {
        username: email,
        password: PASSWORD,
        entity: 'default',
      });
      assert.equal(again.status, 200, JSON.stringify(again.body));

      // With the portal stopped: the second administrator is made, and signs in once the portal is back.
      assert.equal(await portal.stop(), 0);
      const made = await sh(second);
      assert.equal(made.code, 0, made.output);
      const secondCode = printedCode(made.output);
      const migrated = await sh('npm run --silent db:migrate');
      assert.equal(migrated.code, 0, migrated.output);
      assert.match(migrated.output, /The database is up to date\./);
      portal = await startInstance(env);
      await setPasswordAndSignIn(portal.url, 'second.admin@doc.example.gov', secondCode);
    } finally {
      await portal?.stop();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});
