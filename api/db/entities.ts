/** Entities (departments or facilities) that users belong to. */
import type { Tx } from './client.ts';

export interface EntityRef {
  id: string;
  slug: string;
  name: string;
  status: string;
}

/** The entity with this slug, or undefined. */
export async function find_entity_by_slug(sql: Tx, slug: string): Promise<EntityRef | undefined> {
  const [row] = await sql<EntityRef[]>`select id, slug, name, status from entities where slug = ${slug}`;
  return row;
}
