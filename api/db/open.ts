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

/** Why a command may not open the embedded database now, in words that say what to do. */
export interface EmbeddedInUse {
  ok: false;
  message: string;
}

/**
 * The installation's database for a command that writes to it (admin:create, roster:import, blobs:encrypt, the key
 * rotations): as the portal opens it, migrated, but the embedded database only while the portal is stopped. The
 * embedded database is one process's: a second process would take over the portal's socket and write the same
 * files under the portal, whose next writes then fail (a duplicate audit row: every sign-in answers 500).
 */
export async function openDatabaseToWrite(
  config: Config,
  command: string,
): Promise<{ ok: true; db: Database } | EmbeddedInUse> {
  if (!config.databaseUrl) {
    const inUse = await embeddedInUse(config, command);
    if (inUse) return inUse;
  }
  const { db } = await openDatabase({ ...config, demoSeed: false });
  return { ok: true, db };
}

/**
 * The installation's database for a command that runs beside the portal (the doctor, audit:verify): PostgreSQL
 * as the service reaches it, or the embedded one only while the portal is stopped (it is one process's: opening
 * its files a second time could damage them). Never migrates.
 */
export async function openStoppedDatabase(config: Config, command: string): Promise<Database> {
  if (config.databaseUrl) return connectPostgres(config.databaseUrl, { max: 2 });
  await Deno.stat(`${config.dataDir}/pgdata`).catch(() => {
    throw new Error(`no embedded database in ${config.dataDir}/pgdata (the portal has never started there)`);
  });
  const inUse = await embeddedInUse(config, command);
  if (inUse) throw new Error(inUse.message);
  return await startEmbedded(`${config.dataDir}/pgdata`);
}

/** The refusal when a running portal's socket answers in DATA_DIR/pgdata/run (client.ts puts it there). */
export async function embeddedInUse(config: Config, command: string): Promise<EmbeddedInUse | undefined> {
  const dir = `${config.dataDir}/pgdata`;
  const answers = await Deno.connect({ transport: 'unix', path: `${dir}/run/.s.PGSQL.5432` })
    .then((c) => (c.close(), true), () => false);
  if (!answers) return undefined;
  return {
    ok: false,
    message: `the portal is running on the embedded database in ${dir}: stop the portal first, then run ` +
      `${command} (the embedded database is one process's; a second one would damage it)`,
  };
}
