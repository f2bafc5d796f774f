/**
 * /login (spec sections 2, 4, 5, 8). One form for everyone: offenders type
 * their DOC number and PIN, staff their e-mail and password. The fields carry
 * the spec's offender labels; the "Attorneys and staff" switch above them
 * relabels them "Email" and "Password" (attorneys typed their e-mail into
 * "facility ID number" and wondered). Either way the same request. Neither field
 * invites the browser to remember it (autocomplete off): the form cannot tell
 * a facility's shared tablet from an attorney's own computer. Plain markup, no
 * antd: it is the first page the facility tablet loads (the tablet's 200 KB budget).
 */
import type { TFunction } from 'i18next';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { AuthCard } from './AuthPage.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { requiredError, TextField } from '../components/TextField.tsx';
import { useToast } from '../components/useToast.ts';
import { ApiError, failureMessage } from '../lib/api.ts';
import { login, type LoginResult, logout, sendUnsentLogouts } from './authApi.ts';
import { SecondFactorStep } from './SecondFactorStep.tsx';
import { afterLogin, PATHS } from '../lib/routing.ts';
import { storage } from '../lib/storage.ts';
import { browserState, clearSession } from '../lib/state/browserState.ts';
import { useOnline } from '../offline/useOnline.ts';
import { keepKeyAfterSignIn } from '../offline/tabletSession.ts';
import { LanguageSwitch } from '../i18n/LanguageSwitch.tsx';
import {
  chooseOnSignIn,
  keepChoiceInAddress,
  sessionLanguage,
  showSessionLanguage,
} from '../i18n/language.ts';

interface LoginValues {
  username: string;
  password: string;
}

type LoginErrors = Partial<Record<keyof LoginValues, string | null>>;

function validate(values: LoginValues, t: TFunction): LoginErrors {
  return {
    username: requiredError(values.username, t('login.usernameRequired')),
    password: requiredError(values.password, t('login.passwordRequired')),
  };
}

export function Login() {
  const [loading, setLoading] = useState(false);
  const [values, setValues] = useState<LoginValues>({ username: '', password: '' });
  const [errors, setErrors] = useState<LoginErrors>({});
  const [step, setStep] = useState<(LoginResult & { ok: 'second-factor' }) | null>(null);
  // Off at every visit: a facility tablet's next reader is an offender.
  const [staff, setStaff] = useState(false);
  const navigate = useNavigate();
  const toast = useToast();
  const online = useOnline();
  const { t } = useTranslation();
  // A language chosen on the registration page is written in this page's address too, so a reload keeps it.
  useEffect(keepChoiceInAddress, []);

  function change(field: keyof LoginValues, value: string) {
    const nextValues = { ...values, [field]: value };
    setValues(nextValues);
    // A field already marked wrong is checked again as it is typed in (what antd's Form did).
    if (errors[field] !== undefined) setErrors({ ...errors, [field]: validate(nextValues, t)[field] });
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = validate(values, t);
    setErrors(found);
    if (found.username || found.password) return;
    const username = values.username.trim();
    setLoading(true);
    try {
      // Sign-outs made without the network reach the server before anything else.
      await sendUnsentLogouts();
      const result = await login(username, values.password);
      if (!result.ok) {
        toast.error(t('login.refused'));
        setLoading(false);
        return;
      }
      if (result.ok === 'second-factor') {
        setStep(result);
        setLoading(false);
        return;
      }
      await keepSession(result);
    } catch (error) {
      const unreachable = error instanceof ApiError && error.status === 0;
      toast.error(
        unreachable ? t('offline.signInNeedsNetwork') : failureMessage(error, { failed: t('login.failed') }),
      );
      setLoading(false);
    }
  }

  /** Keeps the session a sign-in opened (after the password, or after the second factor) and opens the portal. */
  async function keepSession(result: LoginResult & { ok: true }) {
    const username = values.username.trim();
    // The session this tablet held before (someone else's, or an older one of this person's) ends on the server
    // first, its offline key with it; then its state here is wiped before this one is stored.
    const previous = storage.getGuid();
    if (previous && previous !== result.token) await logout(previous);
    await browserState.beginSession(result.user.id);
    // The session's language: the one chosen here, else the saved preference (i18n/language.ts); a choice here
    // that differs from the saved one is offered to the user as their account's language.
    const user = { ...result.user, language: sessionLanguage(result.user.language) };
    const saved = storage.saveSession({ token: result.token, user, docId: username });
    if (!saved.ok) {
      await clearSession();
      toast.error(t('login.storageFailed'));
      setLoading(false);
      return;
    }
    // The offender's tablet: the session's data key, kept wrapped under the PIN just typed, so the
    // lock screen can reopen the saved mail without the network.
    // A PIN staff reset opens a session that may only choose a new PIN: the key waits for that PIN.
    if (result.user.role === 'offender' && !result.user.mustChangePassword) {
      await keepKeyAfterSignIn(values.password);
    }
    await showSessionLanguage(user.language);
    toast.success(t('login.success'));
    navigate(afterLogin(result.user), { replace: true });
  }

  if (step) {
    return (
      <AuthCard title={t('login.heading')}>
        <SecondFactorStep
          mfaToken={step.mfaToken}
          methods={step.methods}
          enrol={step.enrol}
          onSignedIn={keepSession}
          onCancel={() => {
            setStep(null);
            setValues({ ...values, password: '' });
          }}
        />
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('login.heading')}>
      <LanguageSwitch className='auth-language' onChoose={chooseOnSignIn} />
      {!online && (
        <div className='alert alert-warning offline-notice' role='status'>
          <span className='alert-title'>{t('offline.signInNeedsNetwork')}</span>
        </div>
      )}
      <button
        type='button'
        className='btn btn-block login-staff-switch'
        aria-pressed={staff}
        disabled={loading}
        onClick={() => setStaff(!staff)}
      >
        <span className='login-staff-switch-mark' aria-hidden='true'>{staff ? '✓' : ''}</span>
        {t('login.staffSwitch')}
      </button>
      <form name='login' className='login-form' noValidate onSubmit={submit} aria-busy={loading}>
        <fieldset className='form-fields' disabled={loading}>
          {/* A shared facility tablet must not offer the DOC numbers typed on it before. */}
          <TextField
            id='login_username'
            label={t(staff ? 'login.email' : 'login.username')}
            placeholder={t(staff ? 'login.emailPlaceholder' : 'login.usernamePlaceholder')}
            autoComplete='off'
            autoFocus
            value={values.username}
            error={errors.username}
            onChange={(event) => change('username', event.target.value)}
          />
          {
            /*
             * One form serves offenders (PIN) and staff (password), and a facility tablet is shared: nothing
             * may invite the browser to save the secret typed here. Chromium's password manager ignores 'off'
             * and keeps the DOC number of every sign-in it offered to save in its own files; it leaves a
             * 'one-time-code' field alone.
             */
          }
          <TextField
            id='login_password'
            type='password'
            label={t(staff ? 'login.staffPassword' : 'login.password')}
            placeholder={t(staff ? 'login.staffPasswordPlaceholder' : 'login.passwordPlaceholder')}
            autoComplete='one-time-code'
            value={values.password}
            error={errors.password}
            onChange={(event) => change('password', event.target.value)}
          />
          <button type='submit' className='btn btn-primary btn-block'>{t('login.submit')}</button>
        </fieldset>
        {loading && <Spinner label={t('login.signingIn')} />}
      </form>
      {/* The fields keep the spec's offender words until the switch is on; staff are told theirs here. */}
      {!staff && <p className='auth-hint'>{t('login.staffHint')}</p>}
      <p className='auth-link'>
        <Link to={PATHS.register}>{t('login.register')}</Link>
      </p>
      <p className='auth-link'>
        <Link to={PATHS.forgotPassword}>{t('passwordReset.forgotLink')}</Link>
      </p>
    </AuthCard>
  );
}
