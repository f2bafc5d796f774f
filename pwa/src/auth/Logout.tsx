/**
 * /logout (spec section 2): tells the API (its failure is ignored), clears the
 * stored guid, user and DOC ID and the documents in memory, then goes to '/'
 * after 1.5 seconds.
 */
import { Flex, Spin, Typography } from 'antd';
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { AuthPage } from './AuthPage.tsx';
import { logout } from './authApi.ts';
import { documentStore } from '../mail/documentStore.ts';
import { PATHS } from '../lib/routing.ts';
import { storage } from '../lib/storage.ts';

/** Spec section 9: logout redirect after 1500 ms. */
export const LOGOUT_REDIRECT_MS = 1500;

export const LOGOUT_TEXT = 'Please wait! Logging you out securely.';

export function Logout() {
  const navigate = useNavigate();
  useEffect(() => {
    // Read the token before clearing: the API call needs it. A second run of
    // this effect (React StrictMode) finds no token and skips the call.
    const token = storage.getGuid();
    storage.clearAll();
    documentStore.clear();
    void logout(token);
    const timer = window.setTimeout(() => navigate(PATHS.root, { replace: true }), LOGOUT_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [navigate]);

  return (
    <AuthPage>
      <Flex vertical align='center' gap={16} role='status'>
        <Spin size='large' />
        <Typography.Title level={1} className='auth-heading'>
          {LOGOUT_TEXT}
        </Typography.Title>
      </Flex>
    </AuthPage>
  );
}
