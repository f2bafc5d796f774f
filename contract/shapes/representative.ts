/** The representatives who named an attorney as their supervisor (the attorney's Representatives list). */

/** Pending: named at approval, nothing shared yet. Accepted: the attorney confirmed; new documents are shared. */
export type RepresentativeLinkStatus = 'pending' | 'accepted';

/** GET /api/attorney/representatives `representatives` row. */
export interface LinkedRepresentative {
  id: string;
  name: string;
  email: string;
  bar_number: string | null;
  bar_state: string | null;
  link_status: RepresentativeLinkStatus;
  /** The representative's account status (a deactivated one cannot sign in). */
  account_status: 'active' | 'deactivated' | 'pending';
  /** ISO 8601. */
  proposed_at: string | null;
  /** ISO 8601; null while pending. */
  accepted_at: string | null;
}

/** GET /api/attorney/representatives answer. */
export interface LinkedRepresentativeListAnswer {
  success: true;
  representatives: LinkedRepresentative[];
}

/**
 * POST /api/attorney/representatives/invitations body: the address to e-mail a single-use registration link that
 * fills in the inviting attorney as supervisor.
 */
export interface RepresentativeInvitationRequest {
  email: string;
}
