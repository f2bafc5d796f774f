/**
 * The public configuration (GET /api/config) every screen reads: the department's name, the upload limit and
 * the entity's default language.
 */
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '../../../contract/languages.ts';
import { t } from 'i18next';
import { SETTINGS } from '../../../contract/settings.ts';
import type { PublicConfig } from '../../../contract/shapes/setting.ts';
import { apiRequest } from './api.ts';

/** What the PWA reads of /api/config. */
export type AppConfig = PublicConfig & {
  /** The language a signed-out tablet shows (the entity's default, docs/api.md). */
  defaultLanguage: Language;
};

/** Shown until /api/config answers (and if it never does): the API's own default. */
export const DEFAULT_CONFIG: AppConfig = {
  departmentAbbreviation: SETTINGS.department_abbreviation.default,
  maxUploadMb: SETTINGS.max_upload_mb.default,
  pinMinLength: SETTINGS.pin_min_length.default,
  defaultLanguage: DEFAULT_LANGUAGE,
  facilityNetwork: false,
};

/** GET /api/config (public). */
export async function fetchConfig(signal?: AbortSignal): Promise<AppConfig> {
  const body = await apiRequest<{ data?: Partial<Record<keyof AppConfig, unknown>> }>('/config', {
    auth: false,
    signal,
  });
  const data = body.data ?? {};
  return {
    departmentAbbreviation: typeof data.departmentAbbreviation === 'string' && data.departmentAbbreviation
      ? data.departmentAbbreviation
      : DEFAULT_CONFIG.departmentAbbreviation,
    maxUploadMb: typeof data.maxUploadMb === 'number' ? data.maxUploadMb : DEFAULT_CONFIG.maxUploadMb,
    pinMinLength: typeof data.pinMinLength === 'number' ? data.pinMinLength : DEFAULT_CONFIG.pinMinLength,
    defaultLanguage: isLanguage(data.defaultLanguage) ? data.defaultLanguage : DEFAULT_CONFIG.defaultLanguage,
    facilityNetwork: data.facilityNetwork === true,
  };
}

let loading: Promise<AppConfig> | null = null;

/**
 * GET /api/config once per page load, shared by whoever asks first (the language before the first render, the
 * screens after it). A failure is not kept: the next caller asks again.
 */
export function loadConfig(): Promise<AppConfig> {
  loading ??= fetchConfig().catch((error) => {
    loading = null;
    throw error;
  });
  return loading;
}

/** Every portal's title: the department abbreviation followed by 'Attorney/Client Mail'. */
export function portalTitle(config: AppConfig): string {
  return t('header.portalTitle', { abbreviation: config.departmentAbbreviation });
}
