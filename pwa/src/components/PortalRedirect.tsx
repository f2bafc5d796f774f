/** /portal: sends the signed-in user to the portal of their stored role. */
import { Navigate } from 'react-router-dom';
import { portalRedirect } from '../lib/routing.ts';
import { storage } from '../lib/storage.ts';

export function PortalRedirect() {
  return <Navigate to={portalRedirect(storage.readUser())} replace />;
}
