/**
 * The sign-in's second step, in place on the sign-in screen: an authenticator app's code or a recovery code for
 * an account with a second factor; for an account that must enrol, an authenticator app to add first (its QR
 * code and the secret as text), whose first code signs in and shows the recovery codes once. Plain markup like
 * the sign-in form; the QR library is loaded only when an enrolment needs it.
 */
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../components/Spinner.tsx';
import { requiredError, TextField } from '../components/TextField.tsx';
import { failureMessage } from '../lib/api.ts';
import { type LoginResult, startStepEnrolment, verifySecondFactor } from './authApi.ts';
import type { MfaAuthenticatorEnrolment, MfaMethod } from '../../../contract/shapes/mfa.ts';

export interface SecondFactorStepProps {
  mfaToken: string;
  methods: MfaMethod[];
  /** The account must add a second factor before it signs in. */
  enrol: boolean;
  /** A successful second step: the session to keep. */
  onSignedIn: (result: LoginResult & { ok: true }) => Promise<void>;
  onCancel: () => void;
}

export function SecondFactorStep({ mfaToken, methods, enrol, onSignedIn, onCancel }: SecondFactorStepProps) {
  const { t } = useTranslation();
  const [method, setMethod] = useState<'totp' | 'recovery'>(
    enrol || methods.includes('totp') ? 'totp' : 'recovery',
  );
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [enrolment, setEnrolment] = useState<MfaAuthenticatorEnrolment | null>(null);
  const [qr, setQr] = useState<string | null>(null);
  const [codes, setCodes] = useState<{ result: LoginResult & { ok: true }; codes: string[] } | null>(null);

  useEffect(() => {
    if (!enrol) return;
    let live = true;
    startStepEnrolment(mfaToken).then(async (started) => {
      if (!live) return;
      setEnrolment(started);
      const { toDataURL } = await import('qrcode');
      const url = await toDataURL(started.uri, { margin: 1, width: 200 });
      if (live) setQr(url);
    }).catch((failure) => live && setError(failureMessage(failure, { failed: t('login.failed') })));
    return () => {
      live = false;
    };
  }, [enrol, mfaToken, t]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const missing = requiredError(code, t('mfa.codeRequired'));
    setError(missing);
    if (missing) return;
    setLoading(true);
    try {
      const result = await verifySecondFactor({ mfaToken, method, code: code.trim() });
      if (result.ok !== true) {
        setError(t('login.failed'));
        setLoading(false);
        return;
      }
      if (result.recoveryCodes?.length) {
        setCodes({ result, codes: result.recoveryCodes });
        setLoading(false);
        return;
      }
      await onSignedIn(result);
    } catch (failure) {
      setError(failureMessage(failure, { failed: t('login.failed') }));
      setLoading(false);
    }
  }

  if (codes) {
    return (
      <section className='second-factor' aria-labelledby='mfa-codes-heading'>
        <h2 id='mfa-codes-heading' className='auth-subheading'>{t('mfa.recoveryCodesHeading')}</h2>
        <p>{t('mfa.recoveryCodesHint')}</p>
        <ul className='recovery-codes' aria-label={t('mfa.recoveryCodesHeading')}>
          {codes.codes.map((c) => (
            <li key={c}>
              <code>{c}</code>
            </li>
          ))}
        </ul>
        <button type='button' className='btn btn-primary btn-block' onClick={() => onSignedIn(codes.result)}>
          {t('mfa.continue')}
        </button>
      </section>
    );
  }

  const label = method === 'totp' ? t('mfa.code') : t('mfa.recoveryCode');
  return (
    <section className='second-factor' aria-labelledby='mfa-heading'>
      <h2 id='mfa-heading' className='auth-subheading'>
        {enrol ? t('mfa.enrolHeading') : t('mfa.heading')}
      </h2>
      {enrol && (
        <div className='mfa-enrolment'>
          <p>{t('mfa.enrolHint')}</p>
          {qr && <img className='mfa-qr' src={qr} width={200} height={200} alt={t('mfa.qrAlt')} />}
          {enrolment && (
            <p>
              {t('mfa.secretLabel')}{' '}
              <code className='mfa-secret' data-secret={enrolment.secret}>
                {enrolment.secret.match(/.{1,4}/g)?.join(' ')}
              </code>
            </p>
          )}
        </div>
      )}
      <form name='second-factor' noValidate onSubmit={submit} aria-busy={loading}>
        <fieldset className='form-fields' disabled={loading}>
          <TextField
            id='mfa_code'
            label={label}
            autoComplete='one-time-code'
            inputMode={method === 'totp' ? 'numeric' : 'text'}
            autoFocus
            value={code}
            error={error}
            onChange={(event) => setCode(event.target.value)}
          />
          <button type='submit' className='btn btn-primary btn-block'>{t('mfa.verify')}</button>
        </fieldset>
        {loading && <Spinner label={t('login.signingIn')} />}
      </form>
      {!enrol && methods.includes('recovery') && methods.includes('totp') && (
        <p className='auth-link'>
          <button
            type='button'
            className='btn-link'
            onClick={() => {
              setMethod(method === 'totp' ? 'recovery' : 'totp');
              setCode('');
              setError(null);
            }}
          >
            {method === 'totp' ? t('mfa.useRecoveryCode') : t('mfa.useAuthenticator')}
          </button>
        </p>
      )}
      <p className='auth-link'>
        <button type='button' className='btn-link' onClick={onCancel}>{t('mfa.cancel')}</button>
      </p>
    </section>
  );
}
