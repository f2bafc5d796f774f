/**
 * Display names of audit event types (spec section 9) and of the resources they concern, in the language shown:
 * the spec's named events have fixed labels, every other type the API writes has its name in the catalogues'
 * `audit.events` (keyed by the type in camelCase: 'ip_range_created' → `ipRangeCreated`), and the resources
 * theirs in `audit.resources`. A type no catalogue knows yet (a newer API) is shown title-cased, with known
 * abbreviations in capitals ('ip_range_added' → 'IP Range Added').
 */
import i18next, { t } from 'i18next';

/** Spec section 9's names (their catalogue keys), and the older names some events are stored under. */
const NAMED = {
  user_login: 'audit.events.userLogin',
  login_success: 'audit.events.userLogin',
  login_failed: 'audit.events.loginFailed',
  document_viewed: 'audit.events.documentViewed',
  document_view: 'audit.events.documentViewed',
  document_printed: 'audit.events.documentPrinted',
  document_print: 'audit.events.documentPrinted',
  // Not the spec's: the screen showing a document (what "opened" means), and a print the PDF forbids.
  document_shown: 'audit.events.documentShown',
  document_print_refused: 'audit.events.documentPrintRefused',
  document_uploaded: 'audit.events.documentUploaded',
  document_upload: 'audit.events.documentUploaded',
  user_created: 'audit.events.userCreated',
  user_updated: 'audit.events.userUpdated',
  user_deleted: 'audit.events.userDeleted',
  user_status_updated: 'audit.events.userStatusUpdated',
} as const;

/** Words shown in capitals. */
const ABBREVIATIONS = new Set(['ip', 'pin', 'csv', 'doc', 'smtp', 'pdf', 'id', 'url', 'mfa']);

/** A catalogue text looked up by a key made at run time, in the language shown; null when it has none. */
function catalogueText(key: string): string | null {
  const text: unknown = i18next.getResource(i18next.language, 'translation', key);
  return typeof text === 'string' ? text : null;
}

/** 'ip_range_created' → 'ipRangeCreated': a stored type's catalogue key. */
function catalogueKey(type: string): string {
  return type.toLowerCase().replace(/[_\s-]+([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

/** The label shown for an event type; '' for an empty one. */
export function eventDisplayName(eventType: string | null | undefined): string {
  const type = (eventType ?? '').trim();
  if (!type) return '';
  const key = type.toLowerCase();
  if (Object.hasOwn(NAMED, key)) return t(NAMED[key as keyof typeof NAMED]);
  const named = catalogueText(`audit.events.${catalogueKey(key)}`);
  if (named !== null) return named;
  return type
    .split(/[_\s-]+/)
    .filter(Boolean)
    .map((word) => {
      const lower = word.toLowerCase();
      return ABBREVIATIONS.has(lower) ? lower.toUpperCase() : lower.charAt(0).toUpperCase() + lower.slice(1);
    })
    .join(' ');
}

/** The label shown for a resource type ('ip_range' → 'IP range', in Spanish 'rango de IP'); unknown ones as stored. */
export function resourceDisplayName(resourceType: string | null | undefined): string {
  const type = (resourceType ?? '').trim();
  if (!type) return '';
  return catalogueText(`audit.resources.${catalogueKey(type)}`) ?? type;
}
