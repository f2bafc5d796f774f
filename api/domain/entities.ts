/** Entities (departments, facilities): the rules of their fields, creation and edits. */
import { insert_audit_event } from '../db/audit.ts';
import type { Sql } from '../db/client.ts';
import {
  type EntityFields,
  type EntityRow,
  find_entity,
  insert_entity,
  lock_entity,
  update_entity,
} from '../db/entities.ts';
import { revoke_entity_sessions } from '../db/sessions.ts';
import { isValidEmail } from '../../contract/rules/registration.ts';
import { hasUnsafeNameCharacters } from '../../contract/rules/names.ts';
import { isValidSlug, slugify } from '../../contract/rules/slug.ts';
import type { EntityRequest } from '../../contract/shapes/entity.ts';
import { DEFAULT_LANGUAGE } from '../../contract/languages.ts';
import type { Actor } from './actor.ts';
import { fail, type Outcome } from './outcome.ts';

/** Everyone signs in to this entity (spec section 3: the login's entity is the fixed value 'default'). */
export const SIGN_IN_ENTITY_SLUG = 'default';

const PHONE = /^[0-9 +().-]{1,40}$/;

function blankToNull(value: string | null | undefined): string | null {
  const text = value?.trim() ?? '';
  return text === '' ? null : text;
}

/** Trims and checks the fields; a blank slug is generated from the name (spec section 4). Pure. */
export function checkEntityInput(
  input: EntityRequest,
): Outcome<{ fields: EntityFields }> {
  const name = input.name.trim();
  if (!name) return fail('entity_name_required');
  if (name.length > 200) return fail('entity_name_too_long');
  if (hasUnsafeNameCharacters(name)) return fail('entity_name_characters');
  const given = input.slug?.trim() ?? '';
  const slug = given === '' ? slugify(name) : given;
  if (slug === '') return fail('entity_slug_not_derivable');
  if (!isValidSlug(slug)) return fail('entity_slug_invalid');
  const email = blankToNull(input.email)?.toLowerCase() ?? null;
  if (email !== null && (!isValidEmail(email) || email.length > 254)) return fail('entity_email_invalid');
  const phone = blankToNull(input.phone);
  if (phone !== null && !PHONE.test(phone)) return fail('entity_phone_invalid');
  const address = blankToNull(input.address);
  if (address !== null && address.length > 500) return fail('entity_address_too_long');
  const default_language = input.default_language ?? DEFAULT_LANGUAGE;
  return { ok: true, fields: { name, slug, status: input.status, email, phone, address, default_language } };
}

/** Creates an entity. */
export async function createEntity(
  sql: Sql,
  input: EntityRequest,
  actor: Actor,
): Promise<Outcome<{ entity: EntityRow }>> {
  const checked = checkEntityInput(input);
  if (!checked.ok) return checked;
  return await sql.begin(async (tx): Promise<Outcome<{ entity: EntityRow }>> => {
    const created = await insert_entity(tx, checked.fields);
    if (!created.ok) return fail('entity_slug_taken');
    await insert_audit_event(tx, {
      userId: actor.userId,
      eventType: 'entity_created',
      resourceType: 'entity',
      resourceId: created.id,
      ipAddress: actor.ipAddress,
      eventData: { ...checked.fields },
    });
    return { ok: true, entity: (await find_entity(tx, created.id))! };
  });
}

/** PostgreSQL's SQLSTATE for a unique index refusing a row. */
const UNIQUE_VIOLATION = '23505';

const EDITABLE: (keyof EntityFields)[] = [
  'name',
  'slug',
  'status',
  'email',
  'phone',
  'address',
  'default_language',
];

/**
 * Replaces an entity's fields (absent optional fields are cleared, except the default language, which an
 * absent one keeps); audits the fields that changed.
 */
export async function updateEntity(
  sql: Sql,
  id: string,
  input: EntityRequest,
  actor: Actor,
): Promise<Outcome<{ entity: EntityRow }>> {
  const checked = checkEntityInput(input);
  if (!checked.ok) return checked;
  return await sql.begin(async (tx): Promise<Outcome<{ entity: EntityRow }>> => {
    const current = await lock_entity(tx, id);
    // Another entity is as missing as an unknown one, except to the department's administrators.
    if (!current || (!actor.departmentAdmin && current.id !== actor.entityId)) {
      return fail('entity_not_found');
    }
    const next = { ...checked.fields, default_language: input.default_language ?? current.default_language };
    if (current.slug === SIGN_IN_ENTITY_SLUG && next.slug !== current.slug) {
      return fail('entity_default_slug');
    }
    // Deactivating one's own entity would end every session of it, the admin's included, and refuse their
    // sign-ins: nobody left could turn it back on. The row's id, not the one asked for (PostgreSQL finds a row
    // whatever the case of the id it is given).
    if (current.id === actor.entityId && current.status === 'active' && next.status !== 'active') {
      return fail('entity_own_deactivation');
    }
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    for (const field of EDITABLE) {
      if (current[field] !== next[field]) changes[field] = { from: current[field], to: next[field] };
    }
    // The savepoint turns a slug taken by a concurrent edit (the unique index fires) into the same entity_slug_taken.
    const updated = await tx.savepoint((sp) => update_entity(sp, id, next)).catch((error) => {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) return { ok: false as const };
      throw error;
    });
    if (!updated.ok) return fail('entity_slug_taken');
    // An entity that is no longer active ends its users' sessions in the same transaction, so a
    // later reactivation does not revive them; the guard also refuses any session of an inactive entity.
    const sessionsEnded = current.status === 'active' && next.status !== 'active'
      ? await revoke_entity_sessions(tx, id)
      : 0;
    await insert_audit_event(tx, {
      userId: actor.userId,
      eventType: 'entity_updated',
      resourceType: 'entity',
      resourceId: id,
      ipAddress: actor.ipAddress,
      eventData: sessionsEnded > 0 ? { changes, sessionsEnded } : { changes },
    });
    return { ok: true, entity: (await find_entity(tx, id))! };
  });
}
