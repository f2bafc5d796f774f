/**
 * The user's saved language in View Details: the admin sets it (or leaves the entity's default), and it applies
 * from the user's next sign-in on, whatever tablet they use.
 */
import { Alert, Select } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureMessage } from '../../../lib/api.ts';
import { ENDONYMS, type Language, LANGUAGES } from '../../../i18n/i18n.ts';
import { type AdminUser, setUserLanguage } from './usersApi.ts';

/** The select's value for "none saved" (a Select cannot hold null). */
const ENTITY_DEFAULT = 'default';

export function UserLanguageField(
  { user, onSaved }: { user: AdminUser; onSaved(language: Language | null): void },
) {
  const { t } = useTranslation();
  const [value, setValue] = useState<Language | null>(user.language ?? null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  useEffect(() => {
    setValue(user.language ?? null);
    setResult(null);
  }, [user]);

  async function choose(next: Language | null) {
    setBusy(true);
    setResult(null);
    try {
      await setUserLanguage(user.id, next);
      setValue(next);
      onSaved(next);
      setResult({ ok: true, text: t('userLanguage.saved') });
    } catch (cause) {
      setResult({ ok: false, text: failureMessage(cause, { failed: t('userLanguage.failed') }) });
    } finally {
      setBusy(false);
    }
  }

  const id = `user-language-${user.id}`;
  return (
    <div style={{ marginTop: 16 }}>
      <label htmlFor={id} style={{ display: 'block', marginBottom: 4 }}>{t('userLanguage.label')}</label>
      <Select<string>
        id={id}
        style={{ minWidth: 240 }}
        value={value ?? ENTITY_DEFAULT}
        disabled={busy}
        onChange={(next) => void choose(next === ENTITY_DEFAULT ? null : next as Language)}
        options={[
          { value: ENTITY_DEFAULT, label: t('userLanguage.entityDefault') },
          ...LANGUAGES.map((language) => ({ value: language, label: ENDONYMS[language] })),
        ]}
      />
      {result && (
        <Alert
          style={{ marginTop: 8 }}
          type={result.ok ? 'success' : 'error'}
          showIcon
          title={result.text}
          role={result.ok ? 'status' : 'alert'}
        />
      )}
    </div>
  );
}
