/**
 * /login (spec sections 2, 4, 5, 8). One form for everyone: offenders type
 * their DOC number and PIN, staff their e-mail and password. Neither field
 * invites the browser to remember it (autocomplete off): the form cannot tell
 * a facility's shared tablet from an attorney's own computer.
 */
import { Alert, Button, Form, Input, Spin, Typography } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { AuthCard } from './AuthPage.tsx';
import { useToast } from '../components/useToast.ts';
import { ApiError, failureMessage } from '../lib/api.ts';
import { login } from './authApi.ts';
import { afterLogin, PATHS } from '../lib/routing.ts';
import { storage } from '../lib/storage.ts';
import { browserState, clearSession } from '../lib/state/browserState.ts';
import { useOnline } from '../offline/connectivity.ts';
import { OFFLINE_TEXTS } from '../offline/offlineTexts.ts';
import { keepKeyAfterSignIn } from '../offline/tabletSession.ts';

interface LoginValues {
  username: string;
  password: string;
}

export const LOGIN_TEXTS = {
  heading: 'Attorney/Client Secure Mail',
  success: 'Logged in!',
  usernameRequired: 'Please provide username!',
  passwordRequired: 'Please provide password!',
  refused: 'Please check your login credentials.',
  failed: 'Login failed. Please try again.',
  storageFailed:
    'Your browser did not let this page keep you signed in. Please allow site storage and try again.',
} as const;

export function Login() {
  const [loading, setLoading] = useState(false);
  const navigate = useNavigate();
  const toast = useToast();
  const online = useOnline();

  async function submit({ username, password }: LoginValues) {
    setLoading(true);
    try {
      const result = await login(username.trim(), password);
      if (!result.ok) {
        toast.error(result.message ?? LOGIN_TEXTS.refused);
        setLoading(false);
        return;
      }
      // Someone else's session or offline cache on this tablet is wiped before this one is stored.
      await browserState.beginSession(result.user.id);
      const saved = storage.saveSession({ token: result.token, user: result.user, docId: username.trim() });
      if (!saved.ok) {
        await clearSession();
        toast.error(LOGIN_TEXTS.storageFailed);
        setLoading(false);
        return;
      }
      // The offender's tablet: the session's data key, kept wrapped under the PIN just typed (issue 10), so the
      // lock screen can reopen the saved mail without the network.
      if (result.user.role === 'offender') await keepKeyAfterSignIn(password);
      toast.success(LOGIN_TEXTS.success);
      navigate(afterLogin(result.user), { replace: true });
    } catch (error) {
      const unreachable = error instanceof ApiError && error.status === 0;
      toast.error(
        unreachable
          ? OFFLINE_TEXTS.signInNeedsNetwork
          : failureMessage(error, { failed: LOGIN_TEXTS.failed }),
      );
      setLoading(false);
    }
  }

  return (
    <AuthCard title={LOGIN_TEXTS.heading}>
      {!online && (
        <Alert
          type='warning'
          role='status'
          showIcon
          title={OFFLINE_TEXTS.signInNeedsNetwork}
          className='offline-notice'
        />
      )}
      <Spin spinning={loading} description='Signing in...'>
        <Form<LoginValues>
          layout='vertical'
          name='login'
          onFinish={submit}
          disabled={loading}
          requiredMark={false}
          initialValues={{ username: '', password: '' }}
        >
          <Form.Item
            label='facility ID number'
            name='username'
            rules={[{ required: true, whitespace: true, message: LOGIN_TEXTS.usernameRequired }]}
          >
            {/* A shared facility tablet must not offer the DOC numbers typed on it before. */}
            <Input placeholder='Enter DOC ID' autoComplete='off' autoFocus />
          </Form.Item>
          <Form.Item
            label='Pin Number'
            name='password'
            rules={[{ required: true, whitespace: true, message: LOGIN_TEXTS.passwordRequired }]}
          >
            {
              /*
               * One form serves offenders (PIN) and staff (password), and a facility tablet is shared: nothing
               * may invite the browser to save the secret typed here, so 'off' rather than 'current-password'.
               */
            }
            <Input.Password placeholder='Enter Pin' autoComplete='off' />
          </Form.Item>
          <Form.Item>
            <Button type='primary' htmlType='submit' block loading={loading}>
              View Mail
            </Button>
          </Form.Item>
        </Form>
      </Spin>
      <Typography.Paragraph className='auth-link'>
        <Link to={PATHS.register}>New Attorney? Register here</Link>
      </Typography.Paragraph>
    </AuthCard>
  );
}
