/**
 * /set-password: an account approved with a one-time temporary password must
 * choose its own before anything else (the API refuses every other call until
 * then). Same length rule and strength label as registration.
 */
import { Button, Form, Input, Typography } from 'antd';
import { type ChangeEvent, type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../components/TextField.tsx';
import { resetDate } from './pinReset.ts';
import { keepKeyAfterSignIn } from '../offline/tabletSession.ts';
import { useNavigate } from 'react-router-dom';
import { AuthCard } from './AuthPage.tsx';
import { PasswordStrengthLabel } from './PasswordStrengthLabel.tsx';
import { useToast } from '../components/useToast.ts';
import { failureMessage } from '../lib/api.ts';
import { changePassword } from './authApi.ts';
import {
  checkNewPassword,
  type NewPasswordField,
  newPasswordMessageText,
  type NewPasswordValues,
} from './passwordForm.ts';
import { PATHS } from '../lib/routing.ts';
import { storage } from '../lib/storage.ts';

/** Each field's label in the catalogues. */
const LABELS = {
  currentPassword: 'setPassword.currentPassword',
  newPassword: 'setPassword.newPassword',
  confirmPassword: 'setPassword.confirmPassword',
} as const satisfies Record<NewPasswordField, string>;

const AUTOCOMPLETE: Record<NewPasswordField, string> = {
  currentPassword: 'current-password',
  newPassword: 'new-password',
  confirmPassword: 'new-password',
};

export function SetPassword() {
  const stored = storage.readUser();
  return stored.ok && stored.user.role === 'offender'
    ? <SetPin pinResetAt={stored.user.pinResetAt} />
    : <SetStaffPassword />;
}

/**
 * An offender signed in with a PIN staff reset: the session may only choose a new PIN (the API refuses
 * everything else), and the screen says that staff reset it, and when. Plain words in the session's language.
 * The focus starts in the first field, and a refused PIN marks the field that is wrong and puts the focus (and
 * its ring) there. The PIN from staff is good for one sign-in (api/domain/pin_reset.ts), so Log Off asks first:
 * leaving here means asking staff for another.
 */
function SetPin({ pinResetAt }: { pinResetAt?: string }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const toast = useToast();
  const [values, setValues] = useState({ current: '', pin: '', again: '' });
  const [error, setError] = useState<{ field: keyof typeof values; text: string } | undefined>();
  const [loading, setLoading] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const stay = useRef<HTMLButtonElement>(null);
  const logOff = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (leaving) stay.current?.focus();
  }, [leaving]);

  /** Marks `field` wrong with `text` and puts the focus there. */
  function refuse(field: keyof typeof values, text: string) {
    setError({ field, text });
    document.getElementById(`pin_${field}`)?.focus();
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (loading) return;
    if (!values.current.trim()) return refuse('current', t('pinReset.required'));
    if (!/^\d{6,12}$/.test(values.pin)) return refuse('pin', t('pinReset.rule'));
    if (values.pin !== values.again) return refuse('again', t('pinReset.mismatch'));
    setLoading(true);
    try {
      const result = await changePassword(values.current, values.pin);
      const stored = storage.readUser();
      const user = result.user ?? (stored.ok ? { ...stored.user, mustChangePassword: false } : null);
      if (user) {
        const { pinResetAt: _told, ...rest } = user;
        storage.saveUser(rest);
      }
      // The tablet's offline key, kept under the PIN just chosen (the lock screen asks for it).
      await keepKeyAfterSignIn(values.pin);
      navigate(PATHS.portal, { replace: true });
    } catch (failure) {
      toast.error(failureMessage(failure, { failed: t('setPassword.failed') }));
      setLoading(false);
    }
  }

  const field = (name: keyof typeof values, label: string) => (
    <TextField
      id={`pin_${name}`}
      type='password'
      inputMode='numeric'
      label={label}
      autoComplete='off'
      autoFocus={name === 'current'}
      value={values[name]}
      error={error?.field === name ? error.text : undefined}
      onChange={(event) => {
        const value = event.target.value;
        setValues((current) => ({ ...current, [name]: value }));
        setError(undefined);
      }}
    />
  );

  return (
    <AuthCard title={t('pinReset.title')}>
      <p className='alert alert-warning' role='status'>
        {t('pinReset.intro', { date: resetDate(pinResetAt, i18n.language) })}
      </p>
      <form name='set-pin' noValidate onSubmit={submit} aria-busy={loading}>
        <fieldset className='form-fields' disabled={loading}>
          {field('current', t('pinReset.current'))}
          {field('pin', t('pinReset.new'))}
          {field('again', t('pinReset.confirm'))}
          <button type='submit' className='btn btn-primary btn-block'>{t('pinReset.submit')}</button>
        </fieldset>
      </form>
      {leaving
        ? (
          <div
            className='alert alert-warning pin-leave-warning'
            role='alertdialog'
            aria-labelledby='pin-leave'
          >
            <p id='pin-leave' className='alert-title'>{t('pinReset.leaveWarning')}</p>
            <div className='pin-leave-actions'>
              <button
                ref={stay}
                type='button'
                className='btn btn-primary'
                onClick={() => {
                  setLeaving(false);
                  requestAnimationFrame(() => logOff.current?.focus());
                }}
              >
                {t('pinReset.stay')}
              </button>
              <button type='button' className='btn' onClick={() => navigate(PATHS.logout)}>
                {t('pinReset.leave')}
              </button>
            </div>
          </div>
        )
        : (
          <p className='auth-link'>
            <button ref={logOff} type='button' className='btn' onClick={() => setLeaving(true)}>
              {t('common.logOff')}
            </button>
          </p>
        )}
    </AuthCard>
  );
}

function SetStaffPassword() {
  const { t } = useTranslation();
  const [values, setValues] = useState<NewPasswordValues>({
    currentPassword: '',
    newPassword: '',
    confirmPassword: '',
  });
  const [errors, setErrors] = useState<Partial<Record<NewPasswordField, string>>>({});
  const [loading, setLoading] = useState(false);
  const navigate = useNavigate();
  const toast = useToast();

  function field(name: NewPasswordField) {
    const error = errors[name];
    const errorId = `${name}-error`;
    return (
      <Form.Item
        label={t(LABELS[name])}
        htmlFor={name}
        required
        validateStatus={error ? 'error' : undefined}
        help={error ? <span id={errorId}>{newPasswordMessageText(error)}</span> : undefined}
        extra={name === 'newPassword' ? <PasswordStrengthLabel password={values.newPassword} /> : undefined}
      >
        <Input.Password
          id={name}
          value={values[name]}
          autoComplete={AUTOCOMPLETE[name]}
          status={error ? 'error' : undefined}
          aria-invalid={error ? true : undefined}
          aria-required
          aria-describedby={error ? errorId : undefined}
          onChange={(event: ChangeEvent<HTMLInputElement>) => {
            const value = event.target.value;
            setValues((current) => ({ ...current, [name]: value }));
            setErrors((current) => ({ ...current, [name]: undefined }));
          }}
        />
      </Form.Item>
    );
  }

  async function submit() {
    if (loading) return;
    const check = checkNewPassword(values);
    if (!check.ok) {
      setErrors({ [check.field]: check.message });
      toast.error(newPasswordMessageText(check.message));
      document.getElementById(check.field)?.focus();
      return;
    }
    setLoading(true);
    try {
      const result = await changePassword(values.currentPassword, values.newPassword);
      const stored = storage.readUser();
      const user = result.user ?? (stored.ok ? { ...stored.user, mustChangePassword: false } : null);
      if (user) storage.saveUser(user);
      // The API's success message is, in English, the catalogue's text (tests/checks/i18n.test.ts).
      toast.success(t('setPassword.success'));
      navigate(PATHS.portal, { replace: true });
    } catch (error) {
      toast.error(failureMessage(error, { failed: t('setPassword.failed') }));
      setLoading(false);
    }
  }

  return (
    <AuthCard title={t('setPassword.title')}>
      <Typography.Paragraph>{t('setPassword.intro')}</Typography.Paragraph>
      <Form layout='vertical' name='set-password' onFinish={submit} disabled={loading} noValidate>
        {/* Lets password managers pair the new password with the account. */}
        <input
          type='text'
          name='username'
          autoComplete='username'
          value={storage.getDocId() ?? ''}
          readOnly
          hidden
        />
        {field('currentPassword')}
        {field('newPassword')}
        {field('confirmPassword')}
        <Form.Item>
          <Button type='primary' htmlType='submit' block loading={loading}>
            {t('setPassword.submit')}
          </Button>
        </Form.Item>
      </Form>
      <Typography.Paragraph className='auth-link'>
        <Button type='link' onClick={() => navigate(PATHS.logout)}>
          {t('common.logOff')}
        </Button>
      </Typography.Paragraph>
    </AuthCard>
  );
}
