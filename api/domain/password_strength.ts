/**
 * The server's password-strength floor (ASVS 5.0 V6.2, NIST SP 800-63B 3.1.1.2: refuse passwords found in
 * lists of common and breached passwords), by zxcvbn-ts's estimate with the shared settings
 * (contract/rules/password_score.ts), the same one the registration screen's Weak/Medium/Strong label reads.
 */
import { type OptionsType, ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as english from '@zxcvbn-ts/language-en';
import {
  MIN_PASSWORD_SCORE,
  type PasswordOwner,
  passwordScore,
  zxcvbnOptions,
} from '../../contract/rules/password_score.ts';
import { fail, type Outcome } from './outcome.ts';

export { MIN_PASSWORD_SCORE, type PasswordOwner } from '../../contract/rules/password_score.ts';

let factory: ZxcvbnFactory | undefined;

/** Built on first use: unpacking the dictionaries takes a moment nobody else should wait for at start-up. */
function estimator(): ZxcvbnFactory {
  factory ??= new ZxcvbnFactory(zxcvbnOptions({ common, english }) as OptionsType);
  return factory;
}

/**
 * Refuses a password that is common, breached-pattern or built from the person's own details
 * (zxcvbn score below MIN_PASSWORD_SCORE) with 'password_too_weak'.
 */
export function checkPasswordStrength(password: string, owner: PasswordOwner = {}): Outcome {
  return passwordScore(estimator(), password, owner) >= MIN_PASSWORD_SCORE
    ? { ok: true }
    : fail('password_too_weak');
}
