/**
 * /api/admin/entities: list, create and edit entities. The department's administrators list, create and edit every
 * entity; any other admin sees and edits only their own (another entity answers 404) and creates none.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { type EntityRow, find_entity, list_entities } from '../db/entities.ts';
import { actorFrom } from '../domain/actor.ts';
import { createEntity, updateEntity } from '../domain/entities.ts';
import type { Entity, EntityRequest } from '../../contract/shapes/entity.ts';
import { LANGUAGES } from '../../contract/languages.ts';
import type { AppEnv } from '../http/context.ts';
import { failureError, failureText } from '../http/failures.ts';
import { requireDepartmentAdmin, requireRole } from '../http/guard.ts';
import { SUCCESS } from '../http/messages.ts';
import { canonicalUuid, jsonBodyLimit, valid } from '../http/validate.ts';
import type { EntityListAnswer, EntitySavedAnswer } from '../../contract/shapes/entity.ts';

function toEntity(row: EntityRow): Entity {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    status: row.status,
    user_count: row.user_count,
    email: row.email,
    phone: row.phone,
    address: row.address,
    default_language: row.default_language,
    settings: row.settings,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

const idParam = z.object({ id: canonicalUuid(failureText('entity_not_found')) });
/** Lengths are checked by checkEntityInput after trimming; these caps only bound what is read. */
const optionalText = (field: string) =>
  z.string({ error: `${field} must be text.` }).max(2000, `${field} is too long.`).nullish();
const entityBody = z.object({
  name: z.string({ error: failureText('entity_name_required') }).max(
    2000,
    failureText('entity_name_too_long'),
  ),
  slug: optionalText('Slug'),
  status: z.enum(['active', 'inactive'], { error: "Status must be 'active' or 'inactive'." }),
  email: optionalText('Email'),
  phone: optionalText('Phone'),
  address: optionalText('Address'),
  default_language: z.enum(LANGUAGES, { error: "Default language must be 'en' or 'es'." }).optional(),
}) satisfies z.ZodType<EntityRequest>;

export const adminEntityRoutes = new Hono<AppEnv>()
  .use(requireRole(['admin']), jsonBodyLimit)
  .get('/', async (c) => {
    const { sql } = c.var.deps;
    const actor = actorFrom(c.var.session, c.var.clientAddress);
    const entities = actor.departmentAdmin
      ? await list_entities(sql)
      : [await find_entity(sql, actor.entityId)].filter((e): e is EntityRow => e !== undefined);
    return c.json({ success: true, entities: entities.map(toEntity) } satisfies EntityListAnswer);
  })
  .post('/', requireDepartmentAdmin, valid('json', entityBody), async (c) => {
    const result = await createEntity(
      c.var.deps.sql,
      c.req.valid('json'),
      actorFrom(c.var.session, c.var.clientAddress),
    );
    if (!result.ok) throw failureError(result);
    return c.json(
      {
        success: true,
        message: SUCCESS.entityCreated,
        data: { entity: toEntity(result.entity) },
      } satisfies EntitySavedAnswer,
      201,
    );
  })
  .put('/:id', valid('param', idParam), valid('json', entityBody), async (c) => {
    const result = await updateEntity(
      c.var.deps.sql,
      c.req.valid('param').id,
      c.req.valid('json'),
      actorFrom(c.var.session, c.var.clientAddress),
    );
    if (!result.ok) throw failureError(result);
    return c.json(
      {
        success: true,
        message: SUCCESS.entityUpdated,
        data: { entity: toEntity(result.entity) },
      } satisfies EntitySavedAnswer,
    );
  });
