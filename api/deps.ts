/** What every route and domain function may use; built once in main.ts (or by a test). */
import type { ArchiveStore } from './blobs/audit_archive_store.ts';
import type { BlobStore } from './blobs/types.ts';
import type { Config } from './config.ts';
import type { Sql } from './db/client.ts';
import type { Logger } from './log.ts';
import type { AuditSigner } from './domain/audit_signing.ts';

export interface AppDeps {
  sql: Sql;
  /** Where the guard's session check runs: Database.sessionSql on a real server; unset, `sql`. */
  sessionSql?: Sql;
  config: Config;
  /** HS256 key for session tokens. */
  signingKey: Uint8Array;
  /** SESSION_SECRET_PREVIOUS: tokens signed with it are still accepted until they expire (a rotation). */
  previousSigningKey?: Uint8Array;
  /** HMAC key of offenders' PIN hashes (api/domain/passwords.ts): PIN_PEPPER or the generated one. */
  pinPepper: Uint8Array;
  /** PIN_PEPPER_PREVIOUS: a PIN hashed under it verifies and is re-hashed under pinPepper at sign-in. */
  previousPinPepper?: Uint8Array;
  /** The key authenticator-app secrets are sealed and recovery codes hashed under (domain/mfa.ts). */
  mfaKey: Uint8Array;
  /** The audit checkpoints' Ed25519 public key, base64 (GET /api/audit/public-key); unset, none is served. */
  auditPublicKey?: string;
  /** The audit key, which also signs delivery receipts (domain/receipts.ts); unset, no receipt is signed. */
  auditSigner?: AuditSigner;
  /** Where audit rows past retention are archived (blobs/audit_archive_store.ts); unset, the one config names. */
  auditArchive?: ArchiveStore;
  /** Where documents' bytes live (BLOB_STORE). */
  blobs: BlobStore;
  /** The time readiness's cached probes count by (api/http/readiness.ts); unset, Date.now. A test's own clock. */
  clock?: () => number;
  /** Where log lines go; unset: built from config (LOG_FORMAT, LOG_LEVEL). */
  log?: Logger;
}
