/**
 * What a person's (or an entity's) name may not hold, shared by the server, which refuses it, and the PWA, which
 * says so at once. A name is shown on screens, printed in lists and audit exports, and was once put in e-mails:
 * a line break or a tab there lets a name carry a whole message ("URGENT: … verify at https://…"), and an
 * invisible format character makes a name read differently from what it is (a right-to-left override shows
 * "repoH" as "Hoper"). Letters of every script stay welcome.
 */

/** The one refusal, wherever a name is typed. */
export const NAME_CHARACTERS_MESSAGE =
  'Names cannot contain line breaks, tabs or other invisible control characters.';

/**
 * Control characters (`\p{Cc}`: newline, tab, NUL and the C1 set), the Unicode line and paragraph separators, and
 * the invisible format characters (`\p{Cf}`: bidirectional overrides and isolates, zero-width space, soft hyphen,
 * byte-order mark), except the zero-width non-joiner and joiner (U+200C, U+200D) that Persian, Indic scripts and
 * some names need to be spelled right.
 */
const UNSAFE = /[\p{Cc}\u2028\u2029]|(?![\u200C\u200D])\p{Cf}/u;

/** True when `name`, once trimmed as every form trims it, holds a character of UNSAFE. */
export function hasUnsafeNameCharacters(name: string): boolean {
  return UNSAFE.test(name.trim());
}
