/**
 * The route guard of spec section 2 as a layout route: renders the child
 * routes, or redirects as lib/routing.ts decides.
 */
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { guardDecision } from '../lib/routing.ts';
import { storage } from '../lib/storage.ts';
import type { Role } from '../auth/user.ts';

export function RequireAuth({ roles }: { roles?: readonly Role[] }) {
  const location = useLocation();
  const decision = guardDecision({
    guid: storage.getGuid(),
    user: storage.readUser(),
    roles,
    path: location.pathname,
  });
  if (!decision.allow) return <Navigate to={decision.redirectTo} replace />;
  return <Outlet />;
}
