/**
 * Text PostgreSQL can keep: NUL is refused in any text, half of a UTF-16 surrogate pair in JSON columns (and
 * silently replaced in text ones). Input holding either is refused where it arrives (api/http/validate.ts); what
 * the API records whatever a request held (audit events) is repaired instead.
 */

/** Whether PostgreSQL can store `text` as it is. */
export function isStorableText(text: string): boolean {
  return text.isWellFormed() && !text.includes('\u0000');
}

/** `text` with NUL and every half surrogate pair replaced by U+FFFD. */
export function storableText(text: string): string {
  return text.toWellFormed().replaceAll('\u0000', '\ufffd');
}
