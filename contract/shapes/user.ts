/** The signed-in user as the API hands it to the PWA (`user` in the sign-in, /me and password answers). */
import type { Language } from '../languages.ts';

export const ROLES = ['offender', 'attorney', 'representative', 'admin', 'approver'] as const;

export type Role = (typeof ROLES)[number];

/** Released and transferred are offenders' only: they have left the facility and receive no more mail. */
export const USER_STATUSES = ['active', 'deactivated', 'pending', 'released', 'transferred'] as const;

export type UserStatus = (typeof USER_STATUSES)[number];

/** Enough to route and greet, nothing secret. */
export interface PublicUser {
  id: string;
  role: Role;
  firstName: string;
  lastName: string;
  email: string | null;
  docNumber: string | null;
  /** The entity's slug. */
  entity: string;
  mustChangePassword: boolean;
  /**
   * The user's saved language (set from a portal's header, by an admin or by the roster import); null: none
   * saved, so the tablet shows the sign-in screen's choice, else the entity's default.
   */
  language: Language | null;
  /** The saved "Larger text" choice of the offender's header: the tablet shows it from the sign-in on. */
  largerText: boolean;
  /**
   * Offenders, in a sign-in's answer only: staff reset the PIN at this time (ISO 8601) and the offender has not
   * yet dismissed the notice (POST /api/auth/pin-reset-notice/dismiss). The tablet says so.
   */
  pinResetAt?: string;
}

/** POST /api/auth/login body. */
export interface LoginRequest {
  username: string;
  password: string;
  /** The entity's slug; 'default' when absent. */
  entity?: string;
}

/** POST /api/auth/login answer. */
export interface LoginAnswer {
  success: true;
  message: string;
  token: string;
  user: PublicUser;
}

/** POST /api/auth/password body. */
export interface PasswordChangeRequest {
  currentPassword: string;
  newPassword: string;
}

/**
 * PATCH /api/auth/preferences body: the signed-in user's own choices, kept with the user (never on a shared
 * tablet). Each field is optional, at least one is sent: the language (null: none, the entity's default) and the
 * offender header's "Larger text".
 */
export interface OwnPreferencesRequest {
  language?: Language | null;
  largerText?: boolean;
}

/** GET /api/auth/me answer: who the session's token belongs to. */
export interface MeAnswer {
  success: true;
  user: PublicUser;
}

/** POST /api/auth/password answer: the user, no longer required to change the password. */
export interface PasswordChangeAnswer {
  success: true;
  message: string;
  user: PublicUser;
}

/** PATCH /api/auth/preferences answer: the choices as saved. */
export interface OwnPreferencesAnswer {
  success: true;
  message: string;
  language: Language | null;
  largerText: boolean;
}
