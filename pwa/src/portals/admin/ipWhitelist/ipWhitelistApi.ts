/** The IP whitelist calls of the admin portal (docs/api.md, IP whitelist), through the one API client. */
import type { IpRangeEntry, IpRangeRequest } from '../../../../../contract/shapes/ip_range.ts';
import { apiRequest } from '../../../lib/api.ts';

export type { IpRangeEntry, IpRangeRequest };

const path = (id?: string) => `/admin/ip-whitelist${id ? `/${encodeURIComponent(id)}` : ''}`;

/** GET /api/admin/ip-whitelist */
export async function listIpRanges(signal?: AbortSignal): Promise<IpRangeEntry[]> {
  const body = await apiRequest<{ data?: { ipRanges?: IpRangeEntry[] } }>(path(), { signal });
  return Array.isArray(body.data?.ipRanges) ? body.data.ipRanges : [];
}

/** POST /api/admin/ip-whitelist; resolves with the server's message. */
export async function addIpRange(payload: IpRangeRequest): Promise<string | null> {
  return (await apiRequest(path(), { body: payload })).message ?? null;
}

/** PUT /api/admin/ip-whitelist/{id}: an edit (the whole range) or a toggle (`{ isActive }` alone). */
export async function updateIpRange(
  id: string,
  payload: IpRangeRequest | { isActive: boolean },
): Promise<string | null> {
  return (await apiRequest(path(id), { method: 'PUT', body: payload })).message ?? null;
}

/** DELETE /api/admin/ip-whitelist/{id} */
export async function deleteIpRange(id: string): Promise<string | null> {
  return (await apiRequest(path(id), { method: 'DELETE' })).message ?? null;
}
