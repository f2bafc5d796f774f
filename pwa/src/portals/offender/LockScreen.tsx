/**
 * The tablet's lock screen: the list is gone from the screen and the key from memory; the offender's
 * PIN reopens it (tabletSession.ts unlockTablet: the server checks it when it answers, the stored wrap when it
 * does not). Each wrong PIN says how many are left; after the fifth the PIN is checked only online (the server's
 * throttle), and nothing is deleted: the PINs may be someone else's; online, after the account's free tries the
 * server asks for a growing wait, whose seconds the refusal names. Offline, when the PIN cannot be checked here (a
 * reload forgets the wrapped key, and an unlocked tablet reloaded offline locks; too many wrong PINs), the screen
 * says at once, in plain words, that the letters are kept but locked until the network returns, rather than only
 * that the tablet is locked. Log Off ends the session instead. Plain markup: the tablet's path carries no antd.
 */
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { requiredError, TextField } from '../../components/TextField.tsx';
import { failureMessage } from '../../lib/api.ts';
import { browserState } from '../../lib/state/browserState.ts';
import { wrongPinText } from '../../offline/offlineTexts.ts';
import { unlockTablet } from '../../offline/tabletSession.ts';
import { useOnline } from '../../offline/useOnline.ts';

export function LockScreen({ onLogOff }: { onLogOff(): void }) {
  const [pin, setPin] = useState('');
  const [pinError, setPinError] = useState<string | null | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const { t } = useTranslation();
  const online = useOnline();
  // Whether the PIN can open the tablet without the network (null: not known yet).
  const [offlineUnlock, setOfflineUnlock] = useState<boolean | null>(null);

  useEffect(() => {
    let current = true;
    void browserState.session().then((info) => {
      if (current) setOfflineUnlock(info.ok && info.value !== null && info.value.canUnlockOffline);
    });
    return () => {
      current = false;
    };
  }, []);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const missing = requiredError(pin, t('lock.pinRequired'));
    setPinError(missing);
    if (missing) return;
    setBusy(true);
    setProblem(null);
    const outcome = await unlockTablet(pin);
    setPin('');
    setPinError(undefined);
    setBusy(false);
    if (outcome.ok || outcome.reason === 'ended') return;
    if (outcome.reason === 'wrong-pin') setProblem(wrongPinText(outcome.attemptsLeft));
    else if (outcome.reason === 'too-many-pins') {
      setOfflineUnlock(false);
      setProblem(t('lock.tooManyPins'));
    } else if (outcome.reason === 'refused') {
      setProblem(failureMessage(outcome.error, { failed: t('lock.noOfflineUnlock') }));
    } else {
      setOfflineUnlock(false);
      setProblem(t('lock.noOfflineUnlock'));
    }
  }

  return (
    <section aria-labelledby='lock-title' className='lock-screen'>
      {/* An alert: the lock comes without the reader doing anything, and a screen reader says so at once. */}
      <div role='alert'>
        <h2 id='lock-title' className='lock-title'>{t('lock.title')}</h2>
        <p>{t('lock.prompt')}</p>
        {!online && offlineUnlock === false && !problem && (
          <p className='lock-offline-reason'>{t('lock.offlineReason')}</p>
        )}
      </div>
      {problem && (
        <div className='alert alert-error lock-problem' role='alert'>
          <span className='alert-title'>{problem}</span>
        </div>
      )}
      <form noValidate onSubmit={submit} aria-busy={busy}>
        <fieldset className='form-fields' disabled={busy}>
          {/* A shared tablet: nothing may offer to remember the PIN. */}
          <TextField
            id='lock_pin'
            type='password'
            label={t('lock.pin')}
            autoComplete='off'
            inputMode='numeric'
            autoFocus
            value={pin}
            error={pinError}
            onChange={(event) => {
              setPin(event.target.value);
              if (pinError !== undefined) {
                setPinError(
                  requiredError(event.target.value, t('lock.pinRequired')),
                );
              }
            }}
          />
          <button type='submit' className='btn btn-primary btn-block'>{t('lock.unlock')}</button>
        </fieldset>
      </form>
      <button type='button' className='btn btn-block lock-log-off' onClick={onLogOff}>
        {t('common.logOff')}
      </button>
    </section>
  );
}
