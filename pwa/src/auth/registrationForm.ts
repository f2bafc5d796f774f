/**
 * The registration form's behaviour (spec sections 2 and 5) as plain state
 * transitions: the screen only renders. The rules themselves are the API's
 * (contract/rules/registration.ts), imported, not copied.
 */
import {
  checkRegistration,
  isValidEmail,
  isValidPhone,
  REGISTRATION_MESSAGES,
  type RegistrationField,
  REQUIRED_FIELDS,
  type RuleResult,
  tidyRegistration,
} from '../../../contract/rules/registration.ts';
import type { RegistrationRequest } from '../../../contract/shapes/registration.ts';
import { t } from 'i18next';

export { REGISTRATION_MESSAGES, type RegistrationField };

export type TextField = Exclude<RegistrationField, 'isRepresentative'>;

export type RegistrationValues = Record<TextField, string> & { isRepresentative: boolean };

export type FieldErrors = Partial<Record<RegistrationField, string>>;

export interface FormState {
  values: RegistrationValues;
  errors: FieldErrors;
}

/** The example in the phone blur message (spec section 5: 'e.g., {phone}'). */
export const PHONE_EXAMPLE = '555-123-4567';

export const PHONE_BLUR_MESSAGE = `Please enter a valid phone number (e.g., ${PHONE_EXAMPLE})`;

/** Each rule's message in the catalogues: the rules speak the API's English, the form the language shown. */
const MESSAGE_KEYS = {
  required: 'register.messages.required',
  email: 'register.messages.email',
  passwordLength: 'register.messages.passwordLength',
  passwordMismatch: 'register.messages.passwordMismatch',
  phone: 'register.messages.phone',
  barNumber: 'register.messages.barNumber',
  barState: 'register.messages.barState',
  state: 'register.messages.state',
  zip: 'register.messages.zip',
  supervisingRequired: 'register.messages.supervisingRequired',
  nameCharacters: 'register.messages.nameCharacters',
} as const satisfies Record<keyof typeof REGISTRATION_MESSAGES, string>;

/** A rule's message (REGISTRATION_MESSAGES, or the phone hint) in the language shown; any other text as it is. */
export function messageText(message: string): string {
  if (message === PHONE_BLUR_MESSAGE) return t('register.messages.phoneExample', { example: PHONE_EXAMPLE });
  const rule = (Object.keys(MESSAGE_KEYS) as (keyof typeof MESSAGE_KEYS)[])
    .find((key) => REGISTRATION_MESSAGES[key] === message);
  return rule ? t(MESSAGE_KEYS[rule]) : message;
}

export const SUPERVISING_FIELDS = [
  'supervisingAttorneyName',
  'supervisingAttorneyBar',
  'supervisingAttorneyEmail',
] as const;

/** Fields whose text is forced to upper case as it is typed. */
const UPPER_CASE_FIELDS: ReadonlySet<TextField> = new Set(['barState', 'state']);

export const EMPTY_REGISTRATION: RegistrationValues = {
  firstName: '',
  lastName: '',
  email: '',
  password: '',
  confirmPassword: '',
  barNumber: '',
  barState: '',
  phone: '',
  addressLine1: '',
  addressLine2: '',
  city: '',
  state: '',
  zipCode: '',
  isRepresentative: false,
  supervisingAttorneyName: '',
  supervisingAttorneyBar: '',
  supervisingAttorneyEmail: '',
};

function without(errors: FieldErrors, ...fields: RegistrationField[]): FieldErrors {
  const next = { ...errors };
  for (const field of fields) delete next[field];
  return next;
}

/**
 * The user typed in `field`. Its own error clears; bar state and state become
 * upper case; typing a password re-checks a confirmation already entered.
 */
export function editField(state: FormState, field: TextField, raw: string): FormState {
  const value = UPPER_CASE_FIELDS.has(field) ? raw.toUpperCase() : raw;
  const values = { ...state.values, [field]: value };
  let errors = without(state.errors, field);
  if (field === 'password' && values.confirmPassword !== '') {
    errors = values.confirmPassword === value
      ? without(errors, 'confirmPassword')
      : { ...errors, confirmPassword: REGISTRATION_MESSAGES.passwordMismatch };
  }
  return { values, errors };
}

/** The representative box changed. Unticking clears the supervising attorney fields and their errors. */
export function setRepresentative(state: FormState, checked: boolean): FormState {
  if (checked) {
    return {
      values: { ...state.values, isRepresentative: true },
      errors: without(state.errors, 'isRepresentative'),
    };
  }
  const values = { ...state.values, isRepresentative: false };
  for (const field of SUPERVISING_FIELDS) values[field] = '';
  return { values, errors: without(state.errors, 'isRepresentative', ...SUPERVISING_FIELDS) };
}

/** The message a field shows when it loses focus, or null. Only e-mail and phone are checked on blur. */
export function blurMessage(field: TextField, values: RegistrationValues): string | null {
  const value = values[field].trim();
  if (value === '') return null;
  if ((field === 'email' || field === 'supervisingAttorneyEmail') && !isValidEmail(value)) {
    return REGISTRATION_MESSAGES.email;
  }
  if (field === 'phone' && !isValidPhone(value)) return PHONE_BLUR_MESSAGE;
  return null;
}

/** The field lost focus: shows its blur message, if any. */
export function blurField(state: FormState, field: TextField): FormState {
  const message = blurMessage(field, state.values);
  return message ? { ...state, errors: { ...state.errors, [field]: message } } : state;
}

/** The submit check: the first failing rule, in form order. */
export function checkForSubmit(values: RegistrationValues): RuleResult {
  return checkRegistration(values);
}

/** The fields in the order the form shows them, so the first one marked is the first one a person meets. */
const FORM_ORDER: readonly TextField[] = [
  'firstName',
  'lastName',
  'email',
  'password',
  'confirmPassword',
  'barNumber',
  'barState',
  'phone',
  ...SUPERVISING_FIELDS,
  'addressLine1',
  'addressLine2',
  'city',
  'state',
  'zipCode',
];

/**
 * A submit with required fields left empty marks every one of them at once, not only the first, and focuses the
 * first in the form's order; null when none is empty (then the rules' first failure is shown as before).
 */
export function markMissing(state: FormState): { state: FormState; first: TextField } | null {
  const { values } = state;
  const required = new Set<RegistrationField>([
    ...REQUIRED_FIELDS,
    ...(values.isRepresentative ? SUPERVISING_FIELDS : []),
  ]);
  const missing = FORM_ORDER.filter((field) => required.has(field) && values[field].trim() === '');
  if (missing.length === 0) return null;
  const errors = { ...state.errors };
  for (const field of missing) {
    errors[field] = (SUPERVISING_FIELDS as readonly string[]).includes(field)
      ? REGISTRATION_MESSAGES.supervisingRequired
      : REGISTRATION_MESSAGES.required;
  }
  return { state: { ...state, errors }, first: missing[0] };
}

/** The field a server refusal is about, so it is shown there as well as in the toast. */
export function refusedField(code: string | null): TextField | null {
  if (code === 'password_too_weak') return 'password';
  return null;
}

/** The request body: tidied as the server tidies it (contract/rules/registration.ts). */
export function toRegistrationRequest(values: RegistrationValues): RegistrationRequest {
  return { userType: values.isRepresentative ? 'representative' : 'attorney', ...tidyRegistration(values) };
}
