/** An entity (department, facility) as the admin screens show it (GET /api/admin/entities). */

export type EntityStatus = 'active' | 'inactive';

export interface Entity {
  id: string;
  name: string;
  slug: string;
  status: EntityStatus;
  user_count: number;
  email: string | null;
  phone: string | null;
  address: string | null;
  /** Never null: the column defaults to `{}`. */
  settings: Record<string, unknown>;
  /** ISO 8601. */
  created_at: string;
  /** ISO 8601. */
  updated_at: string;
}

/** POST /api/admin/entities and PUT /api/admin/entities/{id} body; a blank slug is made from the name. */
export interface EntityRequest {
  name: string;
  slug?: string | null;
  status: EntityStatus;
  email?: string | null;
  phone?: string | null;
  address?: string | null;
}
