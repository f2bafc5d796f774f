/**
 * The environment as an operator's env file writes it (api/config.ts): a variable set to nothing is the same as a
 * variable left out, so `DATA_DIR=` keeps the embedded database in ./data rather than at /pgdata.
 */
import assert from 'node:assert/strict';
import { loadConfig } from '../../api/config.ts';

/** Every setting that has a default or may be left unset, each set to nothing. */
const EMPTY = Object.fromEntries(
  [
    'PORT',
    'HOST',
    'DATABASE_URL',
    'MIGRATION_DATABASE_URL',
    'DATA_DIR',
    'SESSION_SECRET',
    'PIN_PEPPER',
    'MFA_SECRET_KEY',
    'BLOB_KEY',
    'SESSION_SECRET_PREVIOUS',
    'PIN_PEPPER_PREVIOUS',
    'MFA_SECRET_KEY_PREVIOUS',
    'BLOB_KEY_PREVIOUS',
    'AUDIT_SIGNING_KEY',
    'AUDIT_CHECKPOINT_SECONDS',
    'AUDIT_CHECKPOINT_LOCK_DAYS',
    'METRICS_TOKEN',
    'DEMO_SEED',
    'TRUSTED_PROXIES',
    'PORTAL_URL',
    'PWA_DIST',
    'BLOB_STORE',
    'BLOB_OFFLOAD',
    'OFFLOAD_CHECK_URL',
    'READY_PROBE_SECONDS',
    'BLOB_READ_IDLE_SECONDS',
    'DENO_DEPLOYMENT_ID',
    'UPLOADS_PER_SENDER',
    'UPLOADS_IN_FLIGHT',
    'UPLOAD_IDLE_SECONDS',
    'UPLOAD_DEADLINE_SECONDS',
    'LOG_LEVEL',
    'LOG_FORMAT',
    'SMTP_USER',
    'SMTP_PASSWORD',
    'SMTP_TLS',
    'SMTP_CA_FILE',
    'S3_ENDPOINT',
    'S3_REGION',
    'S3_BUCKET',
    'S3_ACCESS_KEY_ID',
    'S3_SECRET_ACCESS_KEY',
    'S3_FORCE_PATH_STYLE',
    'S3_PREFIX',
  ].map((name) => [name, '']),
);

Deno.test('DATA_DIR= (set to nothing) keeps the embedded database in ./data, as DATA_DIR left out does', () => {
  assert.equal(loadConfig({ DATA_DIR: '' }).dataDir, './data');
  assert.equal(loadConfig({ DATA_DIR: '/var/lib/legal-mail-portal' }).dataDir, '/var/lib/legal-mail-portal');
});

Deno.test('every variable set to nothing reads as left out: the same configuration as an empty environment', () => {
  const options = { terminal: false };
  assert.deepEqual(loadConfig(EMPTY, options), loadConfig({}, options));
  const config = loadConfig({ PORT: '', HOST: '', PWA_DIST: '' }, options);
  assert.equal(config.port, 5000, 'PORT= is the default port, not a random one');
  assert.equal(config.host, '0.0.0.0');
  assert.equal(config.pwaDist, './pwa/dist');
  assert.equal(config.databaseUrl, undefined, 'DATABASE_URL= is the embedded database');
});
