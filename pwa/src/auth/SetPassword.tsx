/**
 * /set-password: an account approved with a one-time temporary password must
 * choose its own before anything else (the API refuses every other call until
 * then). Same length rule and strength label as registration.
 */
import { Button, Form, Input, Typography } from 'antd';
import { type ChangeEvent, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { AuthCard } from './AuthPage.tsx';
import { PasswordStrengthLabel } from './PasswordStrengthLabel.tsx';
import { useToast } from '../components/useToast.ts';
import { failureMessage } from '../lib/api.ts';
import { changePassword } from './authApi.ts';
import { checkNewPassword, type NewPasswordField, type NewPasswordValues } from './passwordForm.ts';
import { PATHS } from '../lib/routing.ts';
import { storage } from '../lib/storage.ts';

export const SET_PASSWORD_TEXTS = {
  title: 'Set a new password',
  intro: 'You signed in with a temporary password. Choose your own password to continue.',
  submit: 'Save new password',
  success: 'Password changed successfully',
  failed: 'Password change failed. Please try again.',
} as const;

const LABELS: Record<NewPasswordField, string> = {
  currentPassword: 'Current (temporary) password',
  newPassword: 'New password',
  confirmPassword: 'Confirm new password',
};

const AUTOCOMPLETE: Record<NewPasswordField, string> = {
  currentPassword: 'current-password',
  newPassword: 'new-password',
  confirmPassword: 'new-password',
};

export function SetPassword() {
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
        label={LABELS[name]}
        htmlFor={name}
        required
        validateStatus={error ? 'error' : undefined}
        help={error ? <span id={errorId}>{error}</span> : undefined}
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
      toast.error(check.message);
      document.getElementById(check.field)?.focus();
      return;
    }
    setLoading(true);
    try {
      const result = await changePassword(values.currentPassword, values.newPassword);
      const stored = storage.readUser();
      const user = result.user ?? (stored.ok ? { ...stored.user, mustChangePassword: false } : null);
      if (user) storage.saveUser(user);
      toast.success(result.message ?? SET_PASSWORD_TEXTS.success);
      navigate(PATHS.portal, { replace: true });
    } catch (error) {
      toast.error(failureMessage(error, { failed: SET_PASSWORD_TEXTS.failed }));
      setLoading(false);
    }
  }

  return (
    <AuthCard title={SET_PASSWORD_TEXTS.title}>
      <Typography.Paragraph>{SET_PASSWORD_TEXTS.intro}</Typography.Paragraph>
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
            {SET_PASSWORD_TEXTS.submit}
          </Button>
        </Form.Item>
      </Form>
      <Typography.Paragraph className='auth-link'>
        <Button type='link' onClick={() => navigate(PATHS.logout)}>
          Log Off
        </Button>
      </Typography.Paragraph>
    </AuthCard>
  );
}
