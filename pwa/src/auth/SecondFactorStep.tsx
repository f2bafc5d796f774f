/**
 * The sign-in's second step, in place on the sign-in screen: a passkey or security key, an authenticator app's
 * code or a recovery code for an account with a second factor; for an account that must enrol, an authenticator
 * app to add first (its QR code and the secret as text), whose first code signs in, or a passkey or security key
 * whose registration signs in; either shows the recovery codes once. Plain markup like the sign-in form; the QR
 * and WebAuthn libraries are loaded only when needed.
 */
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../components/Spinner.tsx';
import { requiredError, TextField } from '../components/TextField.tsx';
import { failureMessage } from '../lib/api.ts';
import { type LoginResult, startStepEnrolment, verifySecondFactor } from './authApi.ts';
import {
  createPasskey,
  PasskeyCancelled,
  passkeysSupported,
  provePasskey,
  stepPasskeyOptions,
  stepPasskeyRegistration,
} from './passkeys.ts';
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
  const [method, setMethod] = useState<MfaMethod>(
    enrol
      ? 'totp'
      : methods.includes('webauthn') && passkeysSupported()
      ? 'webauthn'
      : methods.includes('totp')
      ? 'totp'
      : 'recovery',
  );
  const [passkeyName, setPasskeyName] = useState('');
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
    if (method === 'webauthn') return await provePasskeyStep();
    const missing = requiredError(code, t('mfa.codeRequired'));
    setError(missing);
    if (missing) return;
    await finish(() => verifySecondFactor({ mfaToken, method, code: code.trim() }));
  }

  /** The key proves itself (or, in an enrolment, a new key is made) and its answer is the second step. */
  async function provePasskeyStep() {
    setError(null);
    setLoading(true);
    try {
      const response = enrol
        ? await createPasskey(await stepPasskeyRegistration(mfaToken))
        : await provePasskey(await stepPasskeyOptions(mfaToken));
      const name = passkeyName.trim() || t('mfa.passkeyDefaultName');
      await finish(() =>
        verifySecondFactor(
          enrol
            ? { mfaToken, method: 'webauthn', response, name }
            : { mfaToken, method: 'webauthn', response },
        )
      );
    } catch (failure) {
      setError(
        failure instanceof PasskeyCancelled
          ? t('mfa.passkeyCancelled')
          : failureMessage(failure, { failed: t('login.failed') }),
      );
      setLoading(false);
    }
  }

  async function finish(verify: () => Promise<LoginResult>) {
    setLoading(true);
    try {
      const result = await verify();
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
  const switchTo = (next: MfaMethod) => {
    setMethod(next);
    setCode('');
    setError(null);
  };
  const others: MfaMethod[] = enrol
    ? (passkeysSupported() ? ['totp', 'webauthn'] : []).filter((m) => m !== method) as MfaMethod[]
    : methods.filter((m) => m !== method && (m !== 'webauthn' || passkeysSupported()));
  const switchText: Record<MfaMethod, string> = {
    webauthn: enrol ? t('mfa.enrolPasskeyInstead') : t('mfa.usePasskey'),
    totp: enrol ? t('mfa.enrolAuthenticatorInstead') : t('mfa.useAuthenticator'),
    recovery: t('mfa.useRecoveryCode'),
  };
  const heading = enrol
    ? (method === 'webauthn' ? t('mfa.enrolPasskeyHeading') : t('mfa.enrolHeading'))
    : method === 'webauthn'
    ? t('mfa.passkeyHeading')
    : method === 'recovery'
    ? t('mfa.recoveryHeading')
    : t('mfa.heading');
  return (
    <section className='second-factor' aria-labelledby='mfa-heading'>
      <h2 id='mfa-heading' className='auth-subheading'>{heading}</h2>
      {method === 'webauthn' && (
        <form name='second-factor-passkey' noValidate onSubmit={submit} aria-busy={loading}>
          <p>{enrol ? t('mfa.enrolPasskeyHint') : t('mfa.passkeyHint')}</p>
          <fieldset className='form-fields' disabled={loading}>
            {enrol && (
              <TextField
                id='mfa_passkey_name'
                label={t('security.passkeyName')}
                autoComplete='off'
                value={passkeyName}
                onChange={(event) => setPasskeyName(event.target.value)}
              />
            )}
            {error && <p className='field-error' role='alert'>{error}</p>}
            <button type='submit' className='btn btn-primary btn-block' autoFocus={!enrol}>
              {enrol ? t('mfa.addPasskey') : t('mfa.usePasskey')}
            </button>
          </fieldset>
          {loading && <Spinner label={t('login.signingIn')} />}
        </form>
      )}
      {method !== 'webauthn' && enrol && (
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
      {method !== 'webauthn' && (
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
      )}
      {others.map((other) => (
        <p className='auth-link' key={other}>
          <button type='button' className='btn-link' onClick={() => switchTo(other)}>
            {switchText[other]}
          </button>
        </p>
      ))}
      <p className='auth-link'>
        <button type='button' className='btn-link' onClick={onCancel}>{t('mfa.cancel')}</button>
      </p>
    </section>
  );
}
