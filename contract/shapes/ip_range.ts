/**
 * A range of the admin's entity's IP whitelist as the admin screen shows it (GET /api/admin/ip-whitelist
 * `data.ipRanges`).
 */

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

/**
 * What the admin's entity's whitelist admits now (GET /api/admin/ip-whitelist `data.policy`), so the screen can
 * say it in words.
 */
export interface IpWhitelistPolicy {
  /** Whether a range was ever added to the entity; deleting every range does not clear it. */
  configured: boolean;
  /** The ip_whitelist_when_empty setting: what an empty active list means once `configured`. */
  whenEmpty: 'allow' | 'deny';
  /**
   * 'ranges': offenders only from inside an active range; 'open': no active range, offenders from any address
   * (never configured, or the setting says 'allow'); 'closed': no active range, offenders refused everywhere.
   */
  effect: 'ranges' | 'open' | 'closed';
}

/** GET /api/admin/ip-whitelist answer: the ranges and what they admit now. */
export interface IpWhitelistAnswer {
  success: true;
  data: { ipRanges: IpRangeEntry[]; policy: IpWhitelistPolicy };
}

/** POST /api/admin/ip-whitelist (201) and PUT /api/admin/ip-whitelist/{id} answer: the range as saved. */
export interface IpRangeSavedAnswer {
  success: true;
  message: string;
  data: { ipRange: IpRangeEntry };
}
