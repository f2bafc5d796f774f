/** GET /api/auth/sign-ins: an offender's own recent sign-ins, so they can see any they did not make. */

/** One sign-in as its owner sees it: when, from where, and whether it followed a staff PIN reset. */
export interface SignIn {
  /** When the session opened (ISO 8601). */
  at: string;
  /** The address the sign-in came from, as the API saw it. */
  ipAddress: string | null;
  /**
   * Whether that address is inside one of the entity's active IP whitelist ranges (the facility's network);
   * null for a sign-in recorded before this was kept.
   */
  facilityNetwork: boolean | null;
  /** Signed in with the one-time PIN staff set. */
  oneTimePin: boolean;
  /** The session descends from a staff PIN reset (its reads are audited with the admin who reset the PIN). */
  afterPinReset: boolean;
}

/** GET /api/auth/sign-ins answer: the newest first. */
export interface SignInsAnswer {
  success: true;
  data: SignIn[];
}
