/**
 * The document lists' search, shared by the server (the sender lists, searched in SQL) and the PWA (the offender's
 * list, searched on the tablet): a text matches where it starts a word of a field, case-insensitively. "exhibit"
 * finds "Trial exhibit list", "7" finds "Motion 7", "paralegal" finds a letter sent by "Riley Paralegal". The spec's
 * rule is 'starts with' the whole field; the start of a word is a superset of it (docs/product.md).
 *
 * A word starts at the field's start or after a space or an ASCII punctuation mark (`!` to `/`, `:` to `@`, `[` to
 * `` ` ``, `{` to `~`): the characters PostgreSQL's `[[:space:][:punct:]]` holds, so the SQL form
 * (WORD_START_PATTERN_SQL) and this one agree. The typed text is matched as it is, never as a pattern: "100%"
 * finds "100%_done" and not "100x_done".
 */

/** True when `character` ends a word (a space or ASCII punctuation). */
function separates(character: string): boolean {
  return /^[\s!-/:-@[-`{-~]$/.test(character);
}

/** True when `needle` (already trimmed and lower case) starts a word of `value`, ignoring case. */
export function startsAWord(value: string, needle: string): boolean {
  if (needle === '') return true;
  const text = value.toLowerCase();
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
    if (at === 0 || separates(text[at - 1])) return true;
  }
  return false;
}

/** The search box's text as the search compares it: trimmed, lower case; blank is no search. */
export function searchNeedle(query: string | undefined): string {
  return (query ?? '').trim().toLowerCase();
}

/**
 * `needle` as a PostgreSQL regular expression that matches it at the start of a word of a lower-cased field:
 * every character the expression language gives a meaning to is escaped, so the text is matched literally.
 */
export function wordStartPatternSql(needle: string): string {
  return `(^|[[:space:][:punct:]])${needle.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&')}`;
}
