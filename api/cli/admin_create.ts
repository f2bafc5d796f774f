/**
 * `npm run admin:create -- --email EMAIL (--entity SLUG | --new-entity "NAME" [--abbreviation ABBR])
 * [--first-name NAME] [--last-name NAME]`: makes an active administrator in the configured database (DATABASE_URL,
 * or the embedded one) and prints the single-use set-password link (or code) on a line of its own. It takes no
 * password. On the embedded database it runs before the portal's first start or with the portal stopped, and
 * refuses while the portal runs there. Exit codes: 0 made, 1 refused (the reason is printed), 2 bad usage.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { openDatabaseToWrite } from '../db/open.ts';
import {
  type AdminAccountOutcome,
  type AdminAccountRequest,
  createAdminAccount,
} from '../domain/admin_account.ts';
import { failureMessage } from '../http/failures.ts';

const USAGE = `Usage: npm run admin:create -- --email EMAIL --entity SLUG
       npm run admin:create -- --email EMAIL --new-entity "NAME" [--abbreviation ABBR]
Options: --first-name NAME, --last-name NAME (default "Portal Administrator"; the admin can change them later).`;

function parse(args: string[]): AdminAccountRequest | undefined {
  try {
    const { values, positionals } = parseArgs({
      args,
      options: {
        email: { type: 'string' },
        entity: { type: 'string' },
        'new-entity': { type: 'string' },
        abbreviation: { type: 'string' },
        'first-name': { type: 'string', default: 'Portal' },
        'last-name': { type: 'string', default: 'Administrator' },
      },
      strict: true,
    });
    const newName = values['new-entity'];
    if (positionals.length || !values.email || (values.entity === undefined) === (newName === undefined)) {
      return undefined;
    }
    if (values.abbreviation !== undefined && newName === undefined) return undefined;
    return {
      email: values.email,
      firstName: values['first-name'].trim() || 'Portal',
      lastName: values['last-name'].trim() || 'Administrator',
      entity: newName === undefined
        ? { slug: values.entity! }
        : { newName, ...(values.abbreviation === undefined ? {} : { abbreviation: values.abbreviation }) },
    };
  } catch {
    return undefined;
  }
}

/** The refusal in words for the operator. */
function refusalText(outcome: Exclude<AdminAccountOutcome, { ok: true }>): string {
  switch (outcome.refusal) {
    case 'email_invalid':
      return 'That is not an e-mail address.';
    case 'entity_unknown':
      return `No entity has the slug ${JSON.stringify(outcome.slug)} (--new-entity "NAME" makes one).`;
    case 'entity_slug_taken':
      return `An entity with the slug ${
        JSON.stringify(outcome.slug)
      } exists already: use --entity ${outcome.slug}.`;
    case 'abbreviation_not_first':
      return '--abbreviation names the department and is set with its first entity; change it later in Settings.';
    case 'abbreviation_invalid':
      return outcome.message;
    case 'entity_invalid':
      return failureMessage(outcome.failure);
    case 'email_in_use':
      return 'A user of that entity already has this e-mail address.';
  }
}

async function main(): Promise<number> {
  const request = parse(Deno.args);
  if (!request) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  const opened = await openDatabaseToWrite(config, 'admin:create');
  if (!opened.ok) {
    console.error(`Not created: ${opened.message}.`);
    return 1;
  }
  const db = opened.db;
  try {
    const outcome = await createAdminAccount(db.sql, request, { portalUrl: config.portalUrl });
    if (!outcome.ok) {
      console.error(`Not created: ${refusalText(outcome)}`);
      return 1;
    }
    const made = outcome.made;
    const hours = made.minutes / 60;
    console.log(
      `${
        made.entityCreated ? `Created the entity "${made.entitySlug}" and` : 'Created'
      } the administrator ${request.email.trim().toLowerCase()} of entity "${made.entitySlug}"${
        made.departmentWide ? ' (department-wide: every entity, the settings and the e-mail outbox)' : ''
      }.`,
    );
    console.log(
      config.portalUrl
        ? `Open this link within ${hours} hours to set the password (it works once):`
        : `On the portal's "Set a new password" page (/reset-password), type this code within ${hours} hours (it works once):`,
    );
    console.log(made.setPassword);
    return 0;
  } finally {
    await db.close();
  }
}

Deno.exit(await main());
