/**
 * The server's password-strength floor (ASVS 5.0 V6.2, NIST SP 800-63B 3.1.1.2: refuse passwords found in
 * lists of common and breached passwords). zxcvbn-ts estimates how many guesses a password takes, with the
 * common-password lists of @zxcvbn-ts/language-common and the English words, names and Wikipedia terms of
 * @zxcvbn-ts/language-en, and it sees keyboard walks, dates, repeats, sequences, l33t substitutions and the
 * user's own details. The registration screen's Weak/Medium/Strong label (spec section 4) is a separate,
 * client-side hint and stays as the spec draws it; this check is what the server enforces.
 */
import { type OptionsType, ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as english from '@zxcvbn-ts/language-en';
import { fail, type Outcome } from './outcome.ts';

/**
 * zxcvbn's score 3 means at least 10^8 guesses ("safely unguessable"): beyond any online attack the sign-in
 * throttle allows, and a real cost offline against PBKDF2 at 600,000 iterations. Score 2 (10^6 to 10^8)
 * still admits the dictionary words with a capital and a digit that breached lists are full of
 * (`Password1` scores 0 or 1); score 4 (10^10) refuses many sound passphrases and mostly sends people to
 * writing passwords down.
 */
export const MIN_PASSWORD_SCORE = 3;

/**
 * zxcvbn runs on the request's thread and its work grows with the length and the number of l33t look-alikes:
 * measured here, a 200-character string of look-alikes took over a second, 64 characters with at most 10
 * substitutions about 40 ms. So it reads the first 64 characters (a password is strong by its length long
 * before that) and tries at most 10 substitutions; the routes refuse passwords over 200 characters anyway.
 */
const MAX_CHECKED_LENGTH = 64;
const L33T_MAX_SUBSTITUTIONS = 10;

let factory: ZxcvbnFactory | undefined;

/** Built on first use: unpacking the dictionaries takes a moment nobody else should wait for at start-up. */
function estimator(): ZxcvbnFactory {
  if (!factory) {
    const options: OptionsType = {
      translations: english.translations,
      graphs: common.adjacencyGraphs,
      dictionary: { ...common.dictionary, ...english.dictionary },
      // Off: edit-distance matching against every dictionary took 100 to 500 ms a password. The l33t and
      // capitalisation matchers still find 'P@ssw0rd1' as 'password1'.
      useLevenshteinDistance: false,
      maxLength: MAX_CHECKED_LENGTH,
      l33tMaxSubstitutions: L33T_MAX_SUBSTITUTIONS,
    };
    factory = new ZxcvbnFactory(options);
  }
  return factory;
}

/** The person's own details, which their password must not lean on. */
export interface PasswordOwner {
  email?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  /** Other details the person typed (a bar number, a DOC number). */
  other?: (string | null | undefined)[];
}

function ownerWords(owner: PasswordOwner): string[] {
  const email = owner.email?.trim().toLowerCase() ?? '';
  const [local = '', domain = ''] = email.split('@');
  const words = [
    email,
    local,
    ...local.split(/[._+-]+/),
    domain.split('.')[0],
    owner.firstName,
    owner.lastName,
    ...(owner.other ?? []),
  ];
  return [...new Set(words.map((w) => w?.trim().toLowerCase() ?? '').filter((w) => w.length >= 3))];
}

/**
 * Refuses a password that is common, breached-pattern or built from the person's own details
 * (zxcvbn score below MIN_PASSWORD_SCORE) with 'password_too_weak'.
 */
export function checkPasswordStrength(password: string, owner: PasswordOwner = {}): Outcome {
  const result = estimator().check(password.slice(0, MAX_CHECKED_LENGTH), ownerWords(owner));
  return result.score >= MIN_PASSWORD_SCORE ? { ok: true } : fail('password_too_weak');
}
