/**
 * `npm run db:migrate`: applies pending migrations and exits. It migrates MIGRATION_DATABASE_URL (the schema's
 * owner) when set, else DATABASE_URL, else the embedded database under DATA_DIR, and says which first: host,
 * port, database and role, never a password. The embedded database migrates only with the portal stopped (the
 * portal migrates it at each start anyway).
 */
import { loadConfig } from '../config.ts';
import { connectPostgres, type Database, startEmbedded } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { describeDatabaseUrl } from '../db/describe.ts';
import { embeddedInUse } from '../db/open.ts';

const config = loadConfig();
const url = config.migrationDatabaseUrl ?? config.databaseUrl;
const where = url ? describeDatabaseUrl(url) : `the embedded database in ${config.dataDir}/pgdata`;
console.log(`Migrating ${where}…`);
let db: Database | undefined;
try {
  const inUse = url ? undefined : await embeddedInUse(config, 'db:migrate');
  if (inUse) throw new Error(inUse.message);
  db = url ? connectPostgres(url, { max: 1 }) : await startEmbedded(`${config.dataDir}/pgdata`);
  const applied = await migrate(db.sql);
  console.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'The database is up to date.');
} catch (error) {
  console.error(`Not migrated: ${error instanceof Error ? error.message : error}`);
  Deno.exitCode = 1;
} finally {
  await db?.close();
}
