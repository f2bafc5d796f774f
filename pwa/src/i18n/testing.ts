/**
 * For the PWA's unit tests (Deno): both catalogues loaded and English shown, as a tablet shows it after
 * i18n/language.ts's start. Import it first in a test whose module makes text.
 */
import i18next from 'i18next';
import en from './en.json' with { type: 'json' };
import es from './es.json' with { type: 'json' };
import { addCatalogue } from './i18n.ts';

addCatalogue('en', en);
addCatalogue('es', es);
await i18next.changeLanguage('en');

/** Runs `body` with `language` shown, then English again. */
export async function inLanguage(language: 'en' | 'es', body: () => void | Promise<void>): Promise<void> {
  await i18next.changeLanguage(language);
  try {
    await body();
  } finally {
    await i18next.changeLanguage('en');
  }
}
