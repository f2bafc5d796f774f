/**
 * Display names of audit event types (spec section 9): the named events have fixed labels, any other
 * snake_case type is shown title-cased, with known abbreviations in capitals ('ip_range_added' → 'IP Range Added').
 */

/** Spec section 9's names, and the older names some events are stored under. */
const NAMED: Record<string, string> = {
  user_login: 'User Login',
  login_success: 'User Login',
  login_failed: 'Login Failed',
  document_viewed: 'Document Viewed',
  document_view: 'Document Viewed',
  document_printed: 'Document Printed',
  document_print: 'Document Printed',
  document_uploaded: 'Document Uploaded',
  document_upload: 'Document Uploaded',
  user_created: 'User Created',
  user_updated: 'User Updated',
  user_deleted: 'User Deleted',
  user_status_updated: 'User Status Updated',
};

/** Words shown in capitals. */
const ABBREVIATIONS = new Set(['ip', 'pin', 'csv', 'doc', 'smtp', 'pdf', 'id', 'url']);

/** The label shown for an event type; '' for an empty one. */
export function eventDisplayName(eventType: string | null | undefined): string {
  const type = (eventType ?? '').trim();
  if (!type) return '';
  const named = NAMED[type.toLowerCase()];
  if (named) return named;
  return type
    .split(/[_\s-]+/)
    .filter(Boolean)
    .map((word) => {
      const lower = word.toLowerCase();
      return ABBREVIATIONS.has(lower) ? lower.toUpperCase() : lower.charAt(0).toUpperCase() + lower.slice(1);
    })
    .join(' ');
}
