/**
 * How many guesses a password takes, as zxcvbn-ts estimates it with the common-password lists of
 * @zxcvbn-ts/language-common and the English words, names and Wikipedia terms of @zxcvbn-ts/language-en (it
 * sees keyboard walks, dates, repeats, sequences, l33t substitutions and the person's own details). One
 * judgement for both halves: the server refuses below MIN_PASSWORD_SCORE (api/domain/password_strength.ts), and
 * the registration screen's Weak/Medium/Strong label (spec section 4's three words) is read from the same score
 * (pwa/src/auth/passwordEstimator.ts, loaded on demand so no other screen carries the dictionaries). Each half
 * builds zxcvbn from the same settings here; contract/ imports no package, so the packages are handed in.
 */

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

/** What zxcvbn's language packages give: the keyboard graphs and dictionaries, the feedback texts. */
export interface ZxcvbnLanguages<Graphs, Translations, CommonWords, EnglishWords> {
  common: { adjacencyGraphs: Graphs; dictionary: CommonWords };
  english: { translations: Translations; dictionary: EnglishWords };
}

/** zxcvbn's options, the same on the server and on the screen. */
export function zxcvbnOptions<G, T, C, E>({ common, english }: ZxcvbnLanguages<G, T, C, E>) {
  return {
    translations: english.translations,
    graphs: common.adjacencyGraphs,
    dictionary: { ...common.dictionary, ...english.dictionary },
    // Off: edit-distance matching against every dictionary took 100 to 500 ms a password. The l33t and
    // capitalisation matchers still find 'P@ssw0rd1' as 'password1'.
    useLevenshteinDistance: false,
    maxLength: MAX_CHECKED_LENGTH,
    l33tMaxSubstitutions: L33T_MAX_SUBSTITUTIONS,
  };
}

/** A built zxcvbn (its ZxcvbnFactory). */
export interface PasswordEstimator {
  check(password: string, userInputs: string[]): { score: number };
}

/** The person's own details, which their password must not lean on. */
export interface PasswordOwner {
  email?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  /** Other details the person typed (a bar number, a DOC number). */
  other?: (string | null | undefined)[];
}

/** The owner's details as zxcvbn's user inputs: words a password built from them is weak for. */
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

/** The zxcvbn score (0 to 4) of a password for its owner. */
export function passwordScore(
  estimator: PasswordEstimator,
  password: string,
  owner: PasswordOwner = {},
): number {
  return estimator.check(password.slice(0, MAX_CHECKED_LENGTH), ownerWords(owner)).score;
}

export type PasswordStrength = '' | 'Weak' | 'Medium' | 'Strong';

/**
 * The label of spec section 4 for a score: Weak is what the server refuses, Medium what it takes, Strong a score
 * of 4 (at least 10^10 guesses). Empty for an empty password.
 */
export function strengthLabel(
  estimator: PasswordEstimator,
  password: string,
  owner: PasswordOwner = {},
): PasswordStrength {
  if (password === '') return '';
  const score = passwordScore(estimator, password, owner);
  if (score < MIN_PASSWORD_SCORE) return 'Weak';
  return score >= 4 ? 'Strong' : 'Medium';
}
