/**
 * The PWA's i18n: i18next with react-i18next (the catalogues are plain JSON a translator edits; keys are typed
 * from the English one, i18next.d.ts). Each language's catalogue is a chunk of its own, fetched when the
 * language is first shown, so a tablet downloads only the language it shows (the offender's route has a budget
 * of 200 KB of JavaScript); the service worker precaches both, so either works offline. `<html lang>` follows
 * the language shown, so a screen reader reads with the right voice.
 *
 * Components call `useTranslation()`; plain modules (the list's texts, the offline texts) call `t` from
 * i18next, which always speaks the language shown.
 */
import i18next from 'i18next';
import { DEFAULT_LANGUAGE, isLanguage, type Language, LANGUAGES } from '../../../contract/languages.ts';
import type en from './en.json';

export { LANGUAGES };
export type { Language };

/** The shape every catalogue has (the English one is the reference). */
export type Catalogue = typeof en;

const LOADERS: Record<Language, () => Promise<{ default: unknown }>> = {
  en: () => import('./en.json'),
  es: () => import('./es.json'),
};

/**
 * The locale `Intl` formats with: US English (the spec's 'Jan 5, 2025'), and the Spanish of the United States
 * ('5 ene 2025', a 12-hour clock and 1,234.5 as the readers' English screens write them).
 */
export const LOCALES: Record<Language, string> = { en: 'en-US', es: 'es-US' };

/** Each language's name in itself, what its switch shows: a reader looks for their own language's name. */
export const ENDONYMS: Record<Language, string> = { en: 'English', es: 'Español' };

// React reaches this instance through App.tsx's I18nextProvider; nothing here imports React, so the plain
// modules that make text (and their Deno tests, which run without permissions) load without it.
void i18next.init({
  resources: {},
  partialBundledLanguages: true,
  supportedLngs: [...LANGUAGES],
  // Both catalogues hold every key (tests/checks/i18n.test.ts): no language borrows another's text.
  fallbackLng: false,
  // React escapes what it renders; i18next escaping it again would show '&amp;'.
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

i18next.on('languageChanged', (language) => {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
});

/** Adds a language's catalogue to i18next (already loaded: nothing to do). */
export function addCatalogue(language: Language, catalogue: unknown): void {
  if (!i18next.hasResourceBundle(language, 'translation')) {
    i18next.addResourceBundle(language, 'translation', catalogue as Catalogue);
  }
}

/** Fetches the language's catalogue when it is not loaded yet, then shows the app in it. */
export async function showLanguage(language: Language): Promise<void> {
  if (!i18next.hasResourceBundle(language, 'translation')) {
    addCatalogue(language, (await LOADERS[language]()).default);
  }
  if (i18next.language !== language) await i18next.changeLanguage(language);
}

/** The language shown (the default before any catalogue is loaded). */
export function currentLanguage(): Language {
  return isLanguage(i18next.language) ? i18next.language : DEFAULT_LANGUAGE;
}

/** The `Intl` locale of the language shown. */
export function currentLocale(): string {
  return LOCALES[currentLanguage()];
}
