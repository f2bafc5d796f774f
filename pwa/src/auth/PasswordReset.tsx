/**
 * Staff who forgot their password: /forgot-password asks for the e-mail address and the API e-mails a single-use
 * link (the same answer whether the address has an account or not); /reset-password sets the new password from
 * the link's code (in the address after '#', never sent to the server as part of a URL) or from the code typed.
 * Plain markup like the sign-in page.
 */
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { AuthCard } from './AuthPage.tsx';
import { forgotPassword, resetPassword } from './authApi.ts';
import { requiredError, TextField } from '../components/TextField.tsx';
import { useToast } from '../components/useToast.ts';
import { failureMessage } from '../lib/api.ts';
import { PATHS } from '../lib/routing.ts';

export function ForgotPassword() {
  const { t } = useTranslation();
  const toast = useToast();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [sent, setSent] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const missing = requiredError(email, t('passwordReset.emailRequired'));
    if (missing) {
      setError(missing ?? undefined);
      return;
    }
    setLoading(true);
    try {
      setSent((await forgotPassword(email.trim())) ?? '');
    } catch (failure) {
      toast.error(failureMessage(failure, { failed: t('passwordReset.failed') }));
    } finally {
      setLoading(false);
    }
  }

  return (
    <AuthCard title={t('passwordReset.forgotTitle')}>
      {sent !== null
        ? <p className='alert alert-warning' role='status'>{sent}</p>
        : (
          <form name='forgot-password' noValidate onSubmit={submit} aria-busy={loading}>
            <p>{t('passwordReset.forgotIntro')}</p>
            <fieldset className='form-fields' disabled={loading}>
              <TextField
                id='forgot_email'
                type='email'
                label={t('passwordReset.email')}
                autoComplete='email'
                value={email}
                error={error}
                onChange={(e) => {
                  setEmail(e.target.value);
                  setError(undefined);
                }}
              />
              <button type='submit' className='btn btn-primary btn-block'>{t('passwordReset.send')}</button>
            </fieldset>
          </form>
        )}
      <p className='auth-link'>
        <Link to={PATHS.resetPassword}>{t('passwordReset.haveCode')}</Link>
      </p>
      <p className='auth-link'>
        <Link to={PATHS.login}>{t('passwordReset.backToSignIn')}</Link>
      </p>
    </AuthCard>
  );
}

const MIN_LENGTH = 8;

export function ResetPassword() {
  const { t } = useTranslation();
  const toast = useToast();
  const navigate = useNavigate();
  const [values, setValues] = useState({
    code: decodeURIComponent(window.location.hash.replace(/^#/, '')),
    newPassword: '',
    confirmPassword: '',
  });
  const [errors, setErrors] = useState<Partial<Record<keyof typeof values, string>>>({});
  const [loading, setLoading] = useState(false);

  function change(name: keyof typeof values, value: string) {
    setValues((current) => ({ ...current, [name]: value }));
    setErrors((current) => ({ ...current, [name]: undefined }));
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found: typeof errors = {};
    if (!values.code.trim()) found.code = t('passwordReset.codeRequired');
    else if (values.newPassword.length < MIN_LENGTH) found.newPassword = t('passwordReset.tooShort');
    else if (values.newPassword !== values.confirmPassword) {
      found.confirmPassword = t('passwordReset.mismatch');
    }
    if (Object.keys(found).length > 0) {
      setErrors(found);
      return;
    }
    setLoading(true);
    try {
      const message = await resetPassword(values.code.trim(), values.newPassword);
      // The code leaves the address bar and the history entry.
      history.replaceState(null, '', PATHS.resetPassword);
      if (message) toast.success(message);
      navigate(PATHS.login, { replace: true });
    } catch (failure) {
      toast.error(failureMessage(failure, { failed: t('passwordReset.failed') }));
      setLoading(false);
    }
  }

  return (
    <AuthCard title={t('passwordReset.resetTitle')}>
      <form name='reset-password' noValidate onSubmit={submit} aria-busy={loading}>
        <fieldset className='form-fields' disabled={loading}>
          <TextField
            id='reset_code'
            label={t('passwordReset.code')}
            autoComplete='off'
            value={values.code}
            error={errors.code}
            onChange={(e) => change('code', e.target.value)}
          />
          <TextField
            id='reset_new'
            type='password'
            label={t('passwordReset.newPassword')}
            autoComplete='new-password'
            value={values.newPassword}
            error={errors.newPassword}
            onChange={(e) => change('newPassword', e.target.value)}
          />
          <TextField
            id='reset_confirm'
            type='password'
            label={t('passwordReset.confirmPassword')}
            autoComplete='new-password'
            value={values.confirmPassword}
            error={errors.confirmPassword}
            onChange={(e) => change('confirmPassword', e.target.value)}
          />
          <button type='submit' className='btn btn-primary btn-block'>{t('passwordReset.save')}</button>
        </fieldset>
      </form>
      <p className='auth-link'>
        <Link to={PATHS.login}>{t('passwordReset.backToSignIn')}</Link>
      </p>
    </AuthCard>
  );
}
