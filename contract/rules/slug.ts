/**
 * Entity slugs (spec section 4): lower case; characters other than letters, digits, space and hyphen
 * dropped; spaces turned into hyphens; repeated hyphens collapsed. Leading and trailing hyphens are trimmed
 * too, so every generated slug fits the database check. Shared with the PWA's entity form.
 */

/** The database's rule (db/migrations/0001_accounts.sql): words of a-z0-9 joined by single hyphens. */
export const SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const SLUG_MAX_LENGTH = 100;

/** The slug generated from a name; '' when the name has no letter or digit a slug can use. */
export function slugify(name: string): string {
  return name
    .toLowerCase()
    // ASCII only: the database check accepts nothing else, so accented letters are dropped like symbols.
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, SLUG_MAX_LENGTH)
    .replace(/-$/, '');
}

/** True when `slug` may be stored as it is. */
export function isValidSlug(slug: string): boolean {
  return slug.length <= SLUG_MAX_LENGTH && SLUG_PATTERN.test(slug);
}
