/** Entities (departments or facilities) that users belong to. */
import type { Tx } from './client.ts';
import type { EntityStatus } from '../../contract/shapes/entity.ts';
import type { Language } from '../../contract/languages.ts';

export interface EntityRef {
  id: string;
  slug: string;
  name: string;
  status: string;
  default_language: Language;
}

/** The entity with this slug, or undefined. */
export async function find_entity_by_slug(sql: Tx, slug: string): Promise<EntityRef | undefined> {
  const [row] = await sql<
    EntityRef[]
  >`select id, slug, name, status, default_language from entities where slug = ${slug}`;
  return row;
}

/** An entity as the admin screens show it. */
export interface EntityRow {
  id: string;
  name: string;
  slug: string;
  status: EntityStatus;
  user_count: number;
  email: string | null;
  phone: string | null;
  address: string | null;
  default_language: Language;
  settings: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

/** The editable fields of an entity. */
export interface EntityFields {
  name: string;
  slug: string;
  status: EntityStatus;
  email: string | null;
  phone: string | null;
  address: string | null;
  default_language: Language;
}

const ENTITY_COLUMNS =
  `e.id, e.name, e.slug, e.status, e.email, e.phone, e.address, e.default_language, e.settings,
  e.created_at,
  e.updated_at, (select count(*)::int from users u where u.entity_id = e.id) as user_count`;

/** Every entity with its number of users, newest first. */
export function list_entities(sql: Tx): Promise<EntityRow[]> {
  return sql<EntityRow[]>`select ${
    sql.unsafe(ENTITY_COLUMNS)
  } from entities e order by e.created_at desc, e.id desc`;
}

/** One entity with its number of users. */
export async function find_entity(sql: Tx, id: string): Promise<EntityRow | undefined> {
  const [row] = await sql<EntityRow[]>`select ${
    sql.unsafe(ENTITY_COLUMNS)
  } from entities e where e.id = ${id}`;
  return row;
}

/** Locks one entity for an edit. */
export async function lock_entity(sql: Tx, id: string): Promise<EntityRow | undefined> {
  const [row] = await sql<EntityRow[]>`select ${
    sql.unsafe(ENTITY_COLUMNS)
  } from entities e where e.id = ${id} for update`;
  return row;
}

/** Creates an entity; a taken slug is an answer, not an exception. */
export async function insert_entity(
  sql: Tx,
  f: EntityFields,
): Promise<{ ok: true; id: string } | { ok: false; reason: 'duplicate_slug' }> {
  const [row] = await sql<{ id: string }[]>`
    insert into entities (name, slug, status, email, phone, address, default_language)
    values (${f.name}, ${f.slug}, ${f.status}, ${f.email}, ${f.phone}, ${f.address}, ${f.default_language})
    on conflict (slug) do nothing
    returning id`;
  return row ? { ok: true, id: row.id } : { ok: false, reason: 'duplicate_slug' };
}

/** Replaces the editable fields of an entity; a slug taken by another entity is an answer. */
export async function update_entity(
  sql: Tx,
  id: string,
  f: EntityFields,
): Promise<{ ok: true } | { ok: false; reason: 'duplicate_slug' }> {
  const [taken] = await sql`select 1 from entities where slug = ${f.slug} and id <> ${id}`;
  if (taken) return { ok: false, reason: 'duplicate_slug' };
  await sql`
    update entities set name = ${f.name}, slug = ${f.slug}, status = ${f.status}, email = ${f.email},
      phone = ${f.phone}, address = ${f.address}, default_language = ${f.default_language}, updated_at = now()
    where id = ${id}`;
  return { ok: true };
}
