/**
 * The app-wide reactions to what the API says about the session: a 401 ends
 * it (storage cleared, back to /login, the server's message shown); a
 * required password change sends the user to /set-password.
 */
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { setApiEvents } from '../lib/api.ts';
import { documentStore } from '../mail/documentStore.ts';
import { PATHS } from '../lib/routing.ts';
import { storage } from '../lib/storage.ts';
import { useToast } from './useToast.ts';

export function SessionEvents() {
  const navigate = useNavigate();
  const toast = useToast();
  useEffect(() => {
    setApiEvents({
      onUnauthorized(error) {
        storage.clearAll();
        documentStore.clear();
        if (error.serverMessage) toast.error(error.serverMessage);
        navigate(PATHS.login, { replace: true });
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
  return null;
}
