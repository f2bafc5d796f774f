/**
 * /logout (spec section 2): sends the readings queued offline if it can (at
 * most LEAVE_SEND_MS), tells the API (its failure is ignored), clears the
 * browser state (clearSession: the stored guid, user and DOC ID, the documents
 * in memory, the offline cache), then goes to '/' after 1.5 seconds, and not
 * before the cache is deleted. Plain markup: the offender's tablet comes here.
 */
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { AuthPage } from './AuthPage.tsx';
import { logout } from './authApi.ts';
import { PATHS } from '../lib/routing.ts';
import { storage } from '../lib/storage.ts';
import { clearSession } from '../lib/state/browserState.ts';
import { sendBeforeLeaving } from '../offline/tabletSession.ts';

/** Spec section 9: logout redirect after 1500 ms. */
export const LOGOUT_REDIRECT_MS = 1500;

export function Logout() {
  const navigate = useNavigate();
  const { t } = useTranslation();
  useEffect(() => {
    // Read the token before clearing: the API call needs it. A second run of
    // this effect (React StrictMode) finds no token and skips the call.
    const token = storage.getGuid();
    // The offender's readings made offline go to the audit log first, while the session can still send them.
    const cleared = sendBeforeLeaving().then(() => {
      void logout(token);
      return clearSession();
    });
    let cancelled = false;
    const timer = window.setTimeout(() => {
      void cleared.then(() => {
        if (!cancelled) navigate(PATHS.root, { replace: true });
      });
    }, LOGOUT_REDIRECT_MS);
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
  }, [navigate]);

  return (
    <AuthPage>
      <div className='logout-status' role='status'>
        <span className='spinner-ring spinner-ring-large' aria-hidden='true' />
        <h1 className='auth-heading'>{t('logout.waiting')}</h1>
      </div>
    </AuthPage>
  );
}
