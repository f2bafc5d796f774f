/**
 * Display names of audit event types (spec section 9): the named events have fixed labels, any other
 * snake_case type is shown title-cased, with known abbreviations in capitals ('ip_range_added' → 'IP Range Added').
 * The named ones are in the language shown; the others are the stored type's own words.
 */
import { t } from 'i18next';

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
const ABBREVIATIONS = new Set(['ip', 'pin', 'csv', 'doc', 'smtp', 'pdf', 'id', 'url']);

/** The label shown for an event type; '' for an empty one. */
export function eventDisplayName(eventType: string | null | undefined): string {
  const type = (eventType ?? '').trim();
  if (!type) return '';
  const key = type.toLowerCase();
  if (Object.hasOwn(NAMED, key)) return t(NAMED[key as keyof typeof NAMED]);
  return type
    .split(/[_\s-]+/)
    .filter(Boolean)
    .map((word) => {
      const lower = word.toLowerCase();
      return ABBREVIATIONS.has(lower) ? lower.toUpperCase() : lower.charAt(0).toUpperCase() + lower.slice(1);
    })
    .join(' ');
}
