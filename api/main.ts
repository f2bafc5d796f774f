/**
 * Starts the portal: configuration, database (embedded by default), migrations,
 * demo seed, then the PWA and the API on one origin.
 */
import { createApp } from './app.ts';
import { createDocumentBlobStore } from './blobs/store.ts';
import { loadConfig } from './config.ts';
import { createDrain } from './http/drain.ts';
import { createLogger } from './log.ts';
import { openDatabase } from './db/open.ts';
import { loadSigningKey } from './domain/tokens.ts';
import { checkDataKeys, keyRefusal } from './domain/keys.ts';
import { startEmailWorker } from './email/worker.ts';
import { startRetentionPurge } from './domain/retention.ts';
import { DEMO_ACCOUNTS, seedDemoDocuments } from './cli/demo_seed.ts';
import { checkObjectStore } from './blobs/startup.ts';
import { createCheckpointStore } from './blobs/audit_checkpoint_store.ts';
import { createArchiveStore } from './blobs/audit_archive_store.ts';
import { loadAuditSigner } from './domain/audit_signing.ts';
import { startAuditCheckpoints } from './domain/audit_checkpoints.ts';

const config = loadConfig();
if (config.databaseUrl && !config.sessionSecret) {
  // Fine for one instance; several instances behind a balancer must share SESSION_SECRET.
  console.warn(`SESSION_SECRET is not set: using a secret kept in ${config.dataDir}/session-secret.`);
}
if (config.databaseUrl && !config.mfaSecretKey) {
  // Several instances must share it (or DATA_DIR): an authenticator app enrolled under one key fails under another.
  console.warn(
    `MFA_SECRET_KEY is not set: using a key kept in ${config.dataDir}/mfa-key; keep it apart from backups.`,
  );
}
if (config.databaseUrl && !config.blobKey) {
  // Several instances must share it (or DATA_DIR): a document sealed by one instance opens only under its key.
  console.warn(
    `BLOB_KEY is not set: using a key kept in ${config.dataDir}/blob-key; keep it apart from backups.`,
  );
}
if (config.databaseUrl && !config.pinPepper) {
  // Several instances must share it (or DATA_DIR): a PIN hashed under one pepper does not verify under another.
  console.warn(
    `PIN_PEPPER is not set: using a pepper kept in ${config.dataDir}/pin-pepper; keep it apart from backups.`,
  );
}
if (config.databaseUrl && !config.auditSigningKey) {
  // Several instances must share it (or DATA_DIR): `npm run audit:verify` trusts one key's checkpoints.
  console.warn(
    `AUDIT_SIGNING_KEY is not set: using a key kept in ${config.dataDir}/audit-signing-key; keep it apart from backups.`,
  );
}
const { db, applied, seeded } = await openDatabase(config);
const signingKey = await loadSigningKey(config.sessionSecret, config.dataDir);
// The pepper and the MFA key must be the ones the data was made under: with another, every PIN or code would be
// refused, so the start stops instead, naming the key (domain/keys.ts).
const dataKeys = await checkDataKeys(db.sql, config, 'start');
if (!dataKeys.ok) {
  console.error(keyRefusal(dataKeys));
  await db.close();
  Deno.exit(1);
}
const { pinPepper, mfaKey, blobKey } = dataKeys;
const log = createLogger(config);
const blobs = createDocumentBlobStore(config, db, { kek: blobKey, log });
if (config.s3) await checkObjectStore(config.s3, blobs);
// The demo mail needs the blob store, which the database seed cannot see.
if (seeded) await seedDemoDocuments(db.sql, blobs);
// The audit log's checkpoints are signed with a key that is never in the database (docs/security.md).
const auditSigner = (await loadAuditSigner(config))!;
// Where retention moves old audit rows, and where the CSV export reads them back.
const auditArchive = createArchiveStore(config);
const app = createApp({
  sql: db.sql,
  sessionSql: db.sessionSql,
  config,
  signingKey,
  previousSigningKey: config.sessionSecretPrevious
    ? new TextEncoder().encode(config.sessionSecretPrevious)
    : undefined,
  pinPepper,
  previousPinPepper: config.pinPepperPrevious
    ? new TextEncoder().encode(config.pinPepperPrevious)
    : undefined,
  mfaKey,
  auditPublicKey: auditSigner.publicKey,
  auditSigner,
  auditArchive,
  blobs,
  log,
});
// Deletes expired documents and then their bytes: now, then every hour.
// On a PostgreSQL server shared by several instances, one of them purges at a time (an advisory lock).
const retention = startRetentionPurge({ sql: db.sql, blobs, config, log }, {
  exclusive: db.kind === 'postgres',
});
// Delivers the e-mail outbox; idle while SMTP is not configured (settings of the email category).
const emailWorker = startEmailWorker(db.sql, { transport: config.smtp, logger: log, secretKey: mfaKey });

// Chains the audit rows and writes a signed checkpoint outside the database: every interval, and at shutdown;
// then moves the rows past audit_retention_days to the signed archive.
const auditCheckpoints = startAuditCheckpoints(
  {
    sql: db.sql,
    signer: auditSigner,
    store: createCheckpointStore(config),
    archive: auditArchive,
    log,
  },
  { intervalMs: config.auditCheckpointIntervalMs, exclusive: db.kind === 'postgres' },
);

// Requests go through the drain, so a shutdown can let uploads in flight finish arriving (http/drain.ts).
const drain = createDrain((request, info) => app.fetch(request, info));
const server = Deno.serve({
  port: config.port,
  hostname: config.host,
  onListen: ({ port }) => {
    if (config.logLevel === 'silent') return;
    const where = config.databaseUrl
      ? 'PostgreSQL (DATABASE_URL)'
      : `embedded Postgres in ${config.dataDir}/pgdata`;
    console.log(`Legal-mail portal on http://localhost:${port} — database: ${where}`);
    if (applied.length) console.log(`Applied migrations: ${applied.join(', ')}`);
    if (seeded) {
      console.log('Demo accounts:');
      for (const a of DEMO_ACCOUNTS) {
        console.log(`  ${a.role.padEnd(15)} ${a.username.padEnd(28)} ${a.secret}`);
      }
      console.log(
        'Second factors are required of no role in the demo (setting mfa_required_roles is none); ' +
          'a new production database requires them of admin and approver.',
      );
    }
  },
}, drain.fetch);

/**
 * Graceful shutdown: stop taking requests at once, let those in flight finish for up to 20 s (a slow upload on
 * a facility line; systemd's and the container's stop timeouts are longer), then close regardless. A second
 * signal while draining exits at once.
 */
const SHUTDOWN_DEADLINE_MS = 20_000;
let stopping = false;
const shutdown = async (signal: Deno.Signal) => {
  if (stopping) Deno.exit(1);
  stopping = true;
  log.info('shutting down: no new connections, finishing requests in flight', { signal });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<false>((
    resolve,
  ) => (timer = setTimeout(() => resolve(false), SHUTDOWN_DEADLINE_MS)));
  // Bodies still arriving first, then the listener closes and the answers being sent finish.
  const drained = await Promise.race([
    drain.drain().then(() => server.shutdown()).then(() => true),
    deadline,
  ]);
  clearTimeout(timer);
  if (!drained) {
    log.warn('shutdown deadline passed: closing with requests still open', {
      deadline_ms: SHUTDOWN_DEADLINE_MS,
    });
  }
  await emailWorker.stop();
  await retention.stop();
  // After the requests: the checkpoint covers every event they recorded.
  await auditCheckpoints.stop();
  await db.close();
  log.info('stopped');
  Deno.exit(0);
};
Deno.addSignalListener('SIGINT', () => shutdown('SIGINT'));
Deno.addSignalListener('SIGTERM', () => shutdown('SIGTERM'));
