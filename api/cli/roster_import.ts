/**
 * `npm run roster:import -- file.csv [--entity slug]`: imports an offender roster into the configured database
 * (DATABASE_URL, or the embedded one with the portal stopped) with the same rules as the admin screen, for a
 * nightly sync. Prints one line per row and the counts. Exit codes: 0 imported (even with rejected rows), 1 the
 * file was refused or the portal runs on the embedded database, 2 bad usage or unknown entity.
 */
import { loadConfig } from '../config.ts';
import { find_entity_by_slug } from '../db/entities.ts';
import { openDatabaseToWrite } from '../db/open.ts';
import { type ImportReportRow, importRoster, importSummary } from '../domain/offenders.ts';
import { checkDataKeys, keyRefusal } from '../domain/keys.ts';
import { ROSTER_MAX_BYTES, ROSTER_MESSAGES } from '../../contract/rules/roster.ts';

const USAGE = 'Usage: npm run roster:import -- file.csv [--entity slug]';

function parseArgs(args: string[]): { file: string; entity: string } | undefined {
  let file: string | undefined;
  let entity = 'default';
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--entity') entity = args[++i] ?? '';
    else if (args[i].startsWith('--entity=')) entity = args[i].slice('--entity='.length);
    else if (!file) file = args[i];
    else return undefined;
  }
  return file && entity ? { file, entity } : undefined;
}

/** One report line; the DOC number is JSON-quoted so a newline or a quote in it cannot break the line. */
function formatRow(r: ImportReportRow): string {
  return `line ${r.line}\t${r.outcome}\t${JSON.stringify(r.docNumber)}${r.reason ? `\t${r.reason}` : ''}`;
}

async function main(): Promise<number> {
  const args = parseArgs(Deno.args);
  if (!args) {
    console.error(USAGE);
    return 2;
  }
  let bytes: Uint8Array;
  try {
    const info = await Deno.stat(args.file);
    if (info.size > ROSTER_MAX_BYTES) {
      console.error(`${args.file}: ${ROSTER_MESSAGES.tooLarge}`);
      return 1;
    }
    bytes = await Deno.readFile(args.file);
  } catch (error) {
    console.error(`${args.file}: cannot read the file (${error instanceof Error ? error.message : error}).`);
    return 1;
  }
  const config = loadConfig();
  const opened = await openDatabaseToWrite(config, 'roster:import');
  if (!opened.ok) {
    console.error(`Not imported: ${opened.message}.`);
    return 1;
  }
  const db = opened.db;
  try {
    const entity = await find_entity_by_slug(db.sql, args.entity);
    if (!entity) {
      console.error(`No entity has the slug ${JSON.stringify(args.entity)}.`);
      return 2;
    }
    // PINs made under another pepper than the portal's would never verify: the same check as the start's.
    const keys = await checkDataKeys(db.sql, config, 'start');
    if (!keys.ok) {
      console.error(keyRefusal(keys).replace('Refusing to start', 'Refusing to import'));
      return 1;
    }
    const { pinPepper } = keys;
    const result = await importRoster({ sql: db.sql, pinPepper }, bytes, {
      userId: null,
      entityId: entity.id,
      ipAddress: null,
      source: 'cli',
    });
    if (!result.ok) {
      console.error(`${args.file}: ${result.message}`);
      return 1;
    }
    for (const row of result.report.rows) console.log(formatRow(row));
    console.log(importSummary(result.report));
    return 0;
  } finally {
    await db.close();
  }
}

Deno.exit(await main());
