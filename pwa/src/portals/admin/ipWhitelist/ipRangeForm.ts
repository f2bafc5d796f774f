/**
 * The IP whitelist screen's form rules and the sentences it builds (spec sections 4, 5, 8), free of React so
 * they can be unit-tested; the texts are the catalogues' (section `ipWhitelist`), in the language shown.
 */
import { t } from 'i18next';
import { DESCRIPTION_MAX, parseIpRange } from '../../../../../contract/rules/ip_ranges.ts';
import type { IpRangeEntry, IpRangeRequest, IpWhitelistPolicy } from './ipWhitelistApi.ts';

/**
 * The empty table's words: the spec's for a list never configured; for one configured and emptied since, what is
 * true now (an empty list then refuses every address, or admits every one when the setting says 'allow').
 */
export function emptyListText(policy: IpWhitelistPolicy | null): string {
  if (!policy?.configured) return t('ipWhitelist.empty');
  return policy.whenEmpty === 'deny' ? t('ipWhitelist.emptiedClosed') : t('ipWhitelist.emptiedOpen');
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
  return policy?.whenEmpty === 'allow' ? t('ipWhitelist.lastRangeOpens') : t('ipWhitelist.lastRangeCloses');
}

/** The empty-list policy in words: what the whitelist admits now, and whether that is a warning. */
export function policyLine(policy: IpWhitelistPolicy): { text: string; warning: boolean } {
  if (policy.effect === 'ranges') return { text: t('ipWhitelist.policyRanges'), warning: false };
  if (policy.effect === 'closed') {
    return {
      text: `${t('ipWhitelist.policyClosed')} ${t('ipWhitelist.policyClosedHint')}`,
      warning: true,
    };
  }
  return policy.configured
    ? { text: t('ipWhitelist.policyAllow'), warning: true }
    : { text: t('ipWhitelist.policyNeverConfigured'), warning: false };
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
  if (text === '') return t('ipWhitelist.required');
  return parseIpRange(text) ? null : t('ipWhitelist.invalid');
}

/** The body to send: trimmed; an edit carries the range's current isActive, which it keeps (spec section 4). */
export function ipRangePayload(values: IpRangeFormValues, editing: IpRangeEntry | null): IpRangeRequest {
  const payload: IpRangeRequest = { ipRange: values.ipRange.trim(), description: values.description.trim() };
  return editing ? { ...payload, isActive: editing.isActive } : payload;
}

/** The Activate/Deactivate action of a row. */
export function toggleAction(
  entry: IpRangeEntry,
): { label: string; isActive: boolean; done: string } {
  return entry.isActive
    ? { label: t('ipWhitelist.deactivate'), isActive: false, done: t('ipWhitelist.deactivated') }
    : { label: t('ipWhitelist.activate'), isActive: true, done: t('ipWhitelist.activated') };
}
