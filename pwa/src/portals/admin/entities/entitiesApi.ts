/** The entity calls of the admin portal (docs/api.md, Entities). */
import type { Entity, EntityRequest, EntityStatus } from '../../../../../contract/shapes/entity.ts';
import { apiRequest } from '../../../lib/api.ts';

export type { Entity, EntityRequest, EntityStatus };

/** GET /api/admin/entities */
export async function listEntities(signal?: AbortSignal): Promise<Entity[]> {
  const body = await apiRequest<{ entities?: Entity[] }>('/admin/entities', { signal });
  return Array.isArray(body.entities) ? body.entities : [];
}

/** POST /api/admin/entities; resolves with the server's message. */
export async function createEntity(payload: EntityRequest): Promise<string | null> {
  const body = await apiRequest('/admin/entities', { body: payload });
  return body.message ?? null;
}

/** PUT /api/admin/entities/{id}; resolves with the server's message. */
export async function updateEntity(id: string, payload: EntityRequest): Promise<string | null> {
  const body = await apiRequest(`/admin/entities/${encodeURIComponent(id)}`, {
    method: 'PUT',
    body: payload,
  });
  return body.message ?? null;
}
