/**
 * `npm run doctor`: checks an installation with the service's own environment (api/config.ts), one line per check
 * (`ok name: detail` or `FAIL name: detail`), as `gitlab-rake gitlab:check` does; exit 0 only when every check
 * passes (docs/operations.md, "Checking an installation"). It changes nothing: no migration, no key generated,
 * no fingerprint recorded; the blob store's canary is written and removed again.
 */
import { type Config, loadConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { openStoppedDatabase } from '../db/open.ts';
import { list_pending_migrations, list_unknown_migrations } from '../db/migrate.ts';
import { describeDatabaseUrl } from '../db/describe.ts';
import { APP_VERSION } from '../version.ts';
import { createBlobStore } from '../blobs/store.ts';
import type { BlobStore } from '../blobs/types.ts';
import { checkDataKeys } from '../domain/keys.ts';
import { count_sealed_blobs } from '../db/sealed_blobs.ts';
import { readSecretFile } from '../secret_file.ts';
import { readSmtpSettings } from '../email/worker.ts';
import { checkRelay } from '../email/smtp_client.ts';
import { rangeMatcher } from '../../contract/rules/ip_ranges.ts';
import { checkOffloadCanary } from '../http/blob_offload.ts';
import { latest_audit_checkpoint } from '../db/audit_chain.ts';
import { AUDIT_KEY_FILE, keyFingerprint, loadAuditSigner } from '../domain/audit_signing.ts';

/** A check that hangs (a store or relay that stopped answering) fails after this long rather than never. */
const CHECK_TIMEOUT_MS = 20_000;

interface Line {
  ok: boolean;
  name: string;
  detail: string;
}

const lines: Line[] = [];
function report(ok: boolean, name: string, detail: string): void {
  lines.push({ ok, name, detail });
  console.log(`${ok ? 'ok' : 'FAIL'} ${name}: ${detail}`);
}

/** Runs one check; a throw or a timeout is its FAIL line. */
async function check(
  name: string,
  run: () => Promise<string | { ok: false; detail: string }>,
): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const result = await Promise.race([
      run(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS / 1000} s`)),
          CHECK_TIMEOUT_MS,
        );
      }),
    ]);
    if (typeof result === 'string') report(true, name, result);
    else report(false, name, result.detail);
  } catch (error) {
    report(false, name, (error as Error).message.replace(/\s+/g, ' ').slice(0, 400));
  } finally {
    clearTimeout(timer);
  }
  return lines.at(-1)!.ok;
}

const failed = (detail: string) => ({ ok: false as const, detail });

/** Where the database is, without its password. */
function databaseName(config: Config): string {
  return config.databaseUrl ? describeDatabaseUrl(config.databaseUrl) : `embedded, ${config.dataDir}/pgdata`;
}

async function checkMigrations(db: Database): Promise<string | { ok: false; detail: string }> {
  const pending = await list_pending_migrations(db.sql);
  if (pending.length) return failed(`not applied: ${pending.join(', ')} (npm run db:migrate)`);
  const newer = await list_unknown_migrations(db.sql);
  if (newer.length) {
    const by = newer.at(-1)!.app_version ? `release ${newer.at(-1)!.app_version}` : 'a newer release';
    return failed(
      `migrated by ${by} (${newer.map((m) => m.version).join(', ')} unknown to this release, ${APP_VERSION})`,
    );
  }
  const applied =
    (await db.sql<{ version: string }[]>`select version from schema_migrations order by version`)
      .map((r) => r.version);
  return `all ${applied.length} applied, the last ${applied.at(-1)} (release ${APP_VERSION})`;
}

/** Where the fix for a role that could drop the audit log's triggers is written. */
const ROLES_DOC = 'docs/operations.md, "Database roles"';

/**
 * The role the API connects as (DATABASE_URL's), examined whatever else is set: the documented service has no
 * MIGRATION_DATABASE_URL in its environment, and its API role is what must own nothing. A superuser or an owner
 * could drop or disable the audit log's append-only triggers.
 */
async function checkRole(config: Config, db: Database): Promise<string | { ok: false; detail: string }> {
  if (!config.databaseUrl) {
    return 'does not apply: the embedded database has one role, and only the portal opens it';
  }
  const [role] = await db.sql<{ name: string; superuser: boolean; owns: number }[]>`
    select current_user as name, r.rolsuper as superuser,
      (select count(*) from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f') and c.relowner = r.oid)::int
      + (select count(*) from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public' and p.proowner = r.oid)::int
      + (select count(*) from pg_namespace n where n.nspname = 'public' and n.nspowner = r.oid)::int as owns
    from pg_roles r where r.rolname = current_user`;
  if (role.superuser) {
    return failed(
      `DATABASE_URL's role ${role.name} is a superuser: it could drop the audit log's triggers; connect the API ` +
        `as a role of its own that owns nothing (${ROLES_DOC})`,
    );
  }
  if (role.owns > 0) {
    return failed(
      `DATABASE_URL's role ${role.name} owns ${role.owns} table(s), view(s), sequence(s) or function(s) in the ` +
        "public schema: it could drop the audit log's triggers; the schema's owner migrates " +
        `(MIGRATION_DATABASE_URL) and the API connects as a role that owns nothing (${ROLES_DOC})`,
    );
  }
  return `DATABASE_URL's role ${role.name} owns nothing`;
}

async function checkSessionSecret(config: Config): Promise<string | { ok: false; detail: string }> {
  if (config.sessionSecret) {
    return `set in the environment${config.sessionSecretPrevious ? ', with SESSION_SECRET_PREVIOUS' : ''}`;
  }
  if (await readSecretFile(config.dataDir, 'session-secret')) return `${config.dataDir}/session-secret`;
  return `none yet: the first start generates ${config.dataDir}/session-secret`;
}

async function checkBlobStore(
  db: Database,
  blobs: BlobStore,
): Promise<string | { ok: false; detail: string }> {
  await blobs.checkWritable();
  // A canary of its own (random bytes: no document can share its name) written, read back and removed.
  const canary = crypto.getRandomValues(new Uint8Array(64));
  const stored = await blobs.put(new Blob([canary]).stream());
  try {
    const stream = await blobs.open(stored.sha256);
    const back = stream ? new Uint8Array(await new Response(stream).arrayBuffer()) : undefined;
    if (!back || back.length !== canary.length || back.some((b, i) => b !== canary[i])) {
      return failed('a blob written could not be read back the same');
    }
  } finally {
    await blobs.delete(stored.sha256);
  }
  // The store holds a sealed document under its sealed blob's name (sealed_blobs), a plaintext one under its digest.
  const [document] = await db.sql<{ name: string }[]>`
    select coalesce(b.name, d.sha256) as name from documents d left join sealed_blobs b on b.sha256 = d.sha256
    where d.deleted_at is null order by d.uploaded_at desc limit 1`;
  if (document && !(await blobs.stat(document.name))) {
    return failed(`the newest document's bytes (blob ${document.name}) are not in the store`);
  }
  const { sealed, plaintext } = await count_sealed_blobs(db.sql);
  const state = plaintext
    ? `; ${plaintext} document blob(s) still in plaintext (npm run blobs:encrypt seals them), ${sealed} sealed`
    : `; every document blob is sealed (${sealed})`;
  return `writable and readable${document ? ', the newest document is there' : ''}${state}`;
}

/**
 * BLOB_OFFLOAD=nginx: the front must be able to send the blobs. The offload canary readiness runs
 * (http/blob_offload.ts): a file written beside the blobs, asked for through the front, which must send its bytes.
 */
async function checkOffload(config: Config): Promise<string | { ok: false; detail: string }> {
  if (config.blobOffload === 'off') return 'off: the API sends documents itself';
  const checkUrl = config.offloadCheckUrl ?? config.portalUrl;
  if (!checkUrl) {
    return failed('BLOB_OFFLOAD=nginx, but neither OFFLOAD_CHECK_URL nor PORTAL_URL names the front to ask');
  }
  await checkOffloadCanary({ blobsDir: `${config.dataDir}/blobs`, checkUrl, timeoutMs: 10_000 });
  return `the front at ${checkUrl} sent a canary blob${
    config.offloadCheckUrl ? '' : ' (OFFLOAD_CHECK_URL is unset: readiness does not run this check; set it)'
  }`;
}

async function checkSmtp(config: Config, db: Database): Promise<string | { ok: false; detail: string }> {
  const settings = await readSmtpSettings(db.sql);
  if (!settings) {
    return failed(
      'e-mail is off or has no relay (Settings > Email): set-password and notice e-mails stay queued',
    );
  }
  await checkRelay(settings, { transport: config.smtp, timeoutMs: 10_000 });
  return `the relay ${settings.host}:${settings.port} accepted the connection${
    config.smtp.user ? ` and the login of ${config.smtp.user}` : ''
  }`;
}

function checkPortalUrl(config: Config): string | { ok: false; detail: string } {
  if (!config.portalUrl) {
    return failed(
      "unset: e-mails carry a bare code instead of a link, and passkeys take the request's address",
    );
  }
  return config.portalUrl;
}

const LOOPBACK = ['127.0.0.1', '::1', 'localhost'];

function checkTrustedProxies(config: Config): string | { ok: false; detail: string } {
  const entries = config.trustedProxies;
  let trusts: (address: string) => boolean;
  try {
    trusts = rangeMatcher(entries, 'TRUSTED_PROXIES entry');
  } catch (error) {
    return failed((error as Error).message);
  }
  if (trusts('203.0.113.7') && trusts('198.51.100.9')) {
    return failed("trusts any address: anyone could forge X-Forwarded-For (name the front's own address)");
  }
  const behindLocalFront = LOOPBACK.includes(config.host) || config.blobOffload === 'nginx';
  if (behindLocalFront && !entries.length) {
    return failed(
      `empty while the API ${
        config.blobOffload === 'nginx'
          ? 'has nginx in front (BLOB_OFFLOAD=nginx)'
          : `listens on ${config.host}`
      }: every request would seem to come from the front (TRUSTED_PROXIES=127.0.0.1)`,
    );
  }
  if (LOOPBACK.includes(config.host) && !trusts('127.0.0.1') && !trusts('::1')) {
    return failed(`the API listens on ${config.host} but TRUSTED_PROXIES does not name 127.0.0.1 or ::1`);
  }
  return entries.length ? entries.join(', ') : "empty: the socket's peer is the client (no proxy in front)";
}

/**
 * The audit checkpoints' key: present, and the one the latest checkpoint was signed with; the line prints the
 * public key, which whoever checks the log or a checkpoint needs.
 */
async function checkAuditKey(config: Config, db: Database): Promise<string | { ok: false; detail: string }> {
  const signer = await loadAuditSigner(config, { create: false });
  const latest = await latest_audit_checkpoint(db.sql);
  if (!signer) {
    return latest
      ? failed(
        `AUDIT_SIGNING_KEY is not set and ${config.dataDir}/${AUDIT_KEY_FILE} does not exist, but checkpoints were signed (the latest ${latest.signedAt.toISOString()}): put the key back`,
      )
      : `not made yet: the first start generates ${config.dataDir}/${AUDIT_KEY_FILE}`;
  }
  const fingerprint = await keyFingerprint(signer.publicKey);
  if (latest && latest.publicKey !== signer.publicKey) {
    return failed(
      `${signer.source} (${fingerprint}) is not the key the latest checkpoint was signed with (${await keyFingerprint(
        latest.publicKey,
      )}): put that key back`,
    );
  }
  const last = latest ? `; the latest checkpoint ${latest.signedAt.toISOString()}, ${latest.size} rows` : '';
  return `Ed25519 public key ${signer.publicKey} (${fingerprint}, from ${signer.source})${last}`;
}

async function main(): Promise<number> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    report(false, 'configuration', (error as Error).message);
    return 1;
  }
  report(
    true,
    'configuration',
    `parsed (BLOB_STORE=${config.blobStore}, BLOB_OFFLOAD=${config.blobOffload})`,
  );
  let db: Database | undefined;
  await check('database', async () => {
    db = await openStoppedDatabase(config, 'the doctor');
    const [{ version }] = await db.sql<
      { version: string }[]
    >`select current_setting('server_version') as version`;
    return `reachable (${databaseName(config)}, PostgreSQL ${version})`;
  });
  try {
    if (db) {
      const open = db;
      const migrated = await check('migrations', () => checkMigrations(open));
      await check('database role', () => checkRole(config, open));
      await check('SESSION_SECRET', () => checkSessionSecret(config));
      if (migrated) await check('AUDIT_SIGNING_KEY', () => checkAuditKey(config, open));
      else report(false, 'AUDIT_SIGNING_KEY', 'not checked: the database is not migrated');
      if (migrated) {
        const keys = await checkDataKeys(open.sql, config, 'check');
        for (const line of keys.checks) report(line.ok, line.name, line.detail);
      } else {
        for (const name of ['PIN_PEPPER', 'MFA_SECRET_KEY', 'BLOB_KEY']) {
          report(false, name, 'not checked: the database is not migrated');
        }
      }
      await check('blob store', () => checkBlobStore(open, createBlobStore(config, open)));
      await check('SMTP', () => checkSmtp(config, open));
    } else {
      for (
        const name of [
          'migrations',
          'database role',
          'AUDIT_SIGNING_KEY',
          'PIN_PEPPER',
          'MFA_SECRET_KEY',
          'BLOB_KEY',
          'blob store',
          'SMTP',
        ]
      ) {
        report(false, name, 'not checked: the database cannot be reached');
      }
    }
    await check('blob offload', () => checkOffload(config));
    await check('PORTAL_URL', () => Promise.resolve(checkPortalUrl(config)));
    await check('TRUSTED_PROXIES', () => Promise.resolve(checkTrustedProxies(config)));
  } finally {
    await db?.close();
  }
  const failing = lines.filter((l) => !l.ok);
  console.log(
    failing.length
      ? `${failing.length} check(s) failed: ${failing.map((l) => l.name).join(', ')}`
      : `All ${lines.length} checks passed.`,
  );
  return failing.length ? 1 : 0;
}

Deno.exit(await main());
