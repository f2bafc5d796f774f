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
import type { Language } from '../../contract/languages.ts';
import type { OutgoingEmail } from '../db/email_outbox.ts';
import { EMAIL_TEXTS } from './texts.ts';

/** Whom a message goes to: the address only (see above for why the names are not used). */
export interface Registrant {
  email: string;
}

/** A body in the reader's language: greeting, paragraphs, signature. */
function letter(language: Language, ...paragraphs: string[]): string {
  const t = EMAIL_TEXTS[language];
  return `${t.greeting}\n\n${paragraphs.join('\n\n')}${t.signature}`;
}

/** Sent when a registration is submitted, in the language the form was shown in. */
export function registrationReceivedEmail(r: Registrant, language: Language): OutgoingEmail {
  const t = EMAIL_TEXTS[language].registrationReceived;
  return { kind: 'registration_received', to: r.email, subject: t.subject, body: letter(language, t.body) };
}

/** Sent when an approver approves a registration. */
export function registrationApprovedEmail(r: Registrant, language: Language): OutgoingEmail {
  const t = EMAIL_TEXTS[language].registrationApproved;
  return {
    kind: 'registration_approved',
    to: r.email,
    subject: t.subject,
    body: letter(language, t.body(r.email)),
  };
}

/** Sent when an approver rejects a registration, with the reason given. */
export function registrationRejectedEmail(r: Registrant, reason: string, language: Language): OutgoingEmail {
  const t = EMAIL_TEXTS[language].registrationRejected;
  return {
    kind: 'registration_rejected',
    to: r.email,
    subject: t.subject,
    body: letter(language, t.body(reason)),
  };
}

/**
 * Sent instead of a second registration for an address that already has an account or an open registration:
 * the public form answers exactly as for a new registration (so it never tells a stranger which addresses are
 * registered), and the owner learns of the attempt here. Nothing the form's sender typed appears in it (not even
 * the name), so the message cannot carry someone else's words to the owner.
 */
export function registrationDuplicateEmail(
  to: string,
  existing: 'account' | 'registration',
  language: Language,
): OutgoingEmail {
  const t = EMAIL_TEXTS[language].registrationDuplicate;
  return {
    kind: 'registration_duplicate',
    to,
    subject: t.subject,
    body: letter(language, `${t.intro(to)} ${t.state[existing]}`, t.next[existing], t.notYou),
  };
}

/**
 * Sent to a sender who asked for it (their preference, off by default) when a document they sent is first
 * opened: once per document. The title is the sender's own, going to the sender's own confirmed address; the
 * recipient is named by DOC number only.
 */
export function documentOpenedEmail(
  notice: { to: string; title: string; doc_number: string; openedOn: string },
  language: Language,
): OutgoingEmail {
  const t = EMAIL_TEXTS[language].documentOpened;
  return {
    kind: 'document_opened',
    to: notice.to,
    subject: t.subject,
    body: letter(language, t.body(notice.title, notice.doc_number, notice.openedOn)),
  };
}

/** The page of the portal that sets a new password from a link's code (pwa: PATHS.resetPassword). */
export const RESET_PASSWORD_PATH = '/reset-password';

/** Why a set-password link is sent: a forgotten password, an admin's reset, or an account an admin just made. */
export type SetPasswordCause = 'forgotten' | 'admin_reset' | 'account_created';

const EMAIL_KINDS: Record<SetPasswordCause, string> = {
  forgotten: 'password_reset_requested',
  admin_reset: 'password_reset_by_admin',
  account_created: 'staff_account_created',
};

/**
 * The set-password link of a forgotten password, an admin's reset or a new staff account. It carries nothing anyone typed: the form
 * asks only for an address, and the message goes to that address alone when it is a staff account's. With
 * PORTAL_URL set the link opens the page; without, the message says where to type the code.
 */
export function setPasswordEmail(
  r: { to: string; token: string; portalUrl?: string; minutes: number; cause: SetPasswordCause },
  language: Language,
): OutgoingEmail {
  const t = EMAIL_TEXTS[language].setPassword;
  const lifetime = t.lifetime(r.minutes);
  const how = r.portalUrl
    ? t.link(lifetime, `${r.portalUrl}${RESET_PASSWORD_PATH}#${r.token}`)
    : t.code(lifetime, r.token);
  return {
    kind: EMAIL_KINDS[r.cause],
    to: r.to,
    subject: t.subject[r.cause],
    body: letter(language, t.why[r.cause], `${how}\n\n${t.once}`),
  };
}

/** The portal's registration page (pwa: PATHS.register); an invitation's code follows in the fragment. */
export const REGISTER_PATH = '/register';

/**
 * An attorney's invitation of a representative: the registration link that fills in the attorney as supervisor.
 * It names the attorney (an approved account's name, which refuses control characters) and nothing the
 * attorney typed but the address it goes to. With PORTAL_URL set the link opens the form; without, the message
 * gives the page's path with the code, to open at the portal's address.
 */
export function representativeInvitationEmail(
  r: { to: string; token: string; attorneyName: string; portalUrl?: string; days: number },
  language: Language,
): OutgoingEmail {
  const t = EMAIL_TEXTS[language].representativeInvitation;
  const fragment = `invitation=${r.token}&email=${encodeURIComponent(r.to)}`;
  const path = `${REGISTER_PATH}#${fragment}`;
  const how = r.portalUrl ? t.link(r.days, `${r.portalUrl}${path}`) : t.code(r.days, path);
  return {
    kind: 'representative_invitation',
    to: r.to,
    subject: t.subject,
    body: letter(language, t.why(r.attorneyName), `${how}\n\n${t.after}`),
  };
}

/** Sent when a recovery code signs in: the owner learns of it, and how many are left. */
export function recoveryUsedEmail(to: string, left: number, language: Language): OutgoingEmail {
  const t = EMAIL_TEXTS[language].recoveryUsed;
  return { kind: 'mfa_recovery_used', to, subject: t.subject, body: letter(language, t.body(left)) };
}

/** Sent when an administrator removes every second factor of the account. */
export function factorsResetEmail(to: string, language: Language): OutgoingEmail {
  const t = EMAIL_TEXTS[language].factorsReset;
  return { kind: 'mfa_reset', to, subject: t.subject, body: letter(language, t.body) };
}

/** A change to how the account signs in, told to its owner: who made it may not be the owner. */
export type SecurityNotice =
  | { event: 'factor_added' | 'factor_removed'; kind: 'totp' | 'webauthn' }
  | { event: 'recovery_codes_replaced' }
  | { event: 'password_changed'; how: 'changed' | 'reset' };

/**
 * Sent to the owner on every change of their sign-in: a second factor added or removed, new recovery codes, a
 * password changed or set from a link (an admin's reset of the factors has its own message). The factor's name
 * is left out: whoever added it chose it.
 */
export function securityNoticeEmail(to: string, notice: SecurityNotice, language: Language): OutgoingEmail {
  const t = EMAIL_TEXTS[language];
  switch (notice.event) {
    case 'factor_added':
      return {
        kind: 'mfa_added',
        to,
        subject: t.factorAdded.subject,
        body: letter(language, t.factorAdded.body(t.factorKind[notice.kind]), t.notYou),
      };
    case 'factor_removed':
      return {
        kind: 'mfa_removed',
        to,
        subject: t.factorRemoved.subject,
        body: letter(language, t.factorRemoved.body(t.factorKind[notice.kind]), t.notYou),
      };
    case 'recovery_codes_replaced':
      return {
        kind: 'mfa_recovery_codes_replaced',
        to,
        subject: t.recoveryCodesReplaced.subject,
        body: letter(language, t.recoveryCodesReplaced.body, t.notYou),
      };
    case 'password_changed':
      return {
        kind: 'password_changed',
        to,
        subject: t.passwordChanged.subject,
        body: letter(language, t.passwordChanged.body[notice.how], t.notYou),
      };
  }
}
