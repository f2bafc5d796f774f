/**
 * The e-mails' words, one catalogue per language of contract/languages.ts. Spanish is written as a department
 * writes to the public in the United States: formal "usted", short sentences, no English left in it. Each text is
 * a function of what it says, never of anything a stranger typed (messages.ts says why).
 */
import type { Language } from '../../contract/languages.ts';
import type { SetPasswordCause } from './messages.ts';

export interface EmailTexts {
  greeting: string;
  signature: string;
  registrationReceived: { subject: string; body: string };
  registrationApproved: { subject: string; body(email: string): string };
  registrationRejected: { subject: string; body(reason: string): string };
  registrationDuplicate: {
    subject: string;
    intro(to: string): string;
    state: Record<'account' | 'registration', string>;
    next: Record<'account' | 'registration', string>;
    notYou: string;
  };
  documentOpened: { subject: string; body(title: string, docNumber: string, openedOn: string): string };
  setPassword: {
    subject: Record<SetPasswordCause, string>;
    why: Record<SetPasswordCause, string>;
    lifetime(minutes: number): string;
    link(lifetime: string, url: string): string;
    code(lifetime: string, token: string): string;
    once: string;
  };
  representativeInvitation: {
    subject: string;
    why(attorney: string): string;
    link(days: number, url: string): string;
    code(days: number, path: string): string;
    after: string;
  };
  recoveryUsed: { subject: string; body(left: number): string };
  factorsReset: { subject: string; body: string };
  /** What a kind of second factor is called in a notice. */
  factorKind: Record<'totp' | 'webauthn', string>;
  factorAdded: { subject: string; body(kind: string): string };
  factorRemoved: { subject: string; body(kind: string): string };
  recoveryCodesReplaced: { subject: string; body: string };
  passwordChanged: { subject: string; body: Record<'changed' | 'reset', string> };
  /** The closing line of every notice of a change to the account's sign-in. */
  notYou: string;
}

const en: EmailTexts = {
  greeting: 'Hello,',
  signature:
    '\n\nThis message was sent automatically by the secure legal-mail portal; replies are not read.\n',
  registrationReceived: {
    subject: 'Your registration has been received',
    body:
      'We have received your registration for the secure legal-mail portal. An approver will review it, and ' +
      'you will receive another e-mail once it has been approved or rejected.',
  },
  registrationApproved: {
    subject: 'Your registration has been approved',
    body: (email) =>
      'Your registration for the secure legal-mail portal has been approved.\n\n' +
      `To sign in, open the portal and sign in with your e-mail address (${email}) and the password you chose ` +
      'when you registered.',
  },
  registrationRejected: {
    subject: 'Your registration has been rejected',
    body: (reason) =>
      'Your registration for the secure legal-mail portal has been rejected for the following reason:\n\n' +
      `${reason}\n\nYou may submit a new registration once the issue has been addressed.`,
  },
  registrationDuplicate: {
    subject: 'Registration attempt for your e-mail address',
    intro: (to) =>
      'Someone, perhaps you, has just submitted the registration form of the secure legal-mail portal with this ' +
      `e-mail address (${to}).`,
    state: {
      account: 'This address already has an account on the portal, so no new registration was created.',
      registration:
        'This address already has a registration awaiting review, so no second registration was created.',
    },
    next: {
      account:
        'If it was you, sign in with your e-mail address and your password. If you no longer know your ' +
        'password, contact the department that runs the portal.',
      registration:
        'If it was you, there is nothing more to do: you will receive an e-mail once an approver has ' +
        'reviewed your registration.',
    },
    notYou:
      'If it was not you, you do not need to do anything: nothing about your account or your registration ' +
      'has changed, and no one was given access.',
  },
  documentOpened: {
    subject: 'Your document was opened',
    body: (title, docNumber, openedOn) =>
      `Your document '${title}' to DOC ${docNumber} was opened on ${openedOn}.\n\n` +
      "You can turn these e-mails off in the portal's Notifications settings.",
  },
  setPassword: {
    subject: {
      forgotten: 'Set a new password',
      admin_reset: 'Your password was reset',
      account_created: 'Your account on the secure legal-mail portal',
    },
    why: {
      forgotten:
        'Someone, perhaps you, asked to set a new password for the account of this e-mail address on the ' +
        'secure legal-mail portal. If it was not you, there is nothing to do: your password has not changed.',
      admin_reset:
        'An administrator of the secure legal-mail portal has reset the password of the account of this ' +
        'e-mail address. Your previous password no longer works.',
      account_created:
        'An administrator of the secure legal-mail portal has made an account for this e-mail address. ' +
        'Choose its password to sign in.',
    },
    lifetime: (minutes) => minutes >= 120 ? `${Math.round(minutes / 60)} hours` : `${minutes} minutes`,
    link: (lifetime, url) => `To choose a new password, open this link within ${lifetime}:\n\n${url}`,
    code: (lifetime, token) =>
      `To choose a new password within ${lifetime}, open the portal, choose "Forgot password?" on the sign-in ` +
      `page, then "I have a code", and enter this code:\n\n${token}`,
    once: 'The link works once.',
  },
  representativeInvitation: {
    subject: 'You are invited to register as a representative',
    why: (attorney) =>
      `${attorney}, an attorney on the secure legal-mail portal, invites you to register as their representative: ` +
      'you will send legal mail to incarcerated people on their behalf.',
    link: (days, url) =>
      `To register, open this link within ${days} days. It fills in your supervising attorney:\n\n${url}`,
    code: (days, path) =>
      `To register within ${days} days, open the portal at its address followed by:\n\n${path}`,
    after:
      'The link works once, for this e-mail address. An approver reviews your registration, and you will ' +
      'receive an e-mail once it has been approved; you are then linked to the attorney who invited you.',
  },
  recoveryUsed: {
    subject: 'A recovery code was used to sign in',
    body: (left) =>
      'One of your recovery codes was just used to sign in to your account on the secure legal-mail portal. ' +
      `${left} unused recovery code${left === 1 ? '' : 's'} remain.\n\n` +
      'If it was not you, tell your administrator at once: they can reset your second factors and your password.',
  },
  factorsReset: {
    subject: 'Your second factors were reset',
    body:
      'An administrator has removed the passkeys, security keys, authenticator apps and recovery codes of your ' +
      'account on the secure legal-mail portal. Sign in with your password and add a second factor again.\n\n' +
      'If you did not ask for this, tell your department at once.',
  },
  factorKind: { totp: 'An authenticator app', webauthn: 'A passkey or security key' },
  factorAdded: {
    subject: 'A second factor was added to your account',
    body: (kind) =>
      `${kind} was just added as a second factor of your account on the secure legal-mail portal.`,
  },
  factorRemoved: {
    subject: 'A second factor was removed from your account',
    body: (kind) =>
      `${kind} was just removed from the second factors of your account on the secure legal-mail portal.`,
  },
  recoveryCodesReplaced: {
    subject: 'New recovery codes were made for your account',
    body: 'New recovery codes were just made for your account on the secure legal-mail portal; the earlier ' +
      'ones no longer work.',
  },
  passwordChanged: {
    subject: 'Your password was changed',
    body: {
      changed: 'The password of your account on the secure legal-mail portal was just changed.',
      reset: 'A new password was just set for your account on the secure legal-mail portal with a ' +
        'set-password link. Every session of the account has ended.',
    },
  },
  notYou:
    'If it was not you, tell your administrator at once: they can reset your second factors and your password.',
};

const es: EmailTexts = {
  greeting: 'Buenos días:',
  signature: '\n\nEste mensaje fue enviado automáticamente por el portal seguro de correo legal. ' +
    'Nadie lee las respuestas.\n',
  registrationReceived: {
    subject: 'Recibimos su registro',
    body: 'Recibimos su registro en el portal seguro de correo legal. Una persona encargada lo revisará. ' +
      'Le enviaremos otro correo cuando lo aprueben o lo rechacen.',
  },
  registrationApproved: {
    subject: 'Su registro fue aprobado',
    body: (email) =>
      'Su registro en el portal seguro de correo legal fue aprobado.\n\n' +
      `Para entrar, abra el portal e inicie sesión con su correo electrónico (${email}) y la contraseña que ` +
      'eligió al registrarse.',
  },
  registrationRejected: {
    subject: 'Su registro fue rechazado',
    body: (reason) =>
      'Su registro en el portal seguro de correo legal fue rechazado por este motivo:\n\n' +
      `${reason}\n\nPuede enviar un nuevo registro cuando haya resuelto el problema.`,
  },
  registrationDuplicate: {
    subject: 'Intento de registro con su correo electrónico',
    intro: (to) =>
      'Alguien, quizás usted, acaba de enviar el formulario de registro del portal seguro de correo legal con ' +
      `este correo electrónico (${to}).`,
    state: {
      account: 'Este correo ya tiene una cuenta en el portal, así que no se creó un registro nuevo.',
      registration:
        'Este correo ya tiene un registro pendiente de revisión, así que no se creó un segundo registro.',
    },
    next: {
      account:
        'Si fue usted, inicie sesión con su correo electrónico y su contraseña. Si ya no recuerda su ' +
        'contraseña, comuníquese con el departamento que administra el portal.',
      registration:
        'Si fue usted, no tiene que hacer nada más: le enviaremos un correo cuando se revise su ' +
        'registro.',
    },
    notYou:
      'Si no fue usted, no tiene que hacer nada: su cuenta y su registro no cambiaron, y nadie recibió ' +
      'acceso.',
  },
  documentOpened: {
    subject: 'Su documento fue abierto',
    body: (title, docNumber, openedOn) =>
      `Su documento «${title}» para el DOC ${docNumber} fue abierto el ${openedOn}.\n\n` +
      'Puede desactivar estos correos en la sección Notificaciones del portal.',
  },
  setPassword: {
    subject: {
      forgotten: 'Elija una contraseña nueva',
      admin_reset: 'Su contraseña fue restablecida',
      account_created: 'Su cuenta en el portal seguro de correo legal',
    },
    why: {
      forgotten:
        'Alguien, quizás usted, pidió una contraseña nueva para la cuenta de este correo electrónico en ' +
        'el portal seguro de correo legal. Si no fue usted, no tiene que hacer nada: su contraseña no cambió.',
      admin_reset:
        'Un administrador del portal seguro de correo legal restableció la contraseña de la cuenta de ' +
        'este correo electrónico. Su contraseña anterior ya no funciona.',
      account_created:
        'Un administrador del portal seguro de correo legal creó una cuenta para este correo electrónico. ' +
        'Elija su contraseña para iniciar sesión.',
    },
    lifetime: (minutes) => minutes >= 120 ? `${Math.round(minutes / 60)} horas` : `${minutes} minutos`,
    link: (lifetime, url) =>
      `Para elegir una contraseña nueva, abra este enlace en los próximos ${lifetime}:\n\n${url}`,
    code: (lifetime, token) =>
      `Para elegir una contraseña nueva en los próximos ${lifetime}, abra el portal, elija «¿Olvidó su ` +
      'contraseña?» en la página de inicio de sesión, luego «Tengo un código», y escriba este código:\n\n' +
      token,
    once: 'El enlace funciona una sola vez.',
  },
  representativeInvitation: {
    subject: 'Se le invita a registrarse como representante',
    why: (attorney) =>
      `${attorney}, abogado del portal seguro de correo legal, le invita a registrarse como su representante: ` +
      'enviará correo legal a personas en custodia en su nombre.',
    link: (days, url) =>
      `Para registrarse, abra este enlace en los próximos ${days} días. Completa los datos de su abogado ` +
      `supervisor:\n\n${url}`,
    code: (days, path) =>
      `Para registrarse en los próximos ${days} días, abra el portal en su dirección seguida de:\n\n${path}`,
    after:
      'El enlace funciona una sola vez, para este correo electrónico. Un aprobador revisará su registro y ' +
      'recibirá un correo cuando sea aprobado; entonces quedará vinculado al abogado que le invitó.',
  },
  recoveryUsed: {
    subject: 'Se usó un código de recuperación para entrar',
    body: (left) =>
      'Se acaba de usar uno de sus códigos de recuperación para entrar en su cuenta del portal seguro de correo ' +
      `legal. Le ${left === 1 ? 'queda' : 'quedan'} ${left} ${
        left === 1 ? 'código' : 'códigos'
      } sin usar.\n\n` +
      'Si no fue usted, avise de inmediato a su administrador: puede restablecer sus segundos factores y su ' +
      'contraseña.',
  },
  factorsReset: {
    subject: 'Sus segundos factores fueron restablecidos',
    body: 'Un administrador eliminó las llaves de acceso, las llaves de seguridad, las aplicaciones de ' +
      'autenticación y los códigos de recuperación de su cuenta en el portal seguro de correo legal. Inicie sesión ' +
      'con su contraseña y agregue de nuevo un segundo factor.\n\n' +
      'Si usted no lo pidió, avise de inmediato a su departamento.',
  },
  factorKind: {
    totp: 'Una aplicación de autenticación',
    webauthn: 'Una llave de acceso o llave de seguridad',
  },
  factorAdded: {
    subject: 'Se agregó un segundo factor a su cuenta',
    body: (kind) =>
      `${kind} se acaba de agregar como segundo factor de su cuenta en el portal seguro de correo legal.`,
  },
  factorRemoved: {
    subject: 'Se eliminó un segundo factor de su cuenta',
    body: (kind) =>
      `${kind} se acaba de eliminar de los segundos factores de su cuenta en el portal seguro de correo legal.`,
  },
  recoveryCodesReplaced: {
    subject: 'Se crearon códigos de recuperación nuevos para su cuenta',
    body: 'Se acaban de crear códigos de recuperación nuevos para su cuenta en el portal seguro de correo ' +
      'legal; los anteriores ya no funcionan.',
  },
  passwordChanged: {
    subject: 'Su contraseña fue cambiada',
    body: {
      changed: 'Se acaba de cambiar la contraseña de su cuenta en el portal seguro de correo legal.',
      reset:
        'Se acaba de establecer una contraseña nueva para su cuenta en el portal seguro de correo legal ' +
        'con un enlace para elegir contraseña. Se cerraron todas las sesiones de la cuenta.',
    },
  },
  notYou:
    'Si no fue usted, avise de inmediato a su administrador: puede restablecer sus segundos factores y su contraseña.',
};

export const EMAIL_TEXTS: Record<Language, EmailTexts> = { en, es };

/**
 * A date as the e-mail's reader writes it: "Dec 3, 2026" in English (the spec's), "3 dic 2026" in Spanish: never an
 * all-numeric date whose day and month a reader could swap.
 */
export function emailDate(date: Date, language: Language): string {
  const options: Intl.DateTimeFormatOptions = {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  };
  if (language === 'en') return date.toLocaleDateString('en-US', options);
  return date.toLocaleDateString('es-US', options).replace(/\./g, '');
}
