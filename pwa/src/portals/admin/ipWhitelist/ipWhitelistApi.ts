/** The IP whitelist calls of the admin portal (docs/api.md, IP whitelist), through the one API client. */
import type {
  IpRangeEntry,
  IpRangeRequest,
  IpWhitelistPolicy,
} from '../../../../../contract/shapes/ip_range.ts';
import { apiRequest } from '../../../lib/api.ts';

export type { IpRangeEntry, IpRangeRequest, IpWhitelistPolicy };

/** The admin's entity's ranges and what its whitelist admits now (null if the server did not say). */
export interface IpWhitelist {
  ranges: IpRangeEntry[];
  policy: IpWhitelistPolicy | null;
}

const path = (id?: string) => `/admin/ip-whitelist${id ? `/${encodeURIComponent(id)}` : ''}`;

/** GET /api/admin/ip-whitelist */
export async function listIpRanges(signal?: AbortSignal): Promise<IpWhitelist> {
  const body = await apiRequest<{ data?: { ipRanges?: IpRangeEntry[]; policy?: IpWhitelistPolicy } }>(
    path(),
    {
      signal,
    },
  );
  return {
    ranges: Array.isArray(body.data?.ipRanges) ? body.data.ipRanges : [],
    policy: body.data?.policy ?? null,
  };
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
