/**
 * /api/admin/health: readiness as the operator needs it, each check with what failed (a store's address, a
 * bucket, a folder). The installation's, so the department administrator's only. It runs the same checks as the
 * anonymous readiness and shares their cache, so it never adds a write to the store either.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { requireRole } from '../http/guard.ts';
import { readiness } from '../http/readiness.ts';
import type { AdminHealthAnswer } from '../../contract/shapes/health.ts';

export const adminHealthRoutes = new Hono<AppEnv>()
  .get('/', requireRole(['admin'], { departmentOnly: true }), async (c) => {
    const data = await readiness(c.var.deps);
    return c.json({ success: true, data } satisfies AdminHealthAnswer);
  });
