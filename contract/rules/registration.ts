/**
 * The registration rules of spec section 5, as one plain function shared by the
 * server (which enforces them) and the PWA (which mirrors them for quick feedback).
 * It imports only the contract's own request shape: both Deno and Vite load this file as it is.
 */
import type { RegistrationRequest } from '../shapes/registration.ts';
import { hasUnsafeNameCharacters, NAME_CHARACTERS_MESSAGE } from './names.ts';

/** What the rules check: the request body (contract/shapes/registration.ts) without the account type and language. */
export type RegistrationInput = Omit<RegistrationRequest, 'userType' | 'language' | 'invitation'>;

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
  barStateCode: 'Bar State must be the postal code of a US state, DC or territory, such as MO for Missouri.',
  state: 'State must be 2 characters!',
  stateCode: 'State must be the postal code of a US state, DC or territory, such as MO for Missouri.',
  zip: 'ZIP Code must be in format 12345 or 12345-6789!',
  supervisingRequired: 'Please fill in all supervising attorney fields!',
  nameCharacters: NAME_CHARACTERS_MESSAGE,
} as const;

/**
 * The codes Bar State and State accept: USPS Publication 28's two-letter codes of the 50 states, the District of
 * Columbia and the five inhabited territories (each has its own bar and courts). Left out: the freely associated
 * states (FM, MH, PW: sovereign countries, not a US bar) and the military codes (AA, AE, AP: a mail route, not a
 * state of admission or of an office). Their names are the PWA's (the `usStates` catalogue section), in each
 * language.
 */
export const US_STATE_CODES = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'DC',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
  'AS',
  'GU',
  'MP',
  'PR',
  'VI',
] as const;

export type UsStateCode = typeof US_STATE_CODES[number];

const STATE_CODES: ReadonlySet<string> = new Set(US_STATE_CODES);

/** True when the text is one of US_STATE_CODES (case and surrounding spaces ignored). */
export function isUsStateCode(value: string): boolean {
  return STATE_CODES.has(value.trim().toUpperCase());
}

/** Spec section 9: password minimum 8 characters. */
export const PASSWORD_MIN_LENGTH = 8;

/**
 * Order matters: it is the order of the form, so the first failure is the first bad field. Bar number is not
 * required of a representative: theirs is their supervising attorney's (REPRESENTATIVE_FIELDS).
 */
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

/** What a representative gives about their supervising attorney, all required (spec section 5). */
export const SUPERVISING_FIELDS = [
  'supervisingAttorneyName',
  'supervisingAttorneyBar',
  'supervisingAttorneyEmail',
] as const satisfies readonly RegistrationField[];

/**
 * {name}@{domain}.{tld}, one mailbox: none of the characters that make a list of addresses or a display name of
 * it (`,` `;` `<` `>` `"` `(` `)` `[` `]` `\`) nor control characters. 'x,owner@example.org' passes
 * the spec's looser rule, and mail would go to both.
 */
const MAILBOX_PART = String.raw`[^\s\p{Cc}@,;<>"()[\]\\]+`;
const EMAIL_PATTERN = new RegExp(`^${MAILBOX_PART}@${MAILBOX_PART}\\.${MAILBOX_PART}$`, 'u');

/** One mailbox, `name@host`, in the characters EMAIL_PATTERN allows (the mail sender's check: no TLD needed). */
export const MAILBOX_PATTERN = new RegExp(`^${MAILBOX_PART}@${MAILBOX_PART}$`, 'u');

/** Spaces, dots, hyphens and parentheses: how people group the digits of a phone number. */
const PHONE_SEPARATORS = /[\s.()-]/g;
const BAR_NUMBER_SEPARATORS = /[\s.\-/#]/g;
const ZIP_PATTERN = /^\d{5}(-\d{4})?$/;

/** True when the text looks like an e-mail address ({name}@{domain}.{tld}). */
export function isValidEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value.trim());
}

/**
 * A US phone number as stored, 3-3-4 digits with hyphens (the spec's form), from the ways people write one:
 * "(314) 555-1234", "314.555.1234", "314 555 1234", "+1 314 555 1234", "1-314-555-1234". Null when it is not
 * ten digits (after a leading country code 1) grouped by spaces, dots, hyphens or parentheses.
 */
export function normalisePhone(value: string): string | null {
  let digits = value.trim().replace(PHONE_SEPARATORS, '');
  if (digits.startsWith('+1')) digits = digits.slice(2);
  else if (digits.length === 11 && digits.startsWith('1')) digits = digits.slice(1);
  if (!/^\d{10}$/.test(digits)) return null;
  return `${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`;
}

/** True when the text is a US phone number normalisePhone accepts. */
export function isValidPhone(value: string): boolean {
  return normalisePhone(value) !== null;
}

/**
 * A bar number as stored, from the ways people write one: "MO-12345", "MO 12345", "mo12345" and "12345" (with
 * bar state MO) are all "MO12345": upper case, without spaces, hyphens, dots, slashes or '#', and a number of
 * digits alone led by its bar state's code, so one attorney's number reads the same whoever typed it. Null when
 * what is left after the state's code is not at least 4 letters or digits (spec section 5).
 */
export function normaliseBarNumber(value: string, barState: string): string | null {
  const compact = value.trim().toUpperCase().replace(BAR_NUMBER_SEPARATORS, '');
  const state = barState.trim().toUpperCase();
  const known = isUsStateCode(state);
  const prefixed = known && compact.startsWith(state) && /^\d+$/.test(compact.slice(2));
  const core = prefixed ? compact.slice(2) : compact;
  if (!/^[A-Z0-9]{4,}$/.test(core)) return null;
  return known && /^\d+$/.test(core) ? `${state}${core}` : core;
}

function blank(value: string | null | undefined): boolean {
  return value === undefined || value === null || value.trim() === '';
}

/** One field's problem. */
export interface FieldProblem {
  field: RegistrationField;
  message: string;
}

/** The one message a two-letter field gets: the spec's length rule first, then the code list. */
function stateProblem(value: string, messages: { length: string; code: string }): string | null {
  // Characters as PostgreSQL counts them (its check constraint): code points, not UTF-16 units ('😀' is one).
  if (Array.from(value.trim()).length !== 2) return messages.length;
  return isUsStateCode(value) ? null : messages.code;
}

/**
 * Every problem of a registration, at most one per field, in the order spec section 5 lists the rules: the
 * required fields left empty first, then each rule of the fields that are filled. A filled field is never told
 * it is missing.
 */
export function registrationProblems(input: RegistrationInput): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const add = (field: RegistrationField, message: string | null) => {
    if (message && !problems.some((p) => p.field === field)) problems.push({ field, message });
  };
  const representative = input.isRepresentative;
  for (const field of REQUIRED_FIELDS) {
    if (field === 'barNumber' && representative) continue;
    if (blank(input[field] as string | undefined)) add(field, REGISTRATION_MESSAGES.required);
  }
  if (representative) {
    for (const field of SUPERVISING_FIELDS) {
      if (blank(input[field])) add(field, REGISTRATION_MESSAGES.supervisingRequired);
    }
  }
  const filled = (field: RegistrationField) => !blank(input[field] as string | null | undefined);
  for (const field of ['firstName', 'lastName'] as const) {
    if (filled(field) && hasUnsafeNameCharacters(input[field])) {
      add(field, REGISTRATION_MESSAGES.nameCharacters);
    }
  }
  if (filled('email') && !isValidEmail(input.email)) add('email', REGISTRATION_MESSAGES.email);
  if (filled('password') && input.password.length < PASSWORD_MIN_LENGTH) {
    add('password', REGISTRATION_MESSAGES.passwordLength);
  }
  if (filled('confirmPassword') && filled('password') && input.password !== input.confirmPassword) {
    add('confirmPassword', REGISTRATION_MESSAGES.passwordMismatch);
  }
  if (filled('phone') && !isValidPhone(input.phone as string)) add('phone', REGISTRATION_MESSAGES.phone);
  if (
    !representative && filled('barNumber') && normaliseBarNumber(input.barNumber, input.barState) === null
  ) {
    add('barNumber', REGISTRATION_MESSAGES.barNumber);
  }
  if (filled('barState')) {
    add(
      'barState',
      stateProblem(input.barState, {
        length: REGISTRATION_MESSAGES.barState,
        code: REGISTRATION_MESSAGES.barStateCode,
      }),
    );
  }
  if (filled('state')) {
    add(
      'state',
      stateProblem(input.state, {
        length: REGISTRATION_MESSAGES.state,
        code: REGISTRATION_MESSAGES.stateCode,
      }),
    );
  }
  if (filled('zipCode') && !ZIP_PATTERN.test(input.zipCode.trim())) add('zipCode', REGISTRATION_MESSAGES.zip);
  if (representative) {
    if (
      filled('supervisingAttorneyName') && hasUnsafeNameCharacters(input.supervisingAttorneyName as string)
    ) {
      add('supervisingAttorneyName', REGISTRATION_MESSAGES.nameCharacters);
    }
    if (
      filled('supervisingAttorneyBar') &&
      normaliseBarNumber(input.supervisingAttorneyBar as string, input.barState) === null
    ) {
      add('supervisingAttorneyBar', REGISTRATION_MESSAGES.barNumber);
    }
    if (filled('supervisingAttorneyEmail') && !isValidEmail(input.supervisingAttorneyEmail as string)) {
      add('supervisingAttorneyEmail', REGISTRATION_MESSAGES.email);
    }
  }
  return problems;
}

/** Checks a registration the way spec section 5 lists the rules; the first problem is the answer's message. */
export function checkRegistration(input: RegistrationInput): RuleResult {
  const [first] = registrationProblems(input);
  return first ? { ok: false, ...first } : { ok: true };
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
 * The one tidying both halves apply, after the check: text trimmed, the two states in upper case, phone and bar
 * numbers in their stored form (normalisePhone, normaliseBarNumber), blank optional fields null, and the
 * supervising attorney's fields only for a representative. A representative has no bar number of their own: theirs
 * is stored as their supervising attorney's, under the same bar state. Passwords are kept exactly as typed.
 */
export function tidyRegistration(input: RegistrationInput): TidyRegistration {
  const representative = input.isRepresentative;
  const barState = input.barState.trim().toUpperCase();
  const barNumber = (value: string) => normaliseBarNumber(value, barState) ?? value.trim();
  const phone = optional(input.phone);
  const supervisingBar = representative ? optional(input.supervisingAttorneyBar) : null;
  return {
    firstName: input.firstName.trim(),
    lastName: input.lastName.trim(),
    email: input.email.trim(),
    password: input.password,
    confirmPassword: input.confirmPassword,
    barNumber: representative
      ? (supervisingBar === null ? '' : barNumber(supervisingBar))
      : barNumber(input.barNumber),
    barState,
    phone: phone === null ? null : normalisePhone(phone) ?? phone,
    addressLine1: input.addressLine1.trim(),
    addressLine2: optional(input.addressLine2),
    city: input.city.trim(),
    state: input.state.trim().toUpperCase(),
    zipCode: input.zipCode.trim(),
    isRepresentative: representative,
    supervisingAttorneyName: representative ? optional(input.supervisingAttorneyName) : null,
    supervisingAttorneyBar: supervisingBar === null ? null : barNumber(supervisingBar),
    supervisingAttorneyEmail: representative ? optional(input.supervisingAttorneyEmail) : null,
  };
}
