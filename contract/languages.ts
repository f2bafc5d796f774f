/**
 * The languages the portal speaks, shared by the API (a user's saved preference, an entity's default, the
 * e-mails) and the PWA (its catalogues, pwa/src/i18n/). Codes are BCP 47 primary language subtags.
 */
export const LANGUAGES = ['en', 'es'] as const;

export type Language = (typeof LANGUAGES)[number];

/** What an entity speaks when nothing else is set, and what an unknown value falls back to. */
export const DEFAULT_LANGUAGE: Language = 'en';

/** True for the codes of LANGUAGES. */
export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}
