/** `npm run db:migrate`: applies pending migrations to the configured database and exits. */
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/open.ts';

const config = loadConfig();
const { db, applied } = await openDatabase({ ...config, demoSeed: false });
console.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'The database is up to date.');
await db.close();
