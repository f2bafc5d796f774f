/**
 * /security: a staff user's own second factors, reached from every staff portal's header. Lists them (name, kind,
 * added, last used), adds a passkey or security key (named first) or an authenticator app (its QR code and the
 * secret as text, then its first code), removes one, and makes new recovery codes; removing and new codes ask for
 * a second factor first. Adding one asks, when the API wants it (no proof in the last few minutes), for the
 * password of an account without a factor or for one of its factors, then carries on with the addition.
 * Plain markup like the sign-in screen; the QR and WebAuthn libraries load when used.
 */
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PortalHeader } from '../components/PortalHeader.tsx';
import { PortalLayout } from '../components/PortalLayout.tsx';
import { requiredError, TextField } from '../components/TextField.tsx';
import { useLogOff } from '../components/useLogOff.ts';
import { AddAuthenticator, AddPasskey, type ProofGate } from './SecurityAddFactor.tsx';
import { failureMessage } from '../lib/api.ts';
import { formatDate, formatDateTime } from '../lib/format.ts';
import { homeForRole } from '../lib/routing.ts';
import { storage } from '../lib/storage.ts';
import {
  DEFAULT_AUTHENTICATOR_NAME,
  type MfaFactor,
  type MfaFactorList,
  type MfaIdentityProof,
  type MfaProof,
} from '../../../contract/shapes/mfa.ts';
import {
  listFactors,
  needsIdentityProof,
  PasskeyCancelled,
  passkeyProof,
  passkeysSupported,
  proveIdentity,
  removeFactor,
  replaceRecoveryCodes,
} from './passkeys.ts';

/** What waits for a proof before it is done: a second factor, or for an addition the password where none is. */
type Pending =
  | { kind: 'remove'; factorId: string; name: string }
  | { kind: 'codes' }
  | { kind: 'identity'; resume: () => Promise<void> };

/** Adds a factor (`run`), asking for a proof of identity first when the API wants one. */

export function SecurityScreen() {
  const { t } = useTranslation();
  // An authenticator app enrolled without a name has the API's English default: shown in the language shown.
  const factorName = (f: MfaFactor) =>
    f.kind === 'totp' && f.name === DEFAULT_AUTHENTICATOR_NAME ? t('security.kindTotp') : f.name;
  const stored = storage.readUser();
  const role = stored.ok ? stored.user.role : null;
  const logOff = useLogOff(role === 'admin' || role === 'representative' ? 'to-login' : 'logout-screen');
  const [list, setList] = useState<MfaFactorList | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);

  const failed = useCallback(
    (failure: unknown) =>
      failure instanceof PasskeyCancelled
        ? t('mfa.passkeyCancelled')
        : failureMessage(failure, { failed: t('security.failed') }),
    [t],
  );
  const reload = useCallback(async () => {
    try {
      setList(await listFactors());
    } catch (failure) {
      setError(failed(failure));
    }
  }, [failed]);
  useEffect(() => {
    void reload();
  }, [reload]);

  // The addition is tried; when the API asks for a proof, the panel asks for it and the addition resumes.
  const withProof: ProofGate = async (run) => {
    try {
      await run();
    } catch (failure) {
      if (!needsIdentityProof(failure)) throw failure;
      setNotice(null);
      setPending({ kind: 'identity', resume: run });
    }
  };

  const added = async (result: { recoveryCodes?: string[] }) => {
    setNotice(t('security.added'));
    if (result.recoveryCodes?.length) setCodes(result.recoveryCodes);
    await reload();
  };

  const hasPasskey = list?.factors.some((f) => f.kind === 'webauthn') ?? false;
  const hasTotp = list?.factors.some((f) => f.kind === 'totp') ?? false;
  const back = (
    <Link className='btn' to={homeForRole(role)}>
      <span>{t('security.back')}</span>
    </Link>
  );

  return (
    <PortalLayout header={<PortalHeader subtitle={t('security.heading')} actions={back} onLogOff={logOff} />}>
      <div className='security-screen'>
        <h2 className='security-title'>{t('security.heading')}</h2>
        <p>{t('security.intro')}</p>
        {list?.required && list.factors.length === 0 && (
          <p className='alert alert-warning' role='status'>{t('security.required')}</p>
        )}
        {error && <p className='alert alert-error' role='alert'>{error}</p>}
        {notice && <p className='alert alert-success' role='status'>{notice}</p>}
        {codes && (
          <section className='security-section' aria-labelledby='security-codes-heading'>
            <h3 id='security-codes-heading'>{t('mfa.recoveryCodesHeading')}</h3>
            <p>{t('mfa.recoveryCodesHint')}</p>
            <ul className='recovery-codes' aria-label={t('mfa.recoveryCodesHeading')}>
              {codes.map((c) => (
                <li key={c}>
                  <code>{c}</code>
                </li>
              ))}
            </ul>
            <button
              type='button'
              className='btn'
              onClick={() => setCodes(null)}
            >
              {t('security.codesSaved')}
            </button>
          </section>
        )}

        <section className='security-section' aria-labelledby='security-factors-heading'>
          <h3 id='security-factors-heading'>{t('security.factorsHeading')}</h3>
          {list && list.factors.length === 0 && <p>{t('security.noFactors')}</p>}
          {list && list.factors.length > 0 && (
            <table className='security-factors'>
              <caption className='visually-hidden'>{t('security.factorsHeading')}</caption>
              <thead>
                <tr>
                  <th scope='col'>{t('security.name')}</th>
                  <th scope='col'>{t('security.kind')}</th>
                  <th scope='col'>{t('security.addedOn')}</th>
                  <th scope='col'>{t('security.lastUsed')}</th>
                  <th scope='col'>{t('security.actions')}</th>
                </tr>
              </thead>
              <tbody>
                {list.factors.map((f) => (
                  <tr key={f.id}>
                    <td>{factorName(f)}</td>
                    <td>{f.kind === 'webauthn' ? t('security.kindPasskey') : t('security.kindTotp')}</td>
                    <td>{formatDate(f.createdAt)}</td>
                    <td>{f.lastUsedAt ? formatDateTime(f.lastUsedAt) : t('security.never')}</td>
                    <td>
                      <button
                        type='button'
                        className='btn'
                        aria-label={t('security.removeNamed', { name: factorName(f) })}
                        onClick={() => {
                          setNotice(null);
                          setPending({ kind: 'remove', factorId: f.id, name: factorName(f) });
                        }}
                      >
                        {t('security.remove')}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {list && list.factors.length > 0 && (
            <p>
              {t('security.codesLeft', { count: list.recoveryCodesLeft })}{' '}
              <button
                type='button'
                className='btn'
                onClick={() => {
                  setNotice(null);
                  setPending({ kind: 'codes' });
                }}
              >
                {t('security.newCodes')}
              </button>
            </p>
          )}
        </section>

        {pending?.kind === 'identity' && list?.factors.length === 0 && (
          <ProvePassword
            onCancel={() => setPending(null)}
            describeFailure={failed}
            onProof={async (proof) => {
              await proveIdentity(proof);
              await pending.resume();
              setPending(null);
            }}
          />
        )}
        {pending && list && !(pending.kind === 'identity' && list.factors.length === 0) && (
          <ProveAgain
            key={pending.kind === 'remove' ? pending.factorId : pending.kind}
            title={pending.kind === 'remove'
              ? t('security.removeHeading', { name: pending.name })
              : pending.kind === 'identity'
              ? t('security.identityHeading')
              : t('security.newCodesHeading')}
            passkey={hasPasskey}
            totp={hasTotp}
            recovery={list.recoveryCodesLeft > 0}
            onCancel={() => setPending(null)}
            describeFailure={failed}
            onProof={async (proof) => {
              if (pending.kind === 'identity') {
                await proveIdentity(proof);
                await pending.resume();
                setPending(null);
                return;
              }
              if (pending.kind === 'remove') {
                await removeFactor(pending.factorId, proof);
                setNotice(t('security.removed'));
              } else {
                setCodes(await replaceRecoveryCodes(proof));
                setNotice(t('security.codesReplaced'));
              }
              setPending(null);
              await reload();
            }}
          />
        )}

        <AddPasskey onAdded={added} describeFailure={failed} withProof={withProof} />
        <AddAuthenticator onAdded={added} describeFailure={failed} withProof={withProof} />
      </div>
    </PortalLayout>
  );
}

/** Asks for a second factor before a removal or new recovery codes: a passkey, an app's code, a recovery code. */
function ProveAgain(
  { title, passkey, totp, recovery, onProof, onCancel, describeFailure }: {
    title: string;
    passkey: boolean;
    totp: boolean;
    recovery: boolean;
    onProof: (proof: MfaProof) => Promise<void>;
    onCancel: () => void;
    describeFailure: (failure: unknown) => string;
  },
) {
  const { t } = useTranslation();
  const [method, setMethod] = useState<'totp' | 'recovery'>(totp ? 'totp' : 'recovery');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  // The panel opens below the list: the focus goes to it, so a keyboard or screen-reader user is where it asks.
  useEffect(() => heading.current?.focus(), []);

  async function prove(make: () => Promise<MfaProof>) {
    setBusy(true);
    setError(null);
    try {
      await onProof(await make());
    } catch (failure) {
      setError(describeFailure(failure));
      setBusy(false);
    }
  }
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const missing = requiredError(code, t('mfa.codeRequired'));
    setError(missing);
    if (missing) return;
    await prove(() => Promise.resolve({ method, code: code.trim() }));
  }

  return (
    <section className='security-section security-prove' aria-labelledby='security-prove-heading'>
      <h3 id='security-prove-heading' ref={heading} tabIndex={-1}>{title}</h3>
      <p>{t('security.proveHint')}</p>
      {passkey && passkeysSupported() && (
        <p>
          <button
            type='button'
            className='btn btn-primary'
            disabled={busy}
            onClick={() => prove(passkeyProof)}
          >
            {t('mfa.usePasskey')}
          </button>
        </p>
      )}
      {(totp || recovery) && (
        <form name='prove-again' noValidate onSubmit={submit} aria-busy={busy}>
          <fieldset className='form-fields' disabled={busy}>
            <TextField
              id='prove_code'
              label={method === 'totp' ? t('mfa.code') : t('mfa.recoveryCode')}
              autoComplete='one-time-code'
              inputMode={method === 'totp' ? 'numeric' : 'text'}
              value={code}
              error={error}
              onChange={(event) => setCode(event.target.value)}
            />
            <button type='submit' className='btn'>{t('mfa.verify')}</button>
          </fieldset>
        </form>
      )}
      {!(totp || recovery) && error && <p className='field-error' role='alert'>{error}</p>}
      {totp && recovery && (
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
      <p>
        <button type='button' className='btn' onClick={onCancel}>{t('security.cancel')}</button>
      </p>
    </section>
  );
}

/** Asks an account without a second factor for its password before one is added. */
function ProvePassword(
  { onProof, onCancel, describeFailure }: {
    onProof: (proof: MfaIdentityProof) => Promise<void>;
    onCancel: () => void;
    describeFailure: (failure: unknown) => string;
  },
) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  // As the second-factor panel: the focus goes where the question is.
  useEffect(() => heading.current?.focus(), []);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const missing = requiredError(password, t('security.passwordRequired'));
    setError(missing);
    if (missing) return;
    setBusy(true);
    try {
      await onProof({ method: 'password', password });
    } catch (failure) {
      setError(describeFailure(failure));
      setBusy(false);
    }
  }

  return (
    <section className='security-section security-prove' aria-labelledby='security-identity-heading'>
      <h3 id='security-identity-heading' ref={heading} tabIndex={-1}>{t('security.identityHeading')}</h3>
      <p>{t('security.passwordHint')}</p>
      <form name='prove-password' noValidate onSubmit={submit} aria-busy={busy}>
        <fieldset className='form-fields' disabled={busy}>
          <TextField
            id='prove_password'
            type='password'
            label={t('security.currentPassword')}
            autoComplete='current-password'
            value={password}
            error={error}
            onChange={(event) => setPassword(event.target.value)}
          />
          <button type='submit' className='btn btn-primary'>{t('security.continue')}</button>
        </fieldset>
      </form>
      <p>
        <button type='button' className='btn' onClick={onCancel}>{t('security.cancel')}</button>
      </p>
    </section>
  );
}
