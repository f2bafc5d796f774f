/**
 * Where the route guard and the /portal redirect send people (spec section 2),
 * as plain functions over what storage holds, so they can be tested alone.
 */
import type { UserReadResult } from './storage.ts';
import { isRole, type Role } from '../auth/user.ts';

export const PATHS = {
  root: '/',
  login: '/login',
  register: '/register',
  logout: '/logout',
  setPassword: '/set-password',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  files: '/files',
  portal: '/portal',
  unauthorized: '/unauthorized',
  security: '/security',
  /** 'Check a receipt': a signed delivery receipt checked against the portal's key (mail/ReceiptCheck.tsx). */
  receiptCheck: '/receipts/check',
} as const;

/** Each role's home. The representative's is the short /representative on purpose (spec section 2). */
export const ROLE_HOME: Record<Role, string> = {
  offender: '/portal/offender',
  attorney: '/portal/attorney',
  representative: '/representative',
  admin: '/portal/admin',
  approver: '/portal/approver',
};

/** The home of a role; any unknown role goes to /unauthorized. */
export function homeForRole(role: string | null | undefined): string {
  return isRole(role) ? ROLE_HOME[role] : PATHS.unauthorized;
}

/**
 * The /portal redirect: the stored user's role picks the portal; an unknown
 * role goes to /files; a missing or unreadable user goes to /login.
 */
export function portalRedirect(stored: UserReadResult): string {
  if (!stored.ok) return PATHS.login;
  return isRole(stored.user.role) ? ROLE_HOME[stored.user.role] : PATHS.files;
}

export interface GuardInput {
  /** The stored session token, if any. */
  guid: string | null;
  user: UserReadResult;
  /** Roles allowed on the route; absent means any signed-in user. */
  roles?: readonly Role[];
  /** The path being opened. */
  path: string;
}

export type GuardDecision = { allow: true } | { allow: false; redirectTo: string };

/** The viewer pop-up's paths: an offender's only way out of their portal (it checks the tablet's lock itself). */
export const isViewerPath = (path: string): boolean => /^\/pdfViewer(\/|$)/.test(path);

/**
 * The route guard. Without a token: /login. A user who still has to replace a
 * temporary password goes to /set-password first (the API refuses everything
 * else meanwhile). With allowed roles, anyone else goes to their own home;
 * a missing or unreadable user cannot be routed by role and goes to /login.
 * An offender stays in their portal, where the shared tablet's lock screen is: a screen open to any signed-in
 * user (/files) sends them home; the viewer pop-up lets them in and asks their portal about the lock
 * (viewer/useTabletGate.ts).
 */
export function guardDecision({ guid, user, roles, path }: GuardInput): GuardDecision {
  if (!guid) return { allow: false, redirectTo: PATHS.login };
  if (user.ok && user.user.mustChangePassword && path !== PATHS.setPassword) {
    return { allow: false, redirectTo: PATHS.setPassword };
  }
  if (!roles) {
    const confined = user.ok && user.user.role === 'offender' && path !== PATHS.setPassword &&
      !isViewerPath(path);
    return confined ? { allow: false, redirectTo: ROLE_HOME.offender } : { allow: true };
  }
  if (!user.ok) return { allow: false, redirectTo: PATHS.login };
  if ((roles as readonly string[]).includes(user.user.role)) return { allow: true };
  return { allow: false, redirectTo: homeForRole(user.user.role) };
}

/** Where to go right after a successful sign-in. */
export function afterLogin(user: { mustChangePassword: boolean }): string {
  return user.mustChangePassword ? PATHS.setPassword : PATHS.portal;
}
