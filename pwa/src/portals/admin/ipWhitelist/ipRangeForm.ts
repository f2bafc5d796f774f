/**
 * The IP whitelist screen's texts and form rules (spec sections 4, 5, 8), free of React so they can be
 * unit-tested.
 */
import { DESCRIPTION_MAX, parseIpRange } from '../../../../../contract/rules/ip_ranges.ts';
import type { IpRangeEntry, IpRangeRequest, IpWhitelistPolicy } from './ipWhitelistApi.ts';

export const IP_WHITELIST_TEXTS = {
  title: 'IP Whitelist',
  fetchFailed: 'Failed to load IP ranges',
  loadFailed: 'Error loading IP ranges',
  added: 'IP range added successfully',
  updated: 'IP range updated successfully',
  deleted: 'IP range deleted successfully',
  activated: 'IP range activated',
  deactivated: 'IP range deactivated',
  addFailed: 'Failed to add IP range',
  updateFailed: 'Failed to update IP range',
  statusFailed: 'Failed to update status',
  deleteFailed: 'Failed to delete IP range',
  required: 'IP range is required',
  invalid: 'Invalid IP range format',
  confirmDelete: 'Are you sure you want to delete this IP range?',
  empty: 'No IP ranges configured. Add one to restrict offender access.',
  formats:
    'An exact address (10.1.2.3 or 2001:db8::1), a wildcard (192.168.*) or a CIDR block (192.168.1.0/24).',
  rule:
    "These ranges are your entity's: while at least one is active, its offenders can sign in and use the portal " +
    'only from these networks. Staff are not affected.',
  policyRanges: 'Offenders of this entity are admitted only from the active ranges below.',
  policyNeverConfigured:
    'No range has been configured yet: offenders of this entity are admitted from every address. Once a range ' +
    'has been added, an empty list refuses every address.',
  policyAllow:
    "No active range: offenders of this entity are admitted from every address (setting 'IP whitelist when " +
    "empty' is 'allow').",
  policyClosed: 'No active range: offenders of this entity are refused from every address.',
  policyClosedHint:
    "Add or activate a range, or set 'IP whitelist when empty' to 'allow' under Settings, to admit them again.",
  emptiedClosed:
    'No active IP ranges: offenders cannot sign in from any network. Add a range to let them in.',
  emptiedOpen:
    "No active IP ranges: offenders can sign in from any network (setting 'IP whitelist when empty' is " +
    "'allow'). Add a range to restrict them.",
  lastRangeCloses:
    'This is the last active range. Without it, offenders of this entity cannot sign in from any network.',
  lastRangeOpens:
    'This is the last active range. Without it, offenders of this entity can sign in from any network.',
  confirmDeleteLast: 'Delete it?',
  confirmDeactivateLast: 'Deactivate it?',
} as const;

/**
 * The empty table's words: the spec's for a list never configured; for one configured and emptied since, what is
 * true now (an empty list then refuses every address, or admits every one when the setting says 'allow').
 */
export function emptyListText(policy: IpWhitelistPolicy | null): string {
  if (!policy?.configured) return IP_WHITELIST_TEXTS.empty;
  return policy.whenEmpty === 'deny' ? IP_WHITELIST_TEXTS.emptiedClosed : IP_WHITELIST_TEXTS.emptiedOpen;
}

/**
 * Deleting or deactivating the last active range changes who may sign in, for the whole entity: what it will
 * do, to be confirmed first; null for any other range.
 */
export function lastRangeWarning(
  entry: IpRangeEntry,
  ranges: readonly IpRangeEntry[],
  policy: IpWhitelistPolicy | null,
): string | null {
  if (!entry.isActive || ranges.filter((range) => range.isActive).length !== 1) return null;
  return policy?.whenEmpty === 'allow'
    ? IP_WHITELIST_TEXTS.lastRangeOpens
    : IP_WHITELIST_TEXTS.lastRangeCloses;
}

/** The empty-list policy in words: what the whitelist admits now, and whether that is a warning. */
export function policyLine(policy: IpWhitelistPolicy): { text: string; warning: boolean } {
  if (policy.effect === 'ranges') return { text: IP_WHITELIST_TEXTS.policyRanges, warning: false };
  if (policy.effect === 'closed') {
    return {
      text: `${IP_WHITELIST_TEXTS.policyClosed} ${IP_WHITELIST_TEXTS.policyClosedHint}`,
      warning: true,
    };
  }
  return policy.configured
    ? { text: IP_WHITELIST_TEXTS.policyAllow, warning: true }
    : { text: IP_WHITELIST_TEXTS.policyNeverConfigured, warning: false };
}

export { DESCRIPTION_MAX };

export interface IpRangeFormValues {
  ipRange: string;
  description: string;
}

export const EMPTY_IP_RANGE_FORM: IpRangeFormValues = { ipRange: '', description: '' };

/** The form's starting values for an existing range. */
export function formValuesOf(entry: IpRangeEntry): IpRangeFormValues {
  return { ipRange: entry.ipRange, description: entry.description ?? '' };
}

/**
 * The problem with an entered range, or null. The same strict parser as the server's, so the admin hears
 * about a typo before the round trip; the server checks again.
 */
export function ipRangeProblem(value: string | undefined): string | null {
  const text = (value ?? '').trim();
  if (text === '') return IP_WHITELIST_TEXTS.required;
  return parseIpRange(text) ? null : IP_WHITELIST_TEXTS.invalid;
}

/** The body to send: trimmed; an edit carries the range's current isActive, which it keeps (spec section 4). */
export function ipRangePayload(values: IpRangeFormValues, editing: IpRangeEntry | null): IpRangeRequest {
  const payload: IpRangeRequest = { ipRange: values.ipRange.trim(), description: values.description.trim() };
  return editing ? { ...payload, isActive: editing.isActive } : payload;
}

/** The Activate/Deactivate action of a row. */
export function toggleAction(
  entry: IpRangeEntry,
): { label: 'Activate' | 'Deactivate'; isActive: boolean; done: string } {
  return entry.isActive
    ? { label: 'Deactivate', isActive: false, done: IP_WHITELIST_TEXTS.deactivated }
    : { label: 'Activate', isActive: true, done: IP_WHITELIST_TEXTS.activated };
}
