/** /api/config and /api/health: what the PWA needs before anyone signs in. */
import { Hono } from 'hono';
import { get_setting } from '../db/settings.ts';
import type { PublicConfig } from '../../contract/shapes/setting.ts';
import type { AppEnv } from '../http/context.ts';

export const publicRoutes = new Hono<AppEnv>()
  .get('/config', async (c) => {
    const { sql } = c.var.deps;
    const [departmentAbbreviation, maxUploadMb, pinMinLength] = await Promise.all([
      get_setting(sql, 'department_abbreviation'),
      get_setting(sql, 'max_upload_mb'),
      get_setting(sql, 'pin_min_length'),
    ]);
    const data: PublicConfig = { departmentAbbreviation, maxUploadMb, pinMinLength };
    return c.json({ success: true, data });
  })
  .get('/health', async (c) => {
    await c.var.deps.sql`select 1`;
    return c.json({ success: true, status: 'ok' });
  });
