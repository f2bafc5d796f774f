/** The entity calls of the admin portal (docs/api.md, Entities). */
import { apiRequest } from '../../../lib/api.ts';

export interface Entity {
  id: string;
  name: string;
  slug: string;
  status: string;
  user_count: number;
  email: string | null;
  phone: string | null;
  address: string | null;
  settings: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
}

/** The body of a create or an update. Blank optional fields are left out. */
export interface EntityPayload {
  name: string;
  slug: string;
  status: 'active' | 'inactive';
  email?: string;
  phone?: string;
  address?: string;
}

/** GET /api/admin/entities */
export async function listEntities(signal?: AbortSignal): Promise<Entity[]> {
  const body = await apiRequest<{ entities?: Entity[] }>('/admin/entities', { signal });
  return Array.isArray(body.entities) ? body.entities : [];
}

/** POST /api/admin/entities; resolves with the server's message. */
export async function createEntity(payload: EntityPayload): Promise<string | null> {
  const body = await apiRequest('/admin/entities', { body: payload });
  return body.message ?? null;
}

/** PUT /api/admin/entities/{id}; resolves with the server's message. */
export async function updateEntity(id: string, payload: EntityPayload): Promise<string | null> {
  const body = await apiRequest(`/admin/entities/${encodeURIComponent(id)}`, {
    method: 'PUT',
    body: payload,
  });
  return body.message ?? null;
}
