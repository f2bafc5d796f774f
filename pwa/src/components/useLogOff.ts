/**
 * The two Log Off behaviours of spec section 2. Admin and representative: end
 * the session here (the API is told, its failure ignored), clear the browser
 * state (clearSession, awaited before /login renders) and go to /login.
 * Attorney and offender (and the rest): the /logout screen.
 */
import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { logout } from '../auth/authApi.ts';
import { PATHS } from '../lib/routing.ts';
import { storage } from '../lib/storage.ts';
import { clearSession } from '../lib/state/browserState.ts';

export type LogOffStyle = 'to-login' | 'logout-screen';

export function useLogOff(style: LogOffStyle): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    if (style === 'logout-screen') {
      navigate(PATHS.logout);
      return;
    }
    // The API answers with Clear-Site-Data: waiting for it means that answer
    // cannot land after the next sign-in and wipe the new session.
    void logout(storage.getGuid()).finally(() =>
      clearSession().then(() => navigate(PATHS.login, { replace: true }))
    );
  }, [navigate, style]);
}
