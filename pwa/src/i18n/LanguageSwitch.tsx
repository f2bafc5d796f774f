/**
 * The language switch of the sign-in screen and of every portal's header: one button per other language,
 * named in that language ('Español' marked lang='es', so a screen reader says it in Spanish and a reader finds
 * their own language's name). When the language changes, a live region says so in the new language.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ENDONYMS, type Language, LANGUAGES } from './i18n.ts';

export interface LanguageSwitchProps {
  /** What choosing a language does: the sign-in screen shows it; a portal also saves it for the user. */
  onChoose(language: Language): void | Promise<void>;
  className?: string;
}

export function LanguageSwitch({ onChoose, className }: LanguageSwitchProps) {
  const { t, i18n } = useTranslation();
  const shown = i18n.language;
  const [busy, setBusy] = useState(false);
  // Only a change this switch made is announced, not the first render.
  const [announce, setAnnounce] = useState(false);
  const mounted = useRef(true);
  useEffect(() => () => void (mounted.current = false), []);

  async function choose(language: Language) {
    setBusy(true);
    try {
      await onChoose(language);
      if (mounted.current) setAnnounce(true);
    } finally {
      if (mounted.current) setBusy(false);
    }
  }

  return (
    <div
      className={className ? `language-switch ${className}` : 'language-switch'}
      role='group'
      aria-label={t('language.switchGroup')}
    >
      {LANGUAGES.filter((language) => language !== shown).map((language) => (
        <button
          key={language}
          type='button'
          className='btn language-switch-button'
          lang={language}
          disabled={busy}
          onClick={() => void choose(language)}
        >
          {ENDONYMS[language]}
        </button>
      ))}
      <span className='visually-hidden' role='status'>{announce ? t('language.changed') : ''}</span>
    </div>
  );
}
