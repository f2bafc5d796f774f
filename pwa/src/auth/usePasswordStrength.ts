/**
 * The live strength of a password as the server judges it (contract/rules/password_score.ts): the estimator
 * and its dictionaries load on demand, the first time a password is typed, so only the screens that set a
 * password carry them (never the offender's tablet route). Null until it has loaded.
 */
import { useEffect, useState } from 'react';
import type { PasswordOwner, PasswordStrength } from '../../../contract/rules/password_score.ts';

type Judge = (password: string, owner?: PasswordOwner) => PasswordStrength;

let judge: Promise<Judge> | undefined;

function loadJudge(): Promise<Judge> {
  judge ??= import('./passwordEstimator.ts').then((module) => module.strengthOf);
  return judge;
}

export function usePasswordStrength(password: string, owner: PasswordOwner = {}): PasswordStrength | null {
  const [strength, setStrength] = useState<PasswordStrength | null>(password === '' ? '' : null);
  const { email, firstName, lastName } = owner;
  useEffect(() => {
    if (password === '') {
      setStrength('');
      return;
    }
    let current = true;
    loadJudge().then(
      (strengthOf) => current && setStrength(strengthOf(password, { email, firstName, lastName })),
      () => current && setStrength(null),
    );
    return () => {
      current = false;
    };
  }, [password, email, firstName, lastName]);
  return strength;
}
