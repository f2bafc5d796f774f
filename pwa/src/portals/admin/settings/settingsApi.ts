/** The settings calls of the admin portal (docs/api.md, Settings). */
import { apiRequest } from '../../../lib/api.ts';

export interface SettingValue {
  type: 'number' | 'boolean' | 'text';
  value: number | boolean | string;
  unit?: string;
}

export interface Setting {
  key: string;
  category: string;
  description: string;
  value: SettingValue;
  updated_at: string;
}

/** GET /api/admin/settings */
export async function listSettings(signal?: AbortSignal): Promise<Setting[]> {
  const body = await apiRequest<{ data?: { settings?: Setting[] } }>('/admin/settings', { signal });
  return body.data?.settings ?? [];
}

/** PUT /api/admin/settings/{key}; resolves with the server's message. */
export async function updateSetting(key: string, value: SettingValue): Promise<string | null> {
  const body = await apiRequest(`/admin/settings/${encodeURIComponent(key)}`, {
    method: 'PUT',
    body: { value },
  });
  return body.message ?? null;
}
