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
  registrationProblems,
  type RuleResult,
  SUPERVISING_FIELDS,
  tidyRegistration,
  US_STATE_CODES,
  type UsStateCode,
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
  barStateCode: 'register.messages.barStateCode',
  state: 'register.messages.state',
  stateCode: 'register.messages.stateCode',
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

export { SUPERVISING_FIELDS };

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
      // A representative's bar number is their supervising attorney's: their own field is not shown.
      errors: without(state.errors, 'isRepresentative', 'barNumber'),
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

/** The first failing rule, as the server's answer would name it. */
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

/** The fields the form shows: a representative's own bar number is not asked (theirs is their supervisor's). */
export function shownFields(values: RegistrationValues): TextField[] {
  return FORM_ORDER.filter((field) =>
    values.isRepresentative
      ? field !== 'barNumber'
      : !(SUPERVISING_FIELDS as readonly string[]).includes(field)
  );
}

/**
 * The submit check: every problem at once, each at its field (a field left empty says so, a filled one says what
 * is wrong with it), and the first in the form's order to focus and to announce; null when there is none.
 */
export function checkAll(state: FormState): { state: FormState; first: TextField; message: string } | null {
  const problems = registrationProblems(state.values);
  if (problems.length === 0) return null;
  const errors = { ...state.errors };
  for (const problem of problems) errors[problem.field] = problem.message;
  const first = shownFields(state.values).find((field) => problems.some((p) => p.field === field)) ??
    (problems[0].field as TextField);
  return { state: { ...state, errors }, first, message: errors[first] ?? problems[0].message };
}

/** A state's name in the language shown (the `usStates` catalogue section). */
export function stateName(code: UsStateCode, language?: string): string {
  return t(`usStates.${code}`, { lng: language });
}

/** The states for a select, by name in the language shown (or `language`), each labelled "Name (CODE)". */
export function stateOptions(language?: string): { value: UsStateCode; label: string; name: string }[] {
  return US_STATE_CODES
    .map((code) => ({
      value: code,
      name: stateName(code, language),
      label: `${stateName(code, language)} (${code})`,
    }))
    .sort((a, b) => a.name.localeCompare(b.name, language));
}

function folded(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * Whether a typed search finds a state: its code, or the start of any word of its name, accents ignored
 * ("mo" finds Missouri and Montana, "york" New York, "mexico" Nuevo México).
 */
export function stateMatches(typed: string, option: { value: string; name: string }): boolean {
  const query = folded(typed.trim());
  if (query === '') return true;
  if (option.value.toLowerCase() === query) return true;
  const name = folded(option.name);
  return name.startsWith(query) || name.split(/[\s.]+/).some((word) => word.startsWith(query));
}

/** The exact code typed comes first ("mi" chooses Michigan before Minnesota), then by name. */
export function compareStates(
  a: { value: string; name: string },
  b: { value: string; name: string },
  typed: string,
): number {
  const query = typed.trim().toUpperCase();
  return Number(b.value === query) - Number(a.value === query) || a.name.localeCompare(b.name);
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
