/**
 * After a sign-in whose page was switched to a language other than the account's saved one: the portal is in
 * the chosen language for this session, and asks once whether to keep it for the account (saved on the server,
 * PATCH /api/auth/preferences), so a choice made for one sign-in is never saved without asking.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { answerLanguageOffer, pendingLanguageOffer } from '../i18n/language.ts';
import { useToast } from './useToast.ts';

export function LanguageOffer() {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const [language, setLanguage] = useState(pendingLanguageOffer);
  const [busy, setBusy] = useState(false);
  // Another language chosen in the header since (saved there): nothing left to offer.
  if (language === null || language !== i18n.language || pendingLanguageOffer() !== language) return null;

  async function answer(keep: boolean) {
    setBusy(true);
    const saved = await answerLanguageOffer(keep);
    setBusy(false);
    if (saved) setLanguage(null);
    else toast.error(t('language.notSaved'));
  }

  return (
    <section className='alert alert-success language-offer' aria-labelledby='language-offer-text'>
      <span id='language-offer-text' className='alert-title'>{t('language.offer')}</span>
      <span className='language-offer-actions'>
        <button type='button' className='btn btn-primary' disabled={busy} onClick={() => void answer(true)}>
          {t('language.offerKeep')}
        </button>
        <button type='button' className='btn' disabled={busy} onClick={() => void answer(false)}>
          {t('language.offerDecline')}
        </button>
      </span>
    </section>
  );
}
