/**
 * Configuration, parsed once at start-up from the environment by one zod schema.
 * Nothing else in the API reads the environment: the typed object is passed down.
 */
import { z } from 'zod';

const optionalText = z.preprocess((v) => (v === '' ? undefined : v), z.string().optional());

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: optionalText,
  MIGRATION_DATABASE_URL: optionalText,
  DATA_DIR: z.string().default('./data'),
  SESSION_SECRET: optionalText.refine((v) => v === undefined || v.length >= 32, {
    message: 'SESSION_SECRET must be at least 32 characters',
  }),
  DEMO_SEED: z.enum(['0', '1', '']).optional(),
  TRUSTED_PROXIES: z.string().default(''),
  PWA_DIST: z.string().default('./pwa/dist'),
  BLOB_STORE: z.enum(['fs', 'postgres']).default('fs'),
  LOG_LEVEL: z.enum(['silent', 'info']).default('info'),
});

export interface Config {
  port: number;
  host: string;
  /** Unset: the embedded Postgres (PGlite) under dataDir. */
  databaseUrl: string | undefined;
  /**
   * The schema owner's connection, used only to apply migrations; unset: DATABASE_URL's role migrates too
   * (README, "Database roles").
   */
  migrationDatabaseUrl: string | undefined;
  dataDir: string;
  /** Unset: a secret generated once and kept in dataDir (embedded default only). */
  sessionSecret: string | undefined;
  /** Seed the demo data on an empty database. */
  demoSeed: boolean;
  /** Direct peers whose X-Forwarded-For is believed. */
  trustedProxies: string[];
  pwaDist: string;
  blobStore: 'fs' | 'postgres';
  logLevel: 'silent' | 'info';
}

/** Parses the environment (or a test's record) into a Config; throws a readable error on bad values. */
export function loadConfig(env: Record<string, string | undefined> = Deno.env.toObject()): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Invalid configuration: ${issue.path.join('.')}: ${issue.message}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    migrationDatabaseUrl: e.MIGRATION_DATABASE_URL,
    dataDir: e.DATA_DIR,
    sessionSecret: e.SESSION_SECRET,
    // The embedded default is a demo: it seeds. A real server seeds only when asked.
    demoSeed: e.DATABASE_URL ? e.DEMO_SEED === '1' : e.DEMO_SEED !== '0',
    trustedProxies: e.TRUSTED_PROXIES.split(',').map((s) => s.trim()).filter(Boolean),
    pwaDist: e.PWA_DIST,
    blobStore: e.BLOB_STORE,
    logLevel: e.LOG_LEVEL,
  };
}
