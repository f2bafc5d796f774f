/** The settings calls of the admin portal (docs/api.md, Settings). */
import type { Setting, SettingRequest, SettingValue } from '../../../../../contract/shapes/setting.ts';
import { apiRequest } from '../../../lib/api.ts';

export type { Setting, SettingValue };

/** GET /api/admin/settings */
export async function listSettings(signal?: AbortSignal): Promise<Setting[]> {
  const body = await apiRequest<{ data?: { settings?: Setting[] } }>('/admin/settings', { signal });
  return body.data?.settings ?? [];
}

/** PUT /api/admin/settings/{key}; resolves with the server's message. */
export async function updateSetting(key: string, value: SettingValue): Promise<string | null> {
  const body = await apiRequest(`/admin/settings/${encodeURIComponent(key)}`, {
    method: 'PUT',
    body: { value } satisfies SettingRequest,
  });
  return body.message ?? null;
}
