/**
 * A throwaway database per test file: in-memory PGlite by default, or a fresh
 * database on the server named by TEST_DATABASE_URL when TEST_BACKEND=postgres.
 * Either way it is migrated, and dropped when the file is done.
 */
import postgres from 'postgres';
import { connectPostgres, type Database, startEmbedded } from '../../api/db/client.ts';
import { migrate } from '../../api/db/migrate.ts';

export type Backend = 'pglite' | 'postgres';

/** The backend this run tests against (the runner runs the API suite once per backend). */
export function testBackend(): Backend {
  return Deno.env.get('TEST_BACKEND') === 'postgres' ? 'postgres' : 'pglite';
}

export interface TestDatabase extends Database {
  /** A connection string for another client (real PostgreSQL only). */
  url?: string;
  /** Closes the connection and removes the database. */
  drop(): Promise<void>;
}

/** A migrated (unless told otherwise), empty database of this run's backend. */
export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const migrated = options.migrate ?? true;
  if (testBackend() === 'pglite') {
    const db = await startEmbedded(undefined);
    if (migrated) await migrate(db.sql);
    return { ...db, drop: () => db.close() };
  }
  const serverUrl = Deno.env.get('TEST_DATABASE_URL');
  if (!serverUrl) throw new Error('TEST_BACKEND=postgres needs TEST_DATABASE_URL');
  const name = `lmp_test_${Date.now()}_${crypto.randomUUID().slice(0, 8)}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = connectPostgres(url.toString(), { max: 5 });
  if (migrated) await migrate(db.sql);
  return {
    ...db,
    url: url.toString(),
    async drop() {
      await db.close();
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}
