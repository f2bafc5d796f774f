/**
 * The app-wide reactions to what the API says about the session: a 401 ends
 * it (clearSession: memory, storage and the offline cache, awaited before
 * /login renders; the server's message shown); a required password change
 * sends the user to /set-password. A session ended in another window (Log Off,
 * a 401 there) takes this one to /login too, its memory dropped and its
 * database connection closed so that window can delete the cache (the viewer
 * pop-ups close themselves: viewer/useSessionEndClose.ts).
 */
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { sendUnsentLogouts } from '../auth/authApi.ts';
import { setApiEvents } from '../lib/api.ts';
import { onConnectivityChange } from '../offline/connectivity.ts';
import { PATHS } from '../lib/routing.ts';
import { sessionChannel, storage } from '../lib/storage.ts';
import { browserState, clearSession } from '../lib/state/browserState.ts';
import { useToast } from './useToast.ts';

/** Pages shown without a session: another window's sign-out leaves them where they are. */
const SIGNED_OUT_PAGES = new Set<string>([
  PATHS.root,
  PATHS.login,
  PATHS.register,
  PATHS.logout,
  PATHS.unauthorized,
]);

export function SessionEvents() {
  const navigate = useNavigate();
  const toast = useToast();
  useEffect(() => {
    setApiEvents({
      onUnauthorized(error) {
        if (error.serverMessage) toast.error(error.serverMessage);
        void clearSession().then(() => navigate(PATHS.login, { replace: true }));
      },
      onPasswordChangeRequired() {
        const stored = storage.readUser();
        if (stored.ok && !stored.user.mustChangePassword) {
          storage.saveUser({ ...stored.user, mustChangePassword: true });
        }
        navigate(PATHS.setPassword, { replace: true });
      },
    });
    return () => setApiEvents({});
  }, [navigate, toast]);

  // Sign-outs made without the network (a wipe offline) reach the server the moment it returns.
  useEffect(() => onConnectivityChange((online) => online && void sendUnsentLogouts()), []);

  const { pathname } = useLocation();
  const signedOutPage = SIGNED_OUT_PAGES.has(pathname);
  useEffect(() => {
    if (signedOutPage) return;
    return sessionChannel.subscribe(() => {
      void browserState.forgetSession();
      navigate(PATHS.login, { replace: true });
    });
  }, [navigate, signedOutPage]);
  return null;
}
