/**
 * A sender's Notifications: the opt-in "opened" e-mail (GET/PUT /api/preferences), kept on the server so it
 * follows the sender to any computer. Off until they turn it on; saved as soon as it is changed. Plain markup:
 * it sits on the sender list's page, which carries no antd.
 */
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureMessage } from '../lib/api.ts';
import { fetchPreferences, savePreferences } from './mailApi.ts';

type Status = { kind: 'loading' } | { kind: 'ready'; note: string } | { kind: 'error'; message: string };

export function NotificationSetting() {
  const { t } = useTranslation();
  const [checked, setChecked] = useState(false);
  const [status, setStatus] = useState<Status>({ kind: 'loading' });
  const boxId = useId();
  const hintId = useId();

  useEffect(() => {
    const controller = new AbortController();
    fetchPreferences(controller.signal).then(
      (preferences) => {
        setChecked(preferences.notifyOnOpen);
        setStatus({ kind: 'ready', note: '' });
      },
      (error) => {
        if (!controller.signal.aborted) {
          setStatus({ kind: 'error', message: failureMessage(error, { failed: t('delivery.loadFailed') }) });
        }
      },
    );
    return () => controller.abort();
  }, []);

  const change = async (next: boolean) => {
    const before = checked;
    setChecked(next);
    setStatus({ kind: 'loading' });
    try {
      await savePreferences({ notifyOnOpen: next });
      setStatus({ kind: 'ready', note: t('delivery.saved') });
    } catch (error) {
      setChecked(before);
      setStatus({ kind: 'error', message: failureMessage(error, { failed: t('delivery.saveFailed') }) });
    }
  };

  return (
    <details className='sender-settings'>
      <summary>{t('delivery.notifications')}</summary>
      <div className='sender-settings-body'>
        <input
          id={boxId}
          type='checkbox'
          checked={checked}
          disabled={status.kind === 'loading'}
          aria-describedby={hintId}
          onChange={(event) => void change(event.target.checked)}
        />
        <label htmlFor={boxId}>{t('delivery.notifyOnOpen')}</label>
        <p id={hintId} className='sender-settings-hint'>
          {t('delivery.notifyHint')}{' '}
          <span role='status'>
            {status.kind === 'ready' ? status.note : status.kind === 'error' ? status.message : ''}
          </span>
        </p>
      </div>
    </details>
  );
}
