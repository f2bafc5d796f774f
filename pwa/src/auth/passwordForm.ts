/** The set-new-password rules: the same minimum as registration (spec section 9) and a matching confirmation. */
import { t } from 'i18next';
import { PASSWORD_MIN_LENGTH, REGISTRATION_MESSAGES } from '../../../contract/rules/registration.ts';
import { messageText } from './registrationForm.ts';

export interface NewPasswordValues {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

export type NewPasswordField = keyof NewPasswordValues;

export const CURRENT_PASSWORD_REQUIRED = 'Please provide your current password.';

/** A check's message in the language shown. */
export function newPasswordMessageText(message: string): string {
  return message === CURRENT_PASSWORD_REQUIRED ? t('setPassword.currentRequired') : messageText(message);
}

export type NewPasswordCheck = { ok: true } | { ok: false; field: NewPasswordField; message: string };

/** The first problem in form order, or ok. */
export function checkNewPassword(values: NewPasswordValues): NewPasswordCheck {
  if (values.currentPassword === '') {
    return { ok: false, field: 'currentPassword', message: CURRENT_PASSWORD_REQUIRED };
  }
  if (values.newPassword.length < PASSWORD_MIN_LENGTH) {
    return { ok: false, field: 'newPassword', message: REGISTRATION_MESSAGES.passwordLength };
  }
  if (values.newPassword !== values.confirmPassword) {
    return { ok: false, field: 'confirmPassword', message: REGISTRATION_MESSAGES.passwordMismatch };
  }
  return { ok: true };
}

/**
 * The strength label's colours: red, yellow, green (spec section 4). Solid
 * backgrounds with text chosen for at least 4.5:1 contrast (WCAG AA).
 */
export const STRENGTH_COLOURS = {
  Weak: { background: '#cf1322', color: '#ffffff' },
  Medium: { background: '#fadb14', color: '#262626' },
  Strong: { background: '#237804', color: '#ffffff' },
} as const;
