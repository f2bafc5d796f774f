/**
 * The registration screen's zxcvbn, built from the server's own settings (contract/rules/password_score.ts):
 * loaded on demand by usePasswordStrength.ts, with its dictionaries (1.6 MB), which no other screen carries and
 * the service worker does not precache.
 */
import { type OptionsType, ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as english from '@zxcvbn-ts/language-en';
import {
  type PasswordOwner,
  type PasswordStrength,
  strengthLabel,
  zxcvbnOptions,
} from '../../../contract/rules/password_score.ts';

const estimator = new ZxcvbnFactory(zxcvbnOptions({ common, english }) as OptionsType);

/** Spec section 4's label for a password, as the server would judge it. */
export function strengthOf(password: string, owner: PasswordOwner = {}): PasswordStrength {
  return strengthLabel(estimator, password, owner);
}
