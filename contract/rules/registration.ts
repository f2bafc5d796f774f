/**
 * The registration rules of spec section 5, as one plain function shared by the
 * server (which enforces them) and the PWA (which mirrors them for quick feedback).
 * It imports only the contract's own request shape: both Deno and Vite load this file as it is.
 */
import type { RegistrationRequest } from '../shapes/registration.ts';
import { hasUnsafeNameCharacters, NAME_CHARACTERS_MESSAGE } from './names.ts';

/** What the rules check: the request body (contract/shapes/registration.ts) without the account type and language. */
export type RegistrationInput = Omit<RegistrationRequest, 'userType' | 'language'>;

export type RegistrationField = keyof RegistrationInput;

export type RuleResult =
  | { ok: true }
  | { ok: false; field: RegistrationField; message: string };

export const REGISTRATION_MESSAGES = {
  required: 'Please fill in all required fields!',
  email: 'Please enter a valid email address',
  passwordLength: 'Password must be at least 8 characters long',
  passwordMismatch: 'Passwords do not match',
  phone: 'Please enter a valid phone number',
  barNumber: 'Bar number must be at least 4 alphanumeric characters',
  barState: 'Bar State must be 2 characters!',
  state: 'State must be 2 characters!',
  zip: 'ZIP Code must be in format 12345 or 12345-6789!',
  supervisingRequired: 'Please fill in all supervising attorney fields!',
  nameCharacters: NAME_CHARACTERS_MESSAGE,
} as const;

/** Spec section 9: password minimum 8 characters. */
export const PASSWORD_MIN_LENGTH = 8;

/** Order matters: it is the order of the form, so the first failure is the first bad field. */
export const REQUIRED_FIELDS: RegistrationField[] = [
  'firstName',
  'lastName',
  'email',
  'password',
  'confirmPassword',
  'barNumber',
  'barState',
  'addressLine1',
  'city',
  'state',
  'zipCode',
];

/**
 * {name}@{domain}.{tld}, one mailbox: none of the characters that make a list of addresses or a display name of
 * it (`,` `;` `<` `>` `"` `(` `)` `[` `]` `\`) nor control characters. 'x,owner@example.org' passes
 * the spec's looser rule, and mail would go to both.
 */
const MAILBOX_PART = String.raw`[^\s\p{Cc}@,;<>"()[\]\\]+`;
const EMAIL_PATTERN = new RegExp(`^${MAILBOX_PART}@${MAILBOX_PART}\\.${MAILBOX_PART}$`, 'u');

/** One mailbox, `name@host`, in the characters EMAIL_PATTERN allows (the mail sender's check: no TLD needed). */
export const MAILBOX_PATTERN = new RegExp(`^${MAILBOX_PART}@${MAILBOX_PART}$`, 'u');

const PHONE_PATTERN = /^\d{3}-?\d{3}-?\d{4}$/;
const BAR_NUMBER_PATTERN = /^[A-Za-z0-9]{4,}$/;
const ZIP_PATTERN = /^\d{5}(-\d{4})?$/;

/** True when the text looks like an e-mail address ({name}@{domain}.{tld}). */
export function isValidEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value.trim());
}

/** True when the text is 10 digits as 3-3-4 with optional hyphens. */
export function isValidPhone(value: string): boolean {
  return PHONE_PATTERN.test(value.trim());
}

function blank(value: string | null | undefined): boolean {
  return value === undefined || value === null || value.trim() === '';
}

/** Checks a registration the way spec section 5 lists the rules; the first failure wins. */
export function checkRegistration(input: RegistrationInput): RuleResult {
  const missing = REQUIRED_FIELDS.find((field) => blank(input[field] as string | undefined));
  if (missing) return { ok: false, field: missing, message: REGISTRATION_MESSAGES.required };
  const badName = (['firstName', 'lastName'] as const).find((field) => hasUnsafeNameCharacters(input[field]));
  if (badName) return { ok: false, field: badName, message: REGISTRATION_MESSAGES.nameCharacters };
  if (!isValidEmail(input.email)) return { ok: false, field: 'email', message: REGISTRATION_MESSAGES.email };
  if (input.password.length < PASSWORD_MIN_LENGTH) {
    return { ok: false, field: 'password', message: REGISTRATION_MESSAGES.passwordLength };
  }
  if (input.password !== input.confirmPassword) {
    return { ok: false, field: 'confirmPassword', message: REGISTRATION_MESSAGES.passwordMismatch };
  }
  if (!blank(input.phone) && !isValidPhone(input.phone as string)) {
    return { ok: false, field: 'phone', message: REGISTRATION_MESSAGES.phone };
  }
  if (!BAR_NUMBER_PATTERN.test(input.barNumber.trim())) {
    return { ok: false, field: 'barNumber', message: REGISTRATION_MESSAGES.barNumber };
  }
  // Characters as PostgreSQL counts them (its check constraint): code points, not UTF-16 units ('😀' is one).
  if (Array.from(input.barState.trim()).length !== 2) {
    return { ok: false, field: 'barState', message: REGISTRATION_MESSAGES.barState };
  }
  if (Array.from(input.state.trim()).length !== 2) {
    return { ok: false, field: 'state', message: REGISTRATION_MESSAGES.state };
  }
  if (!ZIP_PATTERN.test(input.zipCode.trim())) {
    return { ok: false, field: 'zipCode', message: REGISTRATION_MESSAGES.zip };
  }
  if (input.isRepresentative) {
    const supervising: RegistrationField[] = [
      'supervisingAttorneyName',
      'supervisingAttorneyBar',
      'supervisingAttorneyEmail',
    ];
    const gap = supervising.find((field) => blank(input[field] as string | null | undefined));
    if (gap) return { ok: false, field: gap, message: REGISTRATION_MESSAGES.supervisingRequired };
    if (hasUnsafeNameCharacters(input.supervisingAttorneyName as string)) {
      return { ok: false, field: 'supervisingAttorneyName', message: REGISTRATION_MESSAGES.nameCharacters };
    }
    if (!isValidEmail(input.supervisingAttorneyEmail as string)) {
      return { ok: false, field: 'supervisingAttorneyEmail', message: REGISTRATION_MESSAGES.email };
    }
  }
  return { ok: true };
}

/** A registration as it is sent and stored: blank optional fields are null. */
export interface TidyRegistration extends RegistrationInput {
  phone: string | null;
  addressLine2: string | null;
  supervisingAttorneyName: string | null;
  supervisingAttorneyBar: string | null;
  supervisingAttorneyEmail: string | null;
}

function optional(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

/**
 * The one tidying both halves apply: text trimmed, the two states in upper case, blank optional fields null,
 * and the supervising attorney's fields only for a representative. Passwords are kept exactly as typed.
 */
export function tidyRegistration(input: RegistrationInput): TidyRegistration {
  const representative = input.isRepresentative;
  return {
    firstName: input.firstName.trim(),
    lastName: input.lastName.trim(),
    email: input.email.trim(),
    password: input.password,
    confirmPassword: input.confirmPassword,
    barNumber: input.barNumber.trim(),
    barState: input.barState.trim().toUpperCase(),
    phone: optional(input.phone),
    addressLine1: input.addressLine1.trim(),
    addressLine2: optional(input.addressLine2),
    city: input.city.trim(),
    state: input.state.trim().toUpperCase(),
    zipCode: input.zipCode.trim(),
    isRepresentative: representative,
    supervisingAttorneyName: representative ? optional(input.supervisingAttorneyName) : null,
    supervisingAttorneyBar: representative ? optional(input.supervisingAttorneyBar) : null,
    supervisingAttorneyEmail: representative ? optional(input.supervisingAttorneyEmail) : null,
  };
}
