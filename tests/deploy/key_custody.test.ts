/**
 * The keys are not in the backup: an installation whose keys were generated into DATA_DIR (an admin with an
 * authenticator app, an offender with a PIN) is backed up with `npm run backup` and restored on a "new host" by
 * docs/operations.md's "Restoring on a new host", its sh blocks run as written with the service's environment
 * file (`systemctl` is this test's start): into a new database with a new, empty DATA_DIR the start refuses,
 * naming each key, until the key files and the checkpoints are carried over; then the doctor's key lines pass,
 * audit:verify names the backup as older than the latest checkpoint, the admin signs in with an authenticator code
 * and the offender with their PIN. Needs TEST_DATABASE_URL.
 */
import assert from 'node:assert/strict';
import { docCommands } from '../support/doc_commands.ts';
import { DENO, freshDatabase, type Instance, ROOT, signInAt, startInstance } from '../support/instance.ts';
import { filesHolding } from '../support/plaintext.ts';
import { enrolAuthenticator, signInWithTotp } from '../support/totp.ts';

const SERVER = Deno.env.get('TEST_DATABASE_URL');
const OPTIONS = { sanitizeResources: false, sanitizeOps: false, ignore: !SERVER } as const;
const ADMIN = { username: 'admin@demo.test', password: 'Demo-Admin-2026!' };

async function npmRun(script: 'backup' | 'restore', args: string[], env: Record<string, string>) {
  const out = await new Deno.Command(DENO, {
    args: ['run', '-A', `api/cli/${script}.ts`, ...args],
    cwd: ROOT,
    env: { NO_COLOR: '1', ...env },
    stdout: 'piped',
    stderr: 'piped',
  }).output();
  const text = new TextDecoder();
  return { code: out.code, output: text.decode(out.stdout) + text.decode(out.stderr) };
}

/** A shell command as an operator types it, with nothing of the test's environment; its exit code and output. */
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

/** The start's refusal: the API exits before it listens, and what it printed. */
async function refusedStart(env: Record<string, string>): Promise<string> {
  const error = await startInstance(env).then(
    async (instance) => {
      await instance.stop();
      return undefined;
    },
    (e: Error) => e,
  );
  assert.ok(error, 'the API started');
  assert.match(error.message, /the API exited \(1\) before listening/);
  return error.message;
}

/** A demo letter of the offender (the first of the list, or `id`) and its bytes, read through the API. */
async function firstLetter(base: string, token: string, id?: string) {
  const headers = { authorization: `Bearer ${token}` };
  const list = await (await fetch(`${base}/api/documents/offender/100001`, { headers })).json();
  const chosen = id ?? list.documents[0].documentid;
  const r = await fetch(`${base}/api/documents/view/${chosen}`, { headers });
  assert.equal(r.status, 200);
  return { id: chosen as string, bytes: new Uint8Array(await r.arrayBuffer()) };
}

Deno.test({
  name:
    'a restore on a new host as documented: without the keys it refuses to start, naming them; with the key files and checkpoints carried over, the doctor passes the keys, audit:verify names the backup as older than the latest checkpoint, the admin signs in with an authenticator code and the offender with their PIN and reads a sealed letter, of which the backup holds nothing in plaintext',
  ...OPTIONS,
  fn: async () => {
    const source = await freshDatabase(SERVER!);
    const target = await freshDatabase(SERVER!);
    const sourceDir = await Deno.makeTempDir({ prefix: 'lmp-keys-src-' });
    const targetDir = await Deno.makeTempDir({ prefix: 'lmp-keys-dst-' });
    const backups = await Deno.makeTempDir({ prefix: 'lmp-keys-bak-' });
    const [restoreBlock, keysBlock, checkBlock] = await docCommands(
      'docs/operations.md',
      '### Restoring on a new host',
    );
    assert.match(restoreBlock.join(), /npm run restore -- \/backups\/portal-2026-11-23$/);
    assert.deepEqual(checkBlock.map((l) => l.replace(/^.* && /, '')), [
      'npm run doctor',
      'npm run audit:verify',
      'systemctl start legal-mail-portal',
    ]);
    // Checkpoints every second, so one covers the backup and one taken at the stop covers rows after it.
    const sourceEnv = {
      DATABASE_URL: source.url,
      DATA_DIR: sourceDir,
      PWA_DIST: `${sourceDir}/no-pwa`,
      AUDIT_CHECKPOINT_SECONDS: '1',
    };
    const targetEnv = { DATABASE_URL: target.url, DATA_DIR: targetDir, PWA_DIST: `${targetDir}/no-pwa` };
    // The new host's environment file, its keys folder (the copy kept apart) and the log shipper's copy.
    const envFile = `${backups}/portal.env`;
    await Deno.writeTextFile(
      envFile,
      Object.entries(targetEnv).map(([k, v]) => `${k}=${v}`).join('\n') + '\n',
    );
    const keysDir = `${backups}/portal-keys`;
    const auditCopy = `${backups}/portal-audit`;
    const user = (await sh('id -un')).output.trim();
    const asWritten = (line: string) =>
      line
        .replaceAll('/root/portal-keys', keysDir)
        .replaceAll('/srv/portal-audit', auditCopy)
        .replaceAll('/backups/portal-2026-11-23', `${backups}/today`)
        .replaceAll('/etc/legal-mail-portal.env', envFile)
        .replaceAll('/opt/legal-mail-portal', ROOT)
        .replaceAll('/var/lib/legal-mail-portal', targetDir)
        .replaceAll(' -o legalmail ', ` -o ${user} `);
    let portal: Instance | undefined = await startInstance({ ...sourceEnv, DEMO_SEED: '1' });
    try {
      const admin = await signInAt(portal.url, ADMIN.username, ADMIN.password);
      const secret = await enrolAuthenticator(portal.url, admin, ADMIN.password);
      // The offender's first sign-in hashes the demo PIN under the pepper; a demo letter, sealed under BLOB_KEY.
      const reader = await signInAt(portal.url, '100001', '246810');
      const letter = await firstLetter(portal.url, reader);

      await new Promise((resolve) => setTimeout(resolve, 1500));
      const backup = await npmRun('backup', [`${backups}/today`], sourceEnv);
      assert.equal(backup.code, 0, backup.output);
      assert.match(
        backup.output,
        /The keys are not in this backup: BLOB_KEY, PIN_PEPPER, MFA_SECRET_KEY, AUDIT_SIGNING_KEY and SESSION_SECRET/,
      );
      // Activity after the backup, covered by the checkpoint the stop takes.
      await signInAt(portal.url, '100001', '246810');
      await portal.stop();
      portal = undefined;
      const keyFiles = ['session-secret', 'pin-pepper', 'mfa-key', 'blob-key', 'audit-signing-key'];
      for await (const entry of Deno.readDir(`${backups}/today`)) {
        assert.ok(
          ![...keyFiles, 'audit-checkpoints.jsonl'].includes(entry.name),
          `${entry.name} in the backup`,
        );
      }
      assert.deepEqual(await filesHolding(`${backups}/today`, letter.bytes), [], 'plaintext in the backup');
      // Kept apart from the backup: the key files, and the checkpoints as a log shipper copies them.
      await Deno.mkdir(keysDir);
      await Deno.mkdir(auditCopy);
      for (const file of keyFiles) await Deno.copyFile(`${sourceDir}/${file}`, `${keysDir}/${file}`);
      await Deno.copyFile(`${sourceDir}/audit-checkpoints.jsonl`, `${auditCopy}/audit-checkpoints.jsonl`);

      // Step 1, as written.
      const restore = await sh(asWritten(restoreBlock[0]));
      assert.equal(restore.code, 0, restore.output);

      // Without the keys: refused, naming both variables and their DATA_DIR files.
      const without = await refusedStart(targetEnv);
      assert.match(
        without,
        /Refusing to start: PIN_PEPPER, MFA_SECRET_KEY and BLOB_KEY do not match this database/,
      );
      assert.match(without, new RegExp(`PIN_PEPPER is not set and ${targetDir}/pin-pepper does not exist`));
      assert.match(without, new RegExp(`MFA_SECRET_KEY is not set and ${targetDir}/mfa-key does not exist`));
      assert.match(
        without,
        new RegExp(
          `BLOB_KEY is not set and ${targetDir}/blob-key does not exist.*no document could be opened`,
        ),
      );
      assert.equal(
        await Deno.stat(`${targetDir}/pin-pepper`).then(() => true, () => false),
        false,
        'no key generated in their place',
      );
      // Another pepper, set in the environment: refused too.
      const wrong = await refusedStart({
        ...targetEnv,
        PIN_PEPPER: 'a-pepper-of-another-installation-0123456789',
      });
      assert.match(wrong, /PIN_PEPPER does not match this database \(PIN_PEPPER from the environment\)/);

      // Step 2, as written: the key files and the checkpoints put back.
      for (const line of keysBlock) {
        const ran = await sh(asWritten(line));
        assert.equal(ran.code, 0, `${line}\n${ran.output}`);
      }
      for (const file of [...keyFiles, 'audit-checkpoints.jsonl']) {
        assert.equal((await Deno.stat(`${targetDir}/${file}`)).mode! & 0o777, 0o600, file);
      }

      // Step 3, as written: the doctor's keys pass; audit:verify names the backup as older than the checkpoint.
      const doctor = await sh(asWritten(checkBlock[0]));
      for (
        const name of ['SESSION_SECRET', 'AUDIT_SIGNING_KEY', 'PIN_PEPPER', 'MFA_SECRET_KEY', 'BLOB_KEY']
      ) {
        assert.ok(
          doctor.output.split('\n').some((l) => l.startsWith(`ok ${name}: `)),
          `${name} in:\n${doctor.output}`,
        );
      }
      const verify = await sh(asWritten(checkBlock[1]));
      assert.equal(verify.code, 1, verify.output);
      assert.match(
        verify.output,
        /this database is older than the checkpoint \(a restore of an earlier backup\)/,
      );
      assert.match(verify.output, /the last checkpoint that holds: /);
      assert.equal(checkBlock[2], 'systemctl start legal-mail-portal');
      portal = await startInstance(targetEnv);
      const signedIn = await signInWithTotp(portal.url, { ...ADMIN, secret, steps: 1 });
      assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
      assert.equal(typeof signedIn.body.token, 'string');
      const again = await signInAt(portal.url, '100001', '246810');
      assert.deepEqual(
        (await firstLetter(portal.url, again, letter.id)).bytes,
        letter.bytes,
        'the letter reads',
      );
    } finally {
      await portal?.stop();
      await source.drop();
      await target.drop();
      for (const d of [sourceDir, targetDir, backups]) {
        await Deno.remove(d, { recursive: true }).catch(() => {});
      }
    }
  },
});
