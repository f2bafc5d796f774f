/** /api/config and /api/health: what the PWA needs before anyone signs in. */
import { Hono } from 'hono';
import { get_setting } from '../db/settings.ts';
import { find_entity_by_slug } from '../db/entities.ts';
import { SIGN_IN_ENTITY_SLUG } from '../domain/entities.ts';
import { addressInEntityRanges } from '../domain/ip_whitelist.ts';
import { DEFAULT_LANGUAGE } from '../../contract/languages.ts';
import type { HealthAnswer, PublicConfig, PublicConfigAnswer } from '../../contract/shapes/setting.ts';
import { APP_VERSION } from '../version.ts';
import type { AppEnv } from '../http/context.ts';

export const publicRoutes = new Hono<AppEnv>()
  .get('/config', async (c) => {
    const { sql } = c.var.deps;
    const [departmentAbbreviation, maxUploadMb, pinMinLength, entity] = await Promise.all([
      get_setting(sql, 'department_abbreviation'),
      get_setting(sql, 'max_upload_mb'),
      get_setting(sql, 'pin_min_length'),
      find_entity_by_slug(sql, SIGN_IN_ENTITY_SLUG),
    ]);
    // The sign-in entity's language: a signed-out tablet shows it, and returns to it after any way out.
    const defaultLanguage = entity?.default_language ?? DEFAULT_LANGUAGE;
    // A device inside one of the entity's active ranges is a facility's shared tablet: it keeps the entity's
    // language whatever its browser asks for; anywhere else the browser's own language may be followed.
    const facilityNetwork = entity ? await addressInEntityRanges(sql, entity.id, c.var.clientAddress) : false;
    const data: PublicConfig = {
      departmentAbbreviation,
      maxUploadMb,
      pinMinLength,
      defaultLanguage,
      facilityNetwork,
    };
    return c.json({ success: true, data } satisfies PublicConfigAnswer);
  })
  .get('/health', async (c) => {
    await c.var.deps.sql`select 1`;
    return c.json({ success: true, status: 'ok', version: APP_VERSION } satisfies HealthAnswer);
  });
