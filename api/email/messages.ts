/**
 * The texts of the e-mails sent to registrants. Plain text only. The API does not know the address the portal
 * is served from (it may sit behind a proxy), so messages say where to sign in in words rather than a link;
 * a temporary password is never e-mailed: the approver hands it over.
 */
import type { OutgoingEmail } from '../db/email_outbox.ts';

export interface Registrant {
  email: string;
  firstName: string;
  lastName: string;
}

const greeting = (r: Registrant) => `Dear ${r.firstName} ${r.lastName},`;
const SIGNATURE =
  '\n\nThis message was sent automatically by the secure legal-mail portal; replies are not read.\n';

/** Sent when a registration is submitted. */
export function registrationReceivedEmail(r: Registrant): OutgoingEmail {
  return {
    kind: 'registration_received',
    to: r.email,
    subject: 'Your registration has been received',
    body: `${greeting(r)}\n\nWe have received your registration for the secure legal-mail portal. ` +
      'An approver will review it, and you will receive another e-mail once it has been approved or rejected.' +
      SIGNATURE,
  };
}

/** Sent when an approver approves a registration. */
export function registrationApprovedEmail(r: Registrant): OutgoingEmail {
  return {
    kind: 'registration_approved',
    to: r.email,
    subject: 'Your registration has been approved',
    body: `${greeting(r)}\n\nYour registration for the secure legal-mail portal has been approved.\n\n` +
      `To sign in, open the portal and sign in with your e-mail address (${r.email}) and the password you ` +
      'chose when you registered, or the temporary password your approver gave you. If you sign in with the ' +
      'temporary password you will be asked to choose a new password.' + SIGNATURE,
  };
}

/** Sent when an approver rejects a registration, with the reason given. */
export function registrationRejectedEmail(r: Registrant, reason: string): OutgoingEmail {
  return {
    kind: 'registration_rejected',
    to: r.email,
    subject: 'Your registration has been rejected',
    body: `${greeting(r)}\n\nYour registration for the secure legal-mail portal has been rejected for the ` +
      `following reason:\n\n${reason}\n\nYou may submit a new registration once the issue has been addressed.` +
      SIGNATURE,
  };
}
