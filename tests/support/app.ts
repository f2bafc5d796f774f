/**
 * The API on a throwaway database, seeded with the demo data, driven through
 * `app.request` (no socket) with a chosen client address.
 */
import { createApp } from '../../api/app.ts';
import { createDocumentBlobStore } from '../../api/blobs/store.ts';
import { blobKekOf } from '../../api/domain/keys.ts';
import { loadConfig } from '../../api/config.ts';
import type { AppDeps } from '../../api/deps.ts';
import { DEMO_ACCOUNTS, seedDemo } from '../../api/cli/demo_seed.ts';
import { hashSecret } from '../../api/domain/passwords.ts';
import { TEST_ITERATIONS } from './factories.ts';
import { createTestDatabase, type TestDatabase } from './db.ts';
import { signerFromSeed } from '../../api/domain/audit_signing.ts';

/** The tests' audit signing key: a fixed seed, so a test may sign checkpoints the app's public key verifies. */
export const TEST_AUDIT_SEED = 'a1'.repeat(32);

/** The BLOB_KEY of test apps (the keys of every test app are fixed strings like it). */
export const TEST_BLOB_KEY = 'test-blob-key-'.repeat(3);

export interface TestApp {
  app: ReturnType<typeof createApp>;
  deps: AppDeps;
  db: TestDatabase;
  /** The fs store's folder (what DATA_DIR/blobs is to a server). */
  blobDir: string;
  close(): Promise<void>;
}

/** Builds the app on a fresh database with the demo entity and accounts (`demo: false`: an empty installation). */
export async function createTestApp(
  env: Record<string, string> = {},
  options: { demo?: boolean } = {},
): Promise<TestApp> {
  const db = await createTestDatabase();
  if (options.demo ?? true) {
    await seedDemo(db.sql);
    await lowerDemoWorkFactor(db);
  }
  // Blobs (BLOB_STORE=fs, the default) go to a temporary folder removed on close.
  const blobDir = await Deno.makeTempDir({ prefix: 'lmp-test-blobs-' });
  const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: '/nonexistent', ...env });
  const blobs = createDocumentBlobStore(
    { blobStore: config.blobStore, dataDir: blobDir, s3: config.s3 },
    db,
    {
      kek: await blobKekOf(new TextEncoder().encode(TEST_BLOB_KEY)),
    },
  );
  const auditSigner = await signerFromSeed(TEST_AUDIT_SEED, 'tests');
  const deps: AppDeps = {
    sql: db.sql,
    sessionSql: db.sessionSql,
    config,
    signingKey: new TextEncoder().encode('test-secret-'.repeat(4)),
    pinPepper: new TextEncoder().encode('test-pin-pepper-'.repeat(3)),
    mfaKey: new TextEncoder().encode('test-mfa-key-'.repeat(3)),
    auditPublicKey: auditSigner.publicKey,
    auditSigner,
    blobs,
  };
  return {
    app: createApp(deps),
    deps,
    db,
    blobDir,
    close: async () => {
      await db.drop();
      await Deno.remove(blobDir, { recursive: true }).catch(() => {});
    },
  };
}

/**
 * The demo accounts' secrets re-hashed at the tests' low work factor, as `makeUser` hashes (factories.ts): at
 * the full 600,000 iterations each demo sign-in cost a tenth of a second or more of a core, close to half of
 * what the API suites spent. Tests about the work factor itself hash their own accounts at the full cost; the
 * seeded hashes are checked in tests/api/demo_seed.test.ts, and the servers of the browser and deployment
 * tests keep them.
 */
async function lowerDemoWorkFactor(db: TestDatabase): Promise<void> {
  for (const account of DEMO_ACCOUNTS) {
    const hash = await hashSecret(account.secret, TEST_ITERATIONS, { patient: true });
    await db.sql`update users set password_hash = ${hash}
      where email = ${account.username} or doc_number = ${account.username}`;
  }
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  /** Sent as is (not JSON-encoded) when a string. */
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
  ip?: string;
}

export interface CallResult {
  status: number;
  headers: Headers;
  body: any;
}

/** One request to the app, as if from `ip` (default 127.0.0.1). */
export async function call(
  t: TestApp,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<CallResult> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: BodyInit | undefined;
  if (options.rawBody !== undefined) body = options.rawBody as BodyInit;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await t.app.request(path, { method, headers, body }, {
    remoteAddr: { hostname: options.ip ?? '127.0.0.1', port: 40000, transport: 'tcp' },
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch { /* not JSON: keep the text */ }
  return { status: response.status, headers: response.headers, body: parsed };
}

/** Signs in and returns the token (throws with the answer when it fails). */
export async function signIn(t: TestApp, username: string, password: string, ip?: string): Promise<string> {
  const r = await call(t, 'POST', '/api/auth/login', { body: { username, password, entity: 'default' }, ip });
  if (r.status !== 200) {
    throw new Error(`sign-in of ${username} failed: ${r.status} ${JSON.stringify(r.body)}`);
  }
  return r.body.token;
}

export const DEMO = {
  admin: ['admin@demo.test', 'Demo-Admin-2026!'],
  approver: ['approver@demo.test', 'Demo-Approver-2026!'],
  attorney: ['attorney@demo.test', 'Demo-Attorney-2026!'],
  representative: ['representative@demo.test', 'Demo-Rep-2026!'],
  offender: ['100001', '246810'],
  offender2: ['100002', '135790'],
} as const;

/** Deno.test options for files that hold a database open across tests. */
/** Sets a setting's value as the admin's Settings screen would (any JSON value). */
export async function setSetting(t: TestApp, key: string, value: unknown): Promise<void> {
  await t.deps.sql`update settings set value = jsonb_set(value, '{value}', ${
    t.deps.sql.json(value as never)
  }) where key = ${key}`;
}

export const DB_TEST = { sanitizeResources: false, sanitizeOps: false } as const;
