/**
 * The texts of the e-mails the portal sends: to registrants, and to senders who asked to hear when their mail
 * is opened. Plain text only. The API does not know the address the portal
 * is served from (it may sit behind a proxy), so messages say where to sign in in words rather than a link;
 * a temporary password is never e-mailed: the approver hands it over.
 *
 * No registrant's address is ever confirmed (anyone may type anyone's address in the form), so none of these
 * messages carries a word the form's sender typed: no name, only the address it is sent to. Otherwise the
 * department's own sender would deliver a stranger's text ("Dear URGENT: your account is suspended, verify at
 * https://…") to any address. The one text not from the department is a rejection's reason, which an approver
 * wrote and answers for.
 */
import type { OutgoingEmail } from '../db/email_outbox.ts';

/** Whom a message goes to: the address only (see above for why the names are not used). */
export interface Registrant {
  email: string;
}

const GREETING = 'Hello,';
const SIGNATURE =
  '\n\nThis message was sent automatically by the secure legal-mail portal; replies are not read.\n';

/** Sent when a registration is submitted. */
export function registrationReceivedEmail(r: Registrant): OutgoingEmail {
  return {
    kind: 'registration_received',
    to: r.email,
    subject: 'Your registration has been received',
    body: `${GREETING}\n\nWe have received your registration for the secure legal-mail portal. ` +
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
    body: `${GREETING}\n\nYour registration for the secure legal-mail portal has been approved.\n\n` +
      `To sign in, open the portal and sign in with your e-mail address (${r.email}) and the password you ` +
      'chose when you registered.' + SIGNATURE,
  };
}

/** Sent when an approver rejects a registration, with the reason given. */
export function registrationRejectedEmail(r: Registrant, reason: string): OutgoingEmail {
  return {
    kind: 'registration_rejected',
    to: r.email,
    subject: 'Your registration has been rejected',
    body: `${GREETING}\n\nYour registration for the secure legal-mail portal has been rejected for the ` +
      `following reason:\n\n${reason}\n\nYou may submit a new registration once the issue has been addressed.` +
      SIGNATURE,
  };
}

/**
 * Sent instead of a second registration for an address that already has an account or an open registration:
 * the public form answers exactly as for a new registration (so it never tells a stranger which addresses are
 * registered), and the owner learns of the attempt here. Nothing the form's sender typed appears in it (not even
 * the name), so the message cannot carry someone else's words to the owner.
 */
export function registrationDuplicateEmail(to: string, existing: 'account' | 'registration'): OutgoingEmail {
  const state = existing === 'account'
    ? 'This address already has an account on the portal, so no new registration was created.'
    : 'This address already has a registration awaiting review, so no second registration was created.';
  const next = existing === 'account'
    ? 'If it was you, sign in with your e-mail address and your password. If you no longer know your password, ' +
      'contact the department that runs the portal.'
    : 'If it was you, there is nothing more to do: you will receive an e-mail once an approver has reviewed ' +
      'your registration.';
  return {
    kind: 'registration_duplicate',
    to,
    subject: 'Registration attempt for your e-mail address',
    body:
      'Hello,\n\nSomeone, perhaps you, has just submitted the registration form of the secure legal-mail ' +
      `portal with this e-mail address (${to}). ${state}\n\n${next}\n\n` +
      'If it was not you, you do not need to do anything: nothing about your account or your registration has ' +
      'changed, and no one was given access.' + SIGNATURE,
  };
}

/**
 * Sent to a sender who asked for it (their preference, off by default) when a document they sent is first
 * opened: once per document. The title is the sender's own, going to the sender's own confirmed address; the
 * recipient is named by DOC number only.
 */
export function documentOpenedEmail(
  notice: { to: string; title: string; doc_number: string; openedOn: string },
): OutgoingEmail {
  return {
    kind: 'document_opened',
    to: notice.to,
    subject: 'Your document was opened',
    body: `Hello,\n\nYour document '${notice.title}' to DOC ${notice.doc_number} was opened on ` +
      `${notice.openedOn}.\n\nYou can turn these e-mails off in the portal's Notifications settings.` +
      SIGNATURE,
  };
}

/** The page of the portal that sets a new password from a link's code (pwa: PATHS.resetPassword). */
export const RESET_PASSWORD_PATH = '/reset-password';

/**
 * The set-password link of a forgotten password or an admin's reset. It carries nothing anyone typed: the form
 * asks only for an address, and the message goes to that address alone when it is a staff account's. With
 * PORTAL_URL set the link opens the page; without, the message says where to type the code.
 */
export function setPasswordEmail(
  r: { to: string; token: string; portalUrl?: string; minutes: number; cause: 'forgotten' | 'admin_reset' },
): OutgoingEmail {
  const why = r.cause === 'forgotten'
    ? 'Someone, perhaps you, asked to set a new password for the account of this e-mail address on the secure ' +
      'legal-mail portal. If it was not you, there is nothing to do: your password has not changed.'
    : 'An administrator of the secure legal-mail portal has reset the password of the account of this e-mail ' +
      'address. Your previous password no longer works.';
  const lifetime = r.minutes >= 120 ? `${Math.round(r.minutes / 60)} hours` : `${r.minutes} minutes`;
  const how = r.portalUrl
    ? `To choose a new password, open this link within ${lifetime}:\n\n${r.portalUrl}${RESET_PASSWORD_PATH}#${r.token}`
    : `To choose a new password within ${lifetime}, open the portal, choose "Forgot password?" on the sign-in ` +
      `page, then "I have a code", and enter this code:\n\n${r.token}`;
  return {
    kind: r.cause === 'forgotten' ? 'password_reset_requested' : 'password_reset_by_admin',
    to: r.to,
    subject: r.cause === 'forgotten' ? 'Set a new password' : 'Your password was reset',
    body: `${GREETING}\n\n${why}\n\n${how}\n\nThe link works once.` + SIGNATURE,
  };
}
