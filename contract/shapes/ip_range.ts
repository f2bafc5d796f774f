/** A range of the IP whitelist as the admin screen shows it (GET /api/admin/ip-whitelist `data.ipRanges`). */

export interface IpRangeEntry {
  id: string;
  /** Canonical form (contract/rules/ip_ranges.ts formatIpRange). */
  ipRange: string;
  description: string | null;
  isActive: boolean;
  /** ISO 8601. */
  createdAt: string;
}

/**
 * POST /api/admin/ip-whitelist and PUT /api/admin/ip-whitelist/{id} body. `{ isActive }` alone is a toggle.
 * `ipRange` is checked by the API's rules, not its schema, so a blank and a malformed range get their own messages.
 */
export interface IpRangeRequest {
  ipRange?: string;
  description?: string | null;
  isActive?: boolean;
}
