/**
 * Configuration, parsed once at start-up from the environment by one zod schema.
 * Nothing else in the API reads the environment: the typed object is passed down.
 */
import { z } from 'zod';
import type { S3Settings } from './blobs/s3_client.ts';

const optionalText = z.string().optional();

/**
 * A key of at least 32 characters that is not the shipped examples' placeholder ('change-me-to-64-random-characters…'
 * is long enough to pass a length rule, and a copied example would run with a published key).
 */
const secret = (name: string) =>
  optionalText
    .refine((v) => v === undefined || v.length >= 32, { message: `${name} must be at least 32 characters` })
    .refine((v) => v === undefined || !/change-me/i.test(v), {
      message: `${name} is still the example's placeholder: set it to a random value (openssl rand -hex 32)`,
    });

/**
 * A variable set to nothing is unset, for every setting: an environment file's `DATA_DIR=` or compose's
 * `${DATA_DIR:-}` means the default (./data), never the empty path, which would put the embedded database at
 * /pgdata; `PORT=` means 5000, not a random port.
 */
const unsetWhenEmpty = (env: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: optionalText,
  MIGRATION_DATABASE_URL: optionalText,
  DATA_DIR: z.string().default('./data'),
  SESSION_SECRET: secret('SESSION_SECRET'),
  PIN_PEPPER: secret('PIN_PEPPER'),
  MFA_SECRET_KEY: secret('MFA_SECRET_KEY'),
  BLOB_KEY: secret('BLOB_KEY'),
  // Rotation (docs/operations.md, "Rotating a key"): the key being retired, still accepted while it is needed.
  SESSION_SECRET_PREVIOUS: secret('SESSION_SECRET_PREVIOUS'),
  PIN_PEPPER_PREVIOUS: secret('PIN_PEPPER_PREVIOUS'),
  MFA_SECRET_KEY_PREVIOUS: secret('MFA_SECRET_KEY_PREVIOUS'),
  BLOB_KEY_PREVIOUS: secret('BLOB_KEY_PREVIOUS'),
  // The Ed25519 seed the audit log's checkpoints are signed with (docs/operations.md, "Keys"); unset, one is
  // generated into DATA_DIR/audit-signing-key.
  AUDIT_SIGNING_KEY: optionalText.refine((v) => v === undefined || /^[0-9a-fA-F]{64}$/.test(v), {
    message: 'AUDIT_SIGNING_KEY must be 64 hexadecimal characters (openssl rand -hex 32)',
  }),
  // How often the audit chain is extended and a signed checkpoint written when it grew.
  AUDIT_CHECKPOINT_SECONDS: z.coerce.number().int().min(1).max(86400).default(60),
  // BLOB_STORE=s3: how long each checkpoint object is kept under Object Lock (compliance mode).
  AUDIT_CHECKPOINT_LOCK_DAYS: z.coerce.number().int().min(1).max(36500).default(365),
  // The bearer token Prometheus sends to GET /metrics; unset, the route does not exist.
  METRICS_TOKEN: secret('METRICS_TOKEN'),
  DEMO_SEED: z.enum(['0', '1']).optional(),
  TRUSTED_PROXIES: z.string().default(''),
  // Where people open the portal (https://mail.example.gov): the set-password e-mails link to it. Unset, they
  // carry the code to type on the portal's "Set a new password" page instead.
  PORTAL_URL: optionalText.refine((v) => v === undefined || /^https?:\/\/[^?#\s]+$/.test(v), {
    message: 'PORTAL_URL must be an http:// or https:// address (https://mail.example.gov)',
  }),
  PWA_DIST: z.string().default('./pwa/dist'),
  BLOB_STORE: z.enum(['fs', 'postgres', 's3'], { error: "BLOB_STORE must be 'fs', 'postgres' or 's3'" })
    .default('fs'),
  BLOB_OFFLOAD: z.enum(['off', 'nginx'], { error: "BLOB_OFFLOAD must be 'off' or 'nginx'" }).default('off'),
  // Where the API reaches the nginx in front for the offload canary (http://127.0.0.1:8080): a front that cannot
  // read the blobs is then not ready, and no read it could not serve is recorded (docs/operations.md).
  OFFLOAD_CHECK_URL: optionalText.refine((v) => v === undefined || /^https?:\/\/[^?#\s]+$/.test(v), {
    message: 'OFFLOAD_CHECK_URL must be an http:// or https:// address (http://127.0.0.1:8080)',
  }),
  // How often readiness may write its probe to the blob store and ask the front for the offload canary, whatever
  // the traffic (docs/operations.md, "Health"); a test's instance shortens it.
  READY_PROBE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  // A document read whose store sends nothing for this long is cut (docs/operations.md, "When the store fails").
  BLOB_READ_IDLE_SECONDS: z.coerce.number().int().min(1).max(600).default(30),
  // Set by Deno Deploy on every deployment: its instances share no disk and lose theirs on restart.
  DENO_DEPLOYMENT_ID: optionalText,
  UPLOADS_PER_SENDER: z.coerce.number().int().min(1).max(20).default(2),
  UPLOADS_IN_FLIGHT: z.coerce.number().int().min(1).max(200).default(16),
  UPLOAD_IDLE_SECONDS: z.coerce.number().int().min(1).max(600).default(30),
  UPLOAD_DEADLINE_SECONDS: z.coerce.number().int().min(10).max(7200).default(900),
  LOG_LEVEL: z.enum(['silent', 'info']).default('info'),
  // Unset: readable lines on a terminal, JSON lines for journald, a container runtime or a collector.
  LOG_FORMAT: z.enum(['json', 'text']).optional(),
  // The relay's login and TLS come from the environment, never the settings table (whose changes are audited
  // with their values); host, port and sender stay settings an admin changes without a restart.
  SMTP_USER: optionalText,
  SMTP_PASSWORD: optionalText,
  SMTP_TLS: z.enum(['starttls', 'implicit', 'none']).optional(),
  SMTP_CA_FILE: optionalText,
  // The object store of BLOB_STORE=s3 (read only then).
  S3_ENDPOINT: optionalText.refine((v) => v === undefined || /^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/.test(v), {
    message: 'S3_ENDPOINT must be an http:// or https:// address (https://s3.example.org)',
  }),
  S3_REGION: z.string().default('us-east-1'),
  // S3's bucket naming rules: 3-63 lower-case letters, digits, dots and hyphens.
  S3_BUCKET: optionalText.refine((v) => v === undefined || /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(v), {
    message: 'S3_BUCKET must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens',
  }),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false', '1', '0'], {
    error: 'S3_FORCE_PATH_STYLE must be true or false',
  })
    .default('true'),
  S3_PREFIX: optionalText.refine((v) => v === undefined || /^[A-Za-z0-9._\/-]{1,200}$/.test(v), {
    message: 'S3_PREFIX may hold letters, digits, dots, hyphens, underscores and slashes (portal/)',
  }),
}).refine((e) => !e.SMTP_USER === !e.SMTP_PASSWORD, {
  message: 'SMTP_USER and SMTP_PASSWORD are set together or not at all',
  path: ['SMTP_PASSWORD'],
}).refine((e) => e.BLOB_OFFLOAD === 'off' || e.BLOB_STORE === 'fs', {
  // nginx serves files from the fs store's folder; the postgres store has no file to hand it.
  message: "BLOB_OFFLOAD=nginx needs BLOB_STORE=fs (nginx serves the files of the fs store's folder)",
  path: ['BLOB_OFFLOAD'],
}).superRefine((e, context) => {
  if (e.BLOB_STORE !== 's3') return;
  const missing = (['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const)
    .filter((name) => !e[name]);
  if (missing.length) {
    context.addIssue({
      code: 'custom',
      message: `BLOB_STORE=s3 needs ${
        missing.join(', ')
      } (the bucket is the operator's; see docs/operations.md)`,
      path: [missing[0]],
    });
  }
});

/** BLOB_STORE=s3: where the objects go. The bucket exists already; the portal never creates one. */
export interface S3Config extends S3Settings {
  /** Put before every key (`portal/`), so the bucket can hold other things; empty: none. Ends with a slash. */
  prefix: string;
}

/**
 * How many uploads may be under way, and how slow one may be, counted before its body is read
 * (api/http/upload_gate.ts). Each number's reason is in .env.example and docs/operations.md.
 */
export interface UploadLimits {
  /** Uploads one sender may have under way at once (UPLOADS_PER_SENDER, default 2). */
  perSender: number;
  /** Uploads this process takes at once from everyone (UPLOADS_IN_FLIGHT, default 16). */
  inFlight: number;
  /** Longest wait for the next bytes of an upload's body (UPLOAD_IDLE_SECONDS, default 30). */
  idleMs: number;
  /** Longest an upload's whole body may take to arrive (UPLOAD_DEADLINE_SECONDS, default 900). */
  deadlineMs: number;
}

/** How the e-mail worker reaches the relay; the host, port and sender are settings (read each round). */
export interface SmtpConfig {
  /** Unset: implicit TLS when the port is 465, else STARTTLS (required). `none` only for a relay on localhost. */
  tls: 'starttls' | 'implicit' | 'none' | undefined;
  user: string | undefined;
  password: string | undefined;
  /** PEM file of a CA to trust besides the system's (a relay with a private or self-signed certificate). */
  caFile: string | undefined;
}

export interface Config {
  /**
   * PORTAL_URL without a trailing slash: the set-password e-mails' links start with it, and its host name and
   * origin are the passkeys' relying party (domain/webauthn.ts).
   */
  portalUrl?: string;
  port: number;
  host: string;
  /** Unset: the embedded Postgres (PGlite) under dataDir. */
  databaseUrl: string | undefined;
  /**
   * The schema owner's connection, used only to apply migrations; unset: DATABASE_URL's role migrates too
   * (docs/operations.md, "Database roles").
   */
  migrationDatabaseUrl: string | undefined;
  dataDir: string;
  /** Unset: a secret generated once and kept in dataDir (embedded default only). */
  sessionSecret: string | undefined;
  /**
   * The HMAC key PIN hashes are made under (passwords.ts); unset: a secret generated once and kept in dataDir.
   * Never in the database, so a stolen database does not give up the PINs.
   */
  pinPepper: string | undefined;
  /**
   * The key authenticator-app secrets are encrypted under and recovery codes are hashed under (domain/mfa.ts);
   * unset: a secret generated once and kept in dataDir. Never in the database or its backups.
   */
  mfaSecretKey: string | undefined;
  /**
   * The key documents' data keys are wrapped under (api/blobs/blob_key.ts); unset: a secret generated once and kept
   * in dataDir. Never in the database, the blob store or a backup.
   */
  blobKey: string | undefined;
  /**
   * The session signing key being retired: tokens it signed are still accepted until they expire (at most the
   * setting session_max_hours), new ones are signed with sessionSecret.
   */
  sessionSecretPrevious: string | undefined;
  /** The PIN pepper being retired: a PIN hashed under it verifies, and is re-hashed under pinPepper at sign-in. */
  pinPepperPrevious: string | undefined;
  /** The MFA key being retired: read only by `npm run keys:rotate-mfa`, which re-seals every secret under the new. */
  mfaSecretKeyPrevious: string | undefined;
  /** The BLOB_KEY being retired: read only by `npm run keys:rotate-blob`, which re-wraps every data key. */
  blobKeyPrevious: string | undefined;
  /**
   * The bearer token `GET /metrics` asks for (api/routes/metrics.ts); unset, the route does not exist (404), so an
   * installation that does not scrape shows nothing.
   */
  metricsToken: string | undefined;
  /**
   * The Ed25519 seed (64 hex characters) the audit checkpoints are signed with (domain/audit_signing.ts); unset:
   * generated once into dataDir. Never in the database.
   */
  auditSigningKey: string | undefined;
  /** How often the audit chain is extended and checkpointed (AUDIT_CHECKPOINT_SECONDS, 60). */
  auditCheckpointIntervalMs: number;
  /** BLOB_STORE=s3: days each checkpoint object stays under compliance-mode Object Lock (365). */
  auditCheckpointLockDays: number;
  /** Seed the demo data on an empty database. */
  demoSeed: boolean;
  /** Direct peers whose X-Forwarded-For is believed. */
  trustedProxies: string[];
  pwaDist: string;
  blobStore: 'fs' | 'postgres' | 's3';
  /** Set when blobStore is 's3'. */
  s3?: S3Config;
  /**
   * `nginx`: a document's bytes are sent by the nginx in front (X-Accel-Redirect to its internal /_blobs/
   * location, deploy/nginx/portal-blobs.conf) once the API has checked, authorized and audited the request.
   * Only with the fs store, and only behind that nginx: without it a reader gets an empty answer.
   */
  blobOffload: 'off' | 'nginx';
  /**
   * OFFLOAD_CHECK_URL without a trailing slash: the front's address as the API reaches it, for the offload canary
   * (api/http/blob_offload.ts checkOffloadCanary). Unset: the canary is not run.
   */
  offloadCheckUrl: string | undefined;
  /** Readiness's costly probes run at most once per this (READY_PROBE_SECONDS, 60), whatever the traffic. */
  readyProbeIntervalMs: number;
  /** Longest a document read waits for the store's next bytes before it is cut (BLOB_READ_IDLE_SECONDS, 30). */
  blobReadIdleMs: number;
  uploads: UploadLimits;
  logLevel: 'silent' | 'info';
  /** JSON lines for a log collector, or text for a terminal. */
  logFormat: 'json' | 'text';
  smtp: SmtpConfig;
}

/** Parses the environment (or a test's record) into a Config; throws a readable error on bad values. */
export function loadConfig(
  env: Record<string, string | undefined> = Deno.env.toObject(),
  /** Whether the log goes to a terminal (LOG_FORMAT's default); unset: whether stdout is one. */
  options: { terminal?: boolean } = {},
): Config {
  const parsed = envSchema.safeParse(unsetWhenEmpty(env));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Invalid configuration: ${issue.path.join('.')}: ${issue.message}`);
  }
  const e = parsed.data;
  if (e.DENO_DEPLOYMENT_ID) refuseThrowawayState(e);
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    migrationDatabaseUrl: e.MIGRATION_DATABASE_URL,
    dataDir: e.DATA_DIR,
    sessionSecret: e.SESSION_SECRET,
    pinPepper: e.PIN_PEPPER,
    mfaSecretKey: e.MFA_SECRET_KEY,
    blobKey: e.BLOB_KEY,
    sessionSecretPrevious: e.SESSION_SECRET_PREVIOUS,
    pinPepperPrevious: e.PIN_PEPPER_PREVIOUS,
    mfaSecretKeyPrevious: e.MFA_SECRET_KEY_PREVIOUS,
    blobKeyPrevious: e.BLOB_KEY_PREVIOUS,
    metricsToken: e.METRICS_TOKEN,
    auditSigningKey: e.AUDIT_SIGNING_KEY,
    auditCheckpointIntervalMs: e.AUDIT_CHECKPOINT_SECONDS * 1000,
    auditCheckpointLockDays: e.AUDIT_CHECKPOINT_LOCK_DAYS,
    // The embedded default is a demo: it seeds. A real server seeds only when asked.
    demoSeed: e.DATABASE_URL ? e.DEMO_SEED === '1' : e.DEMO_SEED !== '0',
    portalUrl: e.PORTAL_URL?.replace(/\/+$/, ''),
    trustedProxies: e.TRUSTED_PROXIES.split(',').map((s) => s.trim()).filter(Boolean),
    pwaDist: e.PWA_DIST,
    blobStore: e.BLOB_STORE,
    s3: e.BLOB_STORE === 's3'
      ? {
        endpoint: e.S3_ENDPOINT!,
        region: e.S3_REGION,
        bucket: e.S3_BUCKET!,
        accessKeyId: e.S3_ACCESS_KEY_ID!,
        secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
        forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true' || e.S3_FORCE_PATH_STYLE === '1',
        prefix: folder(e.S3_PREFIX),
      }
      : undefined,
    blobOffload: e.BLOB_OFFLOAD,
    offloadCheckUrl: e.OFFLOAD_CHECK_URL?.replace(/\/+$/, ''),
    blobReadIdleMs: e.BLOB_READ_IDLE_SECONDS * 1000,
    readyProbeIntervalMs: e.READY_PROBE_SECONDS * 1000,
    uploads: {
      perSender: e.UPLOADS_PER_SENDER,
      inFlight: e.UPLOADS_IN_FLIGHT,
      idleMs: e.UPLOAD_IDLE_SECONDS * 1000,
      deadlineMs: e.UPLOAD_DEADLINE_SECONDS * 1000,
    },
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT ?? (options.terminal ?? Deno.stdout.isTerminal() ? 'text' : 'json'),
    smtp: { tls: e.SMTP_TLS, user: e.SMTP_USER, password: e.SMTP_PASSWORD, caFile: e.SMTP_CA_FILE },
  };
}

/** `portal`, `/portal/` → `portal/`; unset or only slashes → no prefix. */
function folder(prefix: string | undefined): string {
  const trimmed = (prefix ?? '').replace(/^\/+|\/+$/g, '');
  return trimmed ? `${trimmed}/` : '';
}

/**
 * On Deno Deploy each instance's disk is private and thrown away: an embedded database, `fs` blobs, or a
 * session secret or PIN pepper generated into DATA_DIR would each be lost, or differ between instances.
 * Refuse to start.
 */
function refuseThrowawayState(
  e: {
    DATABASE_URL?: string;
    BLOB_STORE: string;
    SESSION_SECRET?: string;
    PIN_PEPPER?: string;
    MFA_SECRET_KEY?: string;
    BLOB_KEY?: string;
  },
): void {
  const needs: string[] = [];
  if (!e.DATABASE_URL) {
    needs.push('DATABASE_URL (a PostgreSQL database; the embedded one would live on a throwaway disk)');
  }
  if (e.BLOB_STORE === 'fs') {
    needs.push(
      'BLOB_STORE=s3 (an object store, recommended) or BLOB_STORE=postgres (the fs store writes documents to a throwaway disk)',
    );
  }
  if (!e.SESSION_SECRET) needs.push('SESSION_SECRET (a generated one would differ on every instance)');
  if (!e.PIN_PEPPER) {
    needs.push(
      'PIN_PEPPER (a generated one would differ on every instance, and PINs hashed under it would not verify)',
    );
  }
  if (!e.MFA_SECRET_KEY) {
    needs.push(
      'MFA_SECRET_KEY (a generated one would differ on every instance, and authenticator apps enrolled under it would not verify)',
    );
  }
  if (!e.BLOB_KEY) {
    needs.push('BLOB_KEY (a generated one would differ on every instance, and no document could be opened)');
  }
  if (needs.length) {
    throw new Error(
      `Refusing to start on Deno Deploy without ${needs.join('; ')}. See deploy/deno-deploy.md.`,
    );
  }
}
