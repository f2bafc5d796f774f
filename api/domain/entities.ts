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
import { isValidEmail } from '../../contract/rules/registration.ts';
import type { Outcome } from './registration.ts';
import { isValidSlug, slugify } from '../../contract/rules/slug.ts';
import type { Actor } from './user_admin.ts';

export const ENTITY_TEXTS = {
  created: 'Entity created successfully',
  updated: 'Entity updated successfully',
  nameRequired: 'Entity name is required',
  nameLong: 'Entity name must be at most 200 characters.',
  noSlug: 'A slug cannot be made from this name; please enter a slug.',
  badSlug:
    'Slug must be lower-case letters and digits, with single hyphens between words (at most 100 characters).',
  duplicateSlug: 'An entity with this slug already exists.',
  email: 'Please enter a valid email address',
  phone: 'Phone may contain only digits, spaces and + - ( ) . (at most 40 characters).',
  addressLong: 'Address must be at most 500 characters.',
  notFound: 'Entity not found.',
  defaultSlug: "The default entity's slug cannot be changed: every sign-in names it.",
} as const;

/** Everyone signs in to this entity (spec section 3: the login's entity is the fixed value 'default'). */
export const SIGN_IN_ENTITY_SLUG = 'default';

export interface EntityInput {
  name: string;
  slug?: string | null;
  status: 'active' | 'inactive';
  email?: string | null;
  phone?: string | null;
  address?: string | null;
}

const PHONE = /^[0-9 +().-]{1,40}$/;

function blankToNull(value: string | null | undefined): string | null {
  const text = value?.trim() ?? '';
  return text === '' ? null : text;
}

/** Trims and checks the fields; a blank slug is generated from the name (spec section 4). Pure. */
export function checkEntityInput(
  input: EntityInput,
): { ok: true; fields: EntityFields } | { ok: false; message: string } {
  const name = input.name.trim();
  if (!name) return { ok: false, message: ENTITY_TEXTS.nameRequired };
  if (name.length > 200) return { ok: false, message: ENTITY_TEXTS.nameLong };
  const given = input.slug?.trim() ?? '';
  const slug = given === '' ? slugify(name) : given;
  if (slug === '') return { ok: false, message: ENTITY_TEXTS.noSlug };
  if (!isValidSlug(slug)) return { ok: false, message: ENTITY_TEXTS.badSlug };
  const email = blankToNull(input.email)?.toLowerCase() ?? null;
  if (email !== null && (!isValidEmail(email) || email.length > 254)) {
    return { ok: false, message: ENTITY_TEXTS.email };
  }
  const phone = blankToNull(input.phone);
  if (phone !== null && !PHONE.test(phone)) return { ok: false, message: ENTITY_TEXTS.phone };
  const address = blankToNull(input.address);
  if (address !== null && address.length > 500) return { ok: false, message: ENTITY_TEXTS.addressLong };
  return { ok: true, fields: { name, slug, status: input.status, email, phone, address } };
}

/** Creates an entity. */
export async function createEntity(
  sql: Sql,
  input: EntityInput,
  actor: Actor,
): Promise<Outcome<{ entity: EntityRow }>> {
  const checked = checkEntityInput(input);
  if (!checked.ok) return { ok: false, status: 400, message: checked.message };
  return await sql.begin(async (tx): Promise<Outcome<{ entity: EntityRow }>> => {
    const created = await insert_entity(tx, checked.fields);
    if (!created.ok) return { ok: false, status: 409, message: ENTITY_TEXTS.duplicateSlug };
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

const EDITABLE: (keyof EntityFields)[] = ['name', 'slug', 'status', 'email', 'phone', 'address'];

/** Replaces an entity's fields (absent optional fields are cleared); audits the fields that changed. */
export async function updateEntity(
  sql: Sql,
  id: string,
  input: EntityInput,
  actor: Actor,
): Promise<Outcome<{ entity: EntityRow }>> {
  const checked = checkEntityInput(input);
  if (!checked.ok) return { ok: false, status: 400, message: checked.message };
  const next = checked.fields;
  return await sql.begin(async (tx): Promise<Outcome<{ entity: EntityRow }>> => {
    const current = await lock_entity(tx, id);
    if (!current) return { ok: false, status: 404, message: ENTITY_TEXTS.notFound };
    if (current.slug === SIGN_IN_ENTITY_SLUG && next.slug !== current.slug) {
      return { ok: false, status: 400, message: ENTITY_TEXTS.defaultSlug };
    }
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    for (const field of EDITABLE) {
      if (current[field] !== next[field]) changes[field] = { from: current[field], to: next[field] };
    }
    // The savepoint turns a slug taken by a concurrent edit (the unique index fires) into the same 409.
    const updated = await tx.savepoint((sp) => update_entity(sp, id, next)).catch((error) => {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) return { ok: false as const };
      throw error;
    });
    if (!updated.ok) return { ok: false, status: 409, message: ENTITY_TEXTS.duplicateSlug };
    await insert_audit_event(tx, {
      userId: actor.userId,
      eventType: 'entity_updated',
      resourceType: 'entity',
      resourceId: id,
      ipAddress: actor.ipAddress,
      eventData: { changes },
    });
    return { ok: true, entity: (await find_entity(tx, id))! };
  });
}
