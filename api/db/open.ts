/** Opens the configured database, brings its schema up to date, and seeds the demo data when asked. */
import type { Config } from '../config.ts';
import { seedDemo } from '../cli/demo_seed.ts';
import { connectPostgres, type Database, startEmbedded } from './client.ts';
import { migrate } from './migrate.ts';

export interface OpenedDatabase {
  db: Database;
  applied: string[];
  seeded: boolean;
}

/** DATABASE_URL, or the embedded PGlite stored under DATA_DIR/pgdata. */
export async function openDatabase(config: Config): Promise<OpenedDatabase> {
  const db = config.databaseUrl
    ? connectPostgres(config.databaseUrl)
    : await startEmbedded(`${config.dataDir}/pgdata`);
  try {
    const applied = await migrateAsOwner(config, db);
    const seeded = config.demoSeed ? await seedDemo(db.sql) : false;
    return { db, applied, seeded };
  } catch (error) {
    await db.close();
    throw error;
  }
}

/** Migrates through MIGRATION_DATABASE_URL (the owner) when it is set, else through the open connection. */
async function migrateAsOwner(config: Config, db: Database): Promise<string[]> {
  if (!config.databaseUrl || !config.migrationDatabaseUrl) return await migrate(db.sql);
  const owner = connectPostgres(config.migrationDatabaseUrl, { max: 1 });
  try {
    const applied = await migrate(owner.sql);
    // The API's role adds the catalogue's missing settings too; harmless when the owner already did.
    await migrate(db.sql);
    return applied;
  } finally {
    await owner.close();
  }
}
