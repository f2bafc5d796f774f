/** The public configuration (GET /api/config) every screen reads: the department's name and the upload limit. */
import { SETTINGS } from '../../../contract/settings.ts';
import type { PublicConfig } from '../../../contract/shapes/setting.ts';
import { apiRequest } from './api.ts';

export type { PublicConfig };

/** Shown until /api/config answers (and if it never does): the API's own default. */
export const DEFAULT_CONFIG: PublicConfig = {
  departmentAbbreviation: SETTINGS.department_abbreviation.default,
  maxUploadMb: SETTINGS.max_upload_mb.default,
};

/** GET /api/config (public). */
export async function fetchConfig(signal?: AbortSignal): Promise<PublicConfig> {
  const body = await apiRequest<{ data?: Partial<PublicConfig> }>('/config', { auth: false, signal });
  const data = body.data ?? {};
  return {
    departmentAbbreviation: typeof data.departmentAbbreviation === 'string' && data.departmentAbbreviation
      ? data.departmentAbbreviation
      : DEFAULT_CONFIG.departmentAbbreviation,
    maxUploadMb: typeof data.maxUploadMb === 'number' ? data.maxUploadMb : DEFAULT_CONFIG.maxUploadMb,
  };
}

/** Every portal's title: the department abbreviation followed by 'Attorney/Client Mail'. */
export function portalTitle(config: PublicConfig): string {
  return `${config.departmentAbbreviation} Attorney/Client Mail`;
}
