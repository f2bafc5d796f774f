/** Registration of attorneys and representatives: the public form's body and the approver's list. */
import type { Language } from '../languages.ts';

export type UserType = 'attorney' | 'representative';

/** POST /api/auth/register body. Optional fields may be absent, null or blank (all three mean none). */
export interface RegistrationRequest {
  userType: UserType;
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  confirmPassword: string;
  barNumber: string;
  barState: string;
  phone?: string | null;
  addressLine1: string;
  addressLine2?: string | null;
  city: string;
  state: string;
  zipCode: string;
  isRepresentative: boolean;
  supervisingAttorneyName?: string | null;
  supervisingAttorneyBar?: string | null;
  supervisingAttorneyEmail?: string | null;
  /** The language the form was shown in (default English): the registration's e-mails are written in it. */
  language?: Language;
  /**
   * The code of an attorney's invitation (POST /api/attorney/representatives/invitations), from its link: the
   * registration is a representative's, supervised by the inviting attorney (the supervising fields are filled
   * from the invitation), and `email` must be the invited address.
   */
  invitation?: string;
}

/** A registration awaiting review (GET /api/approver/registrations `registrations`), oldest first. */
export interface PendingRegistration {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  bar_number: string;
  bar_state: string;
  /** ISO 8601. */
  created_at: string;
  user_type: UserType;
  is_representative: boolean;
  supervising_attorney_name: string | null;
  supervising_attorney_bar: string | null;
  supervising_attorney_email: string | null;
  /**
   * The account a representative would be linked to (pending until that attorney accepts): the one active
   * attorney whose bar number, bar state (the representative's own) and e-mail all match what was typed.
   * Null for an attorney's registration and when nobody matches.
   */
  supervisor_match: SupervisorMatch | null;
}

/** An attorney account a representative's registration names. */
export interface SupervisorMatch {
  id: string;
  name: string;
  email: string;
  bar_number: string;
  bar_state: string;
}

/**
 * POST /api/approver/registrations/{id}/approve answer `data`. No temporary password: the registrant chose
 * their own password, so approval only activates the account and the approver never holds a secret to it.
 */
export interface ApprovalResult {
  /** The attorney proposed as supervisor (a representative only), or null when none was linked. */
  supervisingAttorney: SupervisorMatch | null;
}

/** POST /api/approver/registrations/{id}/reject body. */
export interface RejectionRequest {
  reason: string;
}

/** GET /api/approver/registrations answer. */
export interface PendingRegistrationListAnswer {
  success: true;
  registrations: PendingRegistration[];
}

/** POST /api/approver/registrations/{id}/approve answer. */
export interface ApprovalAnswer {
  success: true;
  message: string;
  data: ApprovalResult;
}
