/**
 * An administrator made by the operator at the server's shell (`npm run admin:create`), the way into a new
 * installation that has no user yet and the way back in when every administrator is locked out. No password
 * ever passes through the command line or the shell's history: the account starts with a secret nobody knows,
 * and the command prints a single-use set-password link (a code without PORTAL_URL) valid ADMIN_LINK_MINUTES.
 *
 * The installation's first entity is the one everyone signs in to (the spec's fixed sign-in entity, slug
 * `default`), so an entity made on an empty installation takes that slug whatever its name, and its admins are
 * the department-wide administrators. Later entities take the slug that follows their name (spec section 4).
 */
import { insert_audit_event } from '../db/audit.ts';
import type { Sql, Tx } from '../db/client.ts';
import { find_entity_by_slug, insert_entity } from '../db/entities.ts';
import { insert_password_reset } from '../db/password_resets.ts';
import { put_setting } from '../db/settings.ts';
import { email_in_use, insert_user } from '../db/users.ts';
import { RESET_PASSWORD_PATH } from '../email/messages.ts';
import { DEPARTMENT_ENTITY_SLUG } from '../../contract/rules/admin_scope.ts';
import { isValidEmail } from '../../contract/rules/registration.ts';
import { checkSettingValue } from '../../contract/rules/settings.ts';
import { DEFAULT_LANGUAGE } from '../../contract/languages.ts';
import { checkEntityInput } from './entities.ts';
import type { Failure } from './outcome.ts';
import { ADMIN_LINK_MINUTES, newToken, tokenHash } from './password_reset.ts';
import { hashSecret } from './passwords.ts';

export interface AdminAccountRequest {
  email: string;
  firstName: string;
  lastName: string;
  /** An existing entity's slug, or a new entity to make first. */
  entity: { slug: string } | { newName: string; abbreviation?: string };
}

export interface AdminAccountMade {
  userId: string;
  entitySlug: string;
  entityCreated: boolean;
  /** An admin of the installation's first entity: manages every entity and the settings. */
  departmentWide: boolean;
  /** The set-password link (PORTAL_URL set) or the code to type on the portal's "Set a new password" page. */
  setPassword: string;
  minutes: number;
}

/** Why the command refused (api/cli/admin_create.ts words each for the operator at the shell). */
export type AdminAccountRefusal =
  | 'email_invalid'
  | 'entity_unknown'
  | 'entity_slug_taken'
  | 'abbreviation_not_first'
  | 'email_in_use';

/**
 * A refusal: one of the command's own, or a rule of the entity's fields or of the abbreviation setting (`failure`
 * and `message`: the same words the admin's screens show).
 */
export type AdminAccountOutcome =
  | { ok: true; made: AdminAccountMade }
  | { ok: false; refusal: AdminAccountRefusal; slug?: string }
  | { ok: false; refusal: 'entity_invalid'; failure: Failure }
  | { ok: false; refusal: 'abbreviation_invalid'; message: string };

type Refused = Exclude<AdminAccountOutcome, { ok: true }>;

async function entityFor(
  tx: Tx,
  wanted: AdminAccountRequest['entity'],
): Promise<{ ok: true; id: string; slug: string; created: boolean } | Refused> {
  if ('slug' in wanted) {
    const found = await find_entity_by_slug(tx, wanted.slug);
    return found
      ? { ok: true, id: found.id, slug: wanted.slug, created: false }
      : { ok: false, refusal: 'entity_unknown', slug: wanted.slug };
  }
  const [any] = await tx`select 1 from entities limit 1`;
  const first = !any;
  if (wanted.abbreviation !== undefined) {
    if (!first) return { ok: false, refusal: 'abbreviation_not_first' };
    const checked = checkSettingValue('department_abbreviation', {
      type: 'text',
      value: wanted.abbreviation,
    });
    if (!checked.ok) return { ok: false, refusal: 'abbreviation_invalid', message: checked.message };
    await put_setting(tx, 'department_abbreviation', checked.value);
  }
  const input = checkEntityInput({
    name: wanted.newName,
    slug: first ? DEPARTMENT_ENTITY_SLUG : '',
    status: 'active',
    default_language: DEFAULT_LANGUAGE,
  });
  if (!input.ok) return { ok: false, refusal: 'entity_invalid', failure: input };
  const created = await insert_entity(tx, input.fields);
  if (!created.ok) return { ok: false, refusal: 'entity_slug_taken', slug: input.fields.slug };
  await insert_audit_event(tx, {
    userId: null,
    eventType: 'entity_created',
    resourceType: 'entity',
    resourceId: created.id,
    ipAddress: null,
    eventData: { ...input.fields, via: 'admin:create' },
  });
  return { ok: true, id: created.id, slug: input.fields.slug, created: true };
}

/** A staff account of an entity: an admin, or an approver of its registrations. */
export interface StaffAccount {
  entityId: string;
  role: 'admin' | 'approver';
  /** Trimmed and lower-cased. */
  email: string;
  firstName: string;
  lastName: string;
}

/**
 * Stores an active staff account whose password is `unusableHash`, the hash of a secret nobody knows (hashed
 * before the transaction: hashing waits at the hashing gate), so nothing signs in to it until its owner uses a
 * set-password link. Both ways an account is made for someone else use it: `npm run admin:create` (the link
 * printed) and an admin's "Add Staff" (api/domain/staff_account.ts, the link e-mailed). Refused when the entity
 * has a user with this address already.
 */
export async function insertStaffAwaitingPassword(
  tx: Tx,
  account: StaffAccount,
  unusableHash: string,
): Promise<{ ok: true; id: string } | { ok: false }> {
  if (await email_in_use(tx, account.entityId, account.email)) return { ok: false };
  const user = await insert_user(tx, { ...account, status: 'active', passwordHash: unusableHash });
  return user.ok ? { ok: true, id: user.id } : { ok: false };
}

/** Makes an active admin (and first the entity, when asked), with a set-password link; one transaction. */
export async function createAdminAccount(
  sql: Sql,
  request: AdminAccountRequest,
  options: { portalUrl?: string },
): Promise<AdminAccountOutcome> {
  const email = request.email.trim().toLowerCase();
  if (!isValidEmail(email) || email.length > 254) return { ok: false, refusal: 'email_invalid' };
  // Nobody knows this secret: until the link is used, nothing signs in to the account.
  const unusableHash = await hashSecret(newToken(), undefined, { patient: true });
  const token = newToken();
  // A refusal after the entity or the setting was written undoes them with the transaction.
  class Refusal extends Error {
    constructor(readonly outcome: Refused) {
      super(outcome.refusal);
    }
  }
  try {
    return await sql.begin(async (tx): Promise<AdminAccountOutcome> => {
      const entity = await entityFor(tx, request.entity);
      if (!entity.ok) throw new Refusal(entity);
      const user = await insertStaffAwaitingPassword(tx, {
        entityId: entity.id,
        role: 'admin',
        email,
        firstName: request.firstName,
        lastName: request.lastName,
      }, unusableHash);
      if (!user.ok) throw new Refusal({ ok: false, refusal: 'email_in_use' });
      await insert_password_reset(tx, {
        tokenHash: await tokenHash(token),
        userId: user.id,
        purpose: 'admin_reset',
        createdBy: null,
        minutes: ADMIN_LINK_MINUTES,
      });
      await insert_audit_event(tx, {
        userId: null,
        eventType: 'user_created',
        resourceType: 'user',
        resourceId: user.id,
        ipAddress: null,
        eventData: { via: 'admin:create', role: 'admin', email, entity: entity.slug },
      });
      return {
        ok: true,
        made: {
          userId: user.id,
          entitySlug: entity.slug,
          entityCreated: entity.created,
          departmentWide: entity.slug === DEPARTMENT_ENTITY_SLUG,
          setPassword: options.portalUrl ? `${options.portalUrl}${RESET_PASSWORD_PATH}#${token}` : token,
          minutes: ADMIN_LINK_MINUTES,
        },
      };
    });
  } catch (error) {
    if (error instanceof Refusal) return error.outcome;
    throw error;
  }
}
