/** An entity (department, facility) as the admin screens show it (GET /api/admin/entities). */
import type { Language } from '../languages.ts';

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
  /** What a signed-out tablet shows, and a user with no saved language sees ('en' unless changed). */
  default_language: Language;
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
  /** Absent: 'en' for a new entity, the current one on an edit. */
  default_language?: Language;
}

/** GET /api/admin/entities answer. */
export interface EntityListAnswer {
  success: true;
  entities: Entity[];
}

/** POST /api/admin/entities (201) and PUT /api/admin/entities/{id} answer: the entity as saved. */
export interface EntitySavedAnswer {
  success: true;
  message: string;
  data: { entity: Entity };
}
