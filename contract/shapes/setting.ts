/** System settings as the admin screen shows them, and the public configuration. */
import type { SettingCategory, SettingValue } from '../settings.ts';
import type { Language } from '../languages.ts';

export type { SettingValue };

/** GET /api/admin/settings `data.settings`. */
export interface Setting {
  key: string;
  category: SettingCategory;
  description: string;
  value: SettingValue;
  /** ISO 8601. */
  updated_at: string;
}

/** PUT /api/admin/settings/{key} body. */
export interface SettingRequest {
  value: SettingValue;
}

/** GET /api/config `data`: what the PWA needs before anyone signs in. */
export interface PublicConfig {
  departmentAbbreviation: string;
  maxUploadMb: number;
  /** The fewest digits of a new PIN (the `pin_min_length` setting): the admin's PIN forms say and check it. */
  pinMinLength: number;
  /**
   * The sign-in entity's default language: what a signed-out tablet shows, and what it returns to after any way
   * out, whoever used it last.
   */
  defaultLanguage: Language;
  /**
   * Whether the asking device is inside one of the sign-in entity's active IP ranges (a facility's shared
   * tablet): there the signed-out pages keep `defaultLanguage`; elsewhere they follow a browser that asks for a
   * language the portal speaks.
   */
  facilityNetwork: boolean;
}

/** GET /api/admin/settings answer. */
export interface SettingListAnswer {
  success: true;
  data: { settings: Setting[] };
}

/** GET /api/health answer: the database answers; `version` is the release's (package.json). */
export interface HealthAnswer {
  success: true;
  status: 'ok';
  version: string;
}

/** GET /api/config answer. */
export interface PublicConfigAnswer {
  success: true;
  data: PublicConfig;
}
