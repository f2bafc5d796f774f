/**
 * The Security screen's two ways to add a second factor: a passkey or security key (named, then the browser's
 * ceremony) and an authenticator app (named, then its QR code and secret, then its first code). Each runs under the
 * screen's proof gate, which asks who the user is first when the API wants a recent proof.
 */
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { requiredError, TextField } from '../components/TextField.tsx';
import { addPasskey, confirmAuthenticator, passkeysSupported, startAuthenticator } from './passkeys.ts';

/** Runs an addition, first asking for a proof of identity when the API wants one. */
export type ProofGate = (run: () => Promise<void>) => Promise<void>;

/** The name a new factor is listed under, and the button that starts adding it. */
function FactorNameForm(
  { formName, fieldId, label, submitLabel, name, setName, error, busy, onSubmit }: {
    formName: string;
    fieldId: string;
    label: string;
    submitLabel: string;
    name: string;
    setName: (name: string) => void;
    error: string | null;
    busy: boolean;
    onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  },
) {
  return (
    <form name={formName} noValidate onSubmit={onSubmit} aria-busy={busy}>
      <fieldset className='form-fields' disabled={busy}>
        <TextField
          id={fieldId}
          label={label}
          autoComplete='off'
          maxLength={100}
          value={name}
          error={error}
          onChange={(event) => setName(event.target.value)}
        />
        <button type='submit' className='btn btn-primary'>{submitLabel}</button>
      </fieldset>
    </form>
  );
}

export function AddPasskey(
  { onAdded, describeFailure, withProof }: {
    onAdded: (result: { recoveryCodes?: string[] }) => Promise<void>;
    describeFailure: (failure: unknown) => string;
    withProof: ProofGate;
  },
) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!passkeysSupported()) return null;
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const missing = requiredError(name, t('security.nameRequired'));
    setError(missing);
    if (missing) return;
    setBusy(true);
    const chosen = name.trim();
    try {
      await withProof(async () => {
        await onAdded(await addPasskey(chosen));
        setName('');
      });
    } catch (failure) {
      setError(describeFailure(failure));
    }
    setBusy(false);
  }
  return (
    <section className='security-section' aria-labelledby='security-passkey-heading'>
      <h3 id='security-passkey-heading'>{t('security.addPasskey')}</h3>
      <p>{t('security.addPasskeyHint')}</p>
      <FactorNameForm
        formName='add-passkey'
        fieldId='passkey_name'
        label={t('security.passkeyName')}
        submitLabel={t('security.addPasskey')}
        {...{ name, setName, error, busy }}
        onSubmit={submit}
      />
    </section>
  );
}

export function AddAuthenticator(
  { onAdded, describeFailure, withProof }: {
    onAdded: (result: { recoveryCodes?: string[] }) => Promise<void>;
    describeFailure: (failure: unknown) => string;
    withProof: ProofGate;
  },
) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [started, setStarted] = useState<{ factorId: string; secret: string; qr: string | null } | null>(
    null,
  );
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function start(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const missing = requiredError(name, t('security.nameRequired'));
    setError(missing);
    if (missing) return;
    setBusy(true);
    const chosen = name.trim();
    try {
      await withProof(async () => {
        const enrolment = await startAuthenticator(chosen);
        setStarted({ factorId: enrolment.factorId, secret: enrolment.secret, qr: null });
        const { toDataURL } = await import('qrcode');
        const qr = await toDataURL(enrolment.uri, { margin: 1, width: 200 });
        setStarted({ factorId: enrolment.factorId, secret: enrolment.secret, qr });
      });
    } catch (failure) {
      setError(describeFailure(failure));
    }
    setBusy(false);
  }

  async function confirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!started) return;
    const missing = requiredError(code, t('mfa.codeRequired'));
    setError(missing);
    if (missing) return;
    setBusy(true);
    const { factorId } = started;
    const typed = code.trim();
    try {
      await withProof(async () => {
        const result = await confirmAuthenticator(factorId, typed);
        setStarted(null);
        setName('');
        setCode('');
        await onAdded(result);
      });
    } catch (failure) {
      setError(describeFailure(failure));
    }
    setBusy(false);
  }

  return (
    <section className='security-section' aria-labelledby='security-totp-heading'>
      <h3 id='security-totp-heading'>{t('security.addAuthenticator')}</h3>
      {!started && (
        <FactorNameForm
          formName='add-authenticator'
          fieldId='authenticator_name'
          label={t('security.authenticatorName')}
          submitLabel={t('security.addAuthenticator')}
          {...{ name, setName, error, busy }}
          onSubmit={start}
        />
      )}
      {started && (
        <form name='confirm-authenticator' noValidate onSubmit={confirm} aria-busy={busy}>
          <p>{t('security.authenticatorHint')}</p>
          {started.qr && (
            <img className='mfa-qr' src={started.qr} width={200} height={200} alt={t('mfa.qrAlt')} />
          )}
          <p>
            {t('mfa.secretLabel')}{' '}
            <code className='mfa-secret' data-secret={started.secret}>
              {started.secret.match(/.{1,4}/g)?.join(' ')}
            </code>
          </p>
          <fieldset className='form-fields' disabled={busy}>
            <TextField
              id='authenticator_code'
              label={t('mfa.code')}
              autoComplete='one-time-code'
              inputMode='numeric'
              value={code}
              error={error}
              onChange={(event) => setCode(event.target.value)}
            />
            <button type='submit' className='btn btn-primary'>{t('mfa.verify')}</button>
          </fieldset>
        </form>
      )}
    </section>
  );
}
