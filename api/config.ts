/**
 * Configuration, parsed once at start-up from the environment by one zod schema.
 * Nothing else in the API reads the environment: the typed object is passed down.
 */
import { z } from 'zod';

const optionalText = z.preprocess((v) => (v === '' ? undefined : v), z.string().optional());

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

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: optionalText,
  MIGRATION_DATABASE_URL: optionalText,
  DATA_DIR: z.string().default('./data'),
  SESSION_SECRET: secret('SESSION_SECRET'),
  PIN_PEPPER: secret('PIN_PEPPER'),
  DEMO_SEED: z.enum(['0', '1', '']).optional(),
  TRUSTED_PROXIES: z.string().default(''),
  PWA_DIST: z.string().default('./pwa/dist'),
  BLOB_STORE: z.enum(['fs', 'postgres']).default('fs'),
  BLOB_OFFLOAD: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(['off', 'nginx'], { error: "BLOB_OFFLOAD must be 'off' or 'nginx'" }).default('off'),
  ),
  // Set by Deno Deploy on every deployment: its instances share no disk and lose theirs on restart.
  DENO_DEPLOYMENT_ID: optionalText,
  LOG_LEVEL: z.enum(['silent', 'info']).default('info'),
  LOG_FORMAT: z.enum(['json', 'text']).default('json'),
  // The relay's login and TLS come from the environment, never the settings table (whose changes are audited
  // with their values); host, port and sender stay settings an admin changes without a restart.
  SMTP_USER: optionalText,
  SMTP_PASSWORD: optionalText,
  SMTP_TLS: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(['starttls', 'implicit', 'none']).optional(),
  ),
  SMTP_CA_FILE: optionalText,
}).refine((e) => !e.SMTP_USER === !e.SMTP_PASSWORD, {
  message: 'SMTP_USER and SMTP_PASSWORD are set together or not at all',
  path: ['SMTP_PASSWORD'],
}).refine((e) => e.BLOB_OFFLOAD === 'off' || e.BLOB_STORE === 'fs', {
  // nginx serves files from the fs store's folder; the postgres store has no file to hand it.
  message: "BLOB_OFFLOAD=nginx needs BLOB_STORE=fs (nginx serves the files of the fs store's folder)",
  path: ['BLOB_OFFLOAD'],
});

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
  /** Seed the demo data on an empty database. */
  demoSeed: boolean;
  /** Direct peers whose X-Forwarded-For is believed. */
  trustedProxies: string[];
  pwaDist: string;
  blobStore: 'fs' | 'postgres';
  /**
   * `nginx`: a document's bytes are sent by the nginx in front (X-Accel-Redirect to its internal /_blobs/
   * location, deploy/nginx/portal-blobs.conf) once the API has checked, authorized and audited the request.
   * Only with the fs store, and only behind that nginx: without it a reader gets an empty answer.
   */
  blobOffload: 'off' | 'nginx';
  logLevel: 'silent' | 'info';
  /** JSON lines for a log collector, or text for a terminal. */
  logFormat: 'json' | 'text';
  smtp: SmtpConfig;
}

/** Parses the environment (or a test's record) into a Config; throws a readable error on bad values. */
export function loadConfig(env: Record<string, string | undefined> = Deno.env.toObject()): Config {
  const parsed = envSchema.safeParse(env);
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
    // The embedded default is a demo: it seeds. A real server seeds only when asked.
    demoSeed: e.DATABASE_URL ? e.DEMO_SEED === '1' : e.DEMO_SEED !== '0',
    trustedProxies: e.TRUSTED_PROXIES.split(',').map((s) => s.trim()).filter(Boolean),
    pwaDist: e.PWA_DIST,
    blobStore: e.BLOB_STORE,
    blobOffload: e.BLOB_OFFLOAD,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    smtp: { tls: e.SMTP_TLS, user: e.SMTP_USER, password: e.SMTP_PASSWORD, caFile: e.SMTP_CA_FILE },
  };
}

/**
 * On Deno Deploy each instance's disk is private and thrown away: an embedded database, `fs` blobs, or a
 * session secret or PIN pepper generated into DATA_DIR would each be lost, or differ between instances.
 * Refuse to start.
 */
function refuseThrowawayState(
  e: { DATABASE_URL?: string; BLOB_STORE: string; SESSION_SECRET?: string; PIN_PEPPER?: string },
): void {
  const needs: string[] = [];
  if (!e.DATABASE_URL) {
    needs.push('DATABASE_URL (a PostgreSQL database; the embedded one would live on a throwaway disk)');
  }
  if (e.BLOB_STORE !== 'postgres') {
    needs.push('BLOB_STORE=postgres (the fs store writes documents to a throwaway disk)');
  }
  if (!e.SESSION_SECRET) needs.push('SESSION_SECRET (a generated one would differ on every instance)');
  if (!e.PIN_PEPPER) {
    needs.push(
      'PIN_PEPPER (a generated one would differ on every instance, and PINs hashed under it would not verify)',
    );
  }
  if (needs.length) {
    throw new Error(
      `Refusing to start on Deno Deploy without ${needs.join('; ')}. See deploy/deno-deploy.md.`,
    );
  }
}
