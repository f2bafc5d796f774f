/** /api/admin/entities: list, create and edit entities (admins only). */
import { Hono } from 'hono';
import { z } from 'zod';
import { list_entities } from '../db/entities.ts';
import { createEntity, ENTITY_TEXTS, updateEntity } from '../domain/entities.ts';
import { actorFrom } from '../domain/user_admin.ts';
import type { AppEnv } from '../http/context.ts';
import { AppError } from '../http/errors.ts';
import { requireRole } from '../http/guard.ts';
import { jsonBodyLimit, valid } from '../http/validate.ts';

const idParam = z.object({ id: z.uuid({ error: ENTITY_TEXTS.notFound }) });
/** Lengths are checked by checkEntityInput after trimming; these caps only bound what is read. */
const optionalText = (field: string) =>
  z.string({ error: `${field} must be text.` }).max(2000, `${field} is too long.`).nullish();
const entityBody = z.object({
  name: z.string({ error: ENTITY_TEXTS.nameRequired }).max(2000, ENTITY_TEXTS.nameLong),
  slug: optionalText('Slug'),
  status: z.enum(['active', 'inactive'], { error: "Status must be 'active' or 'inactive'." }),
  email: optionalText('Email'),
  phone: optionalText('Phone'),
  address: optionalText('Address'),
});

export const adminEntityRoutes = new Hono<AppEnv>()
  .use(requireRole(['admin']), jsonBodyLimit)
  .get('/', async (c) => {
    const entities = await list_entities(c.var.deps.sql);
    return c.json({ success: true, entities });
  })
  .post('/', valid('json', entityBody), async (c) => {
    const result = await createEntity(
      c.var.deps.sql,
      c.req.valid('json'),
      actorFrom(c.var.session, c.var.clientAddress),
    );
    if (!result.ok) throw new AppError(result.status, result.message);
    return c.json({ success: true, message: ENTITY_TEXTS.created, data: { entity: result.entity } }, 201);
  })
  .put('/:id', valid('param', idParam), valid('json', entityBody), async (c) => {
    const result = await updateEntity(
      c.var.deps.sql,
      c.req.valid('param').id,
      c.req.valid('json'),
      actorFrom(c.var.session, c.var.clientAddress),
    );
    if (!result.ok) throw new AppError(result.status, result.message);
    return c.json({ success: true, message: ENTITY_TEXTS.updated, data: { entity: result.entity } });
  });
