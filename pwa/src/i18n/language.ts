/**
 * Who chooses the language shown, on a tablet shared by many people:
 * - signed out, the entity's default language (GET /api/config) on the facility's network (a shared tablet,
 *   whatever its browser is set to); anywhere else the browser's own language when it asks first for one the
 *   portal speaks (navigator.languages), else the entity's default;
 * - a choice on a signed-out page's switch (sign-in, registration) wins over both, and is written in the page's
 *   address (`?lang=es`), so a reload keeps it and the tablet stores nothing;
 * - signed in, the session's language: what was chosen on the sign-in page, else the user's saved preference
 *   (kept by the server with the user), else the signed-out pages' language. When the sign-in choice differs
 *   from the saved one, the portal offers to make it the account's language (LanguageOffer). It is kept in the
 *   session's stored user (cleared with the session on every way out, lib/state/keys.ts), so a reload or a
 *   viewer pop-up shows it;
 * - a portal header's switch shows the language at once and saves it as the user's preference on the server, so
 *   it is theirs at their next sign-in, on any tablet;
 * - after any way out, the signed-out language again, whatever the last person chose (the entity's default asked
 *   of the server again, so a default the admin changed meanwhile holds without a page load).
 * The tablet keeps no language of its own: nothing here outlives the session or names a person.
 */
import i18next from 'i18next';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '../../../contract/languages.ts';
import { type AppConfig, fetchConfig, loadConfig } from '../lib/config.ts';
import { onSessionCleared, storage } from '../lib/storage.ts';
import { showLanguage } from './i18n.ts';
import { savePreferences } from '../auth/authApi.ts';

/** The signed-out pages' language when nobody chose: the entity's default, or the browser's off the facility. */
let entityLanguage: Language = DEFAULT_LANGUAGE;
/** A signed-out page's choice: in memory and the page's address, for the sign-in it is made for. */
let signInChoice: Language | null = null;
/** The sign-in choice the portal offers to save as the account's language (it differs from the saved one). */
let offer: Language | null = null;

/** The address parameter a signed-out page's choice is kept in across a reload. */
const ADDRESS_PARAM = 'lang';

/** The first language the browser asks for that the portal speaks ('es-US' → 'es'), or null. */
export function browserLanguage(asked: readonly string[]): Language | null {
  for (const tag of asked) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return null;
}

/**
 * The signed-out pages' language when nobody chose: on the facility's network (a shared tablet) the entity's
 * default; elsewhere the browser's, when it asks for a language the portal speaks.
 */
export function signedOutLanguage(
  config: Pick<AppConfig, 'defaultLanguage' | 'facilityNetwork'>,
  asked: readonly string[],
): Language {
  if (config.facilityNetwork) return config.defaultLanguage;
  return browserLanguage(asked) ?? config.defaultLanguage;
}

function askedLanguages(): readonly string[] {
  return typeof navigator === 'undefined' ? [] : navigator.languages ?? [navigator.language];
}

/** The language a signed-out page's address names (`?lang=es`), or null. */
function addressChoice(): Language | null {
  if (typeof location === 'undefined') return null;
  const named = new URLSearchParams(location.search).get(ADDRESS_PARAM);
  return isLanguage(named) ? named : null;
}

/** Writes the choice in the page's address (a reload keeps it), leaving the browser's history as it is. */
export function keepChoiceInAddress(): void {
  if (typeof location === 'undefined' || signInChoice === null) return;
  const url = new URL(location.href);
  if (url.searchParams.get(ADDRESS_PARAM) === signInChoice) return;
  url.searchParams.set(ADDRESS_PARAM, signInChoice);
  history.replaceState(history.state, '', url);
}

/** The stored session's language, when a session is stored and names one. */
function storedSessionLanguage(): Language | null {
  const stored = storage.readUser();
  return stored.ok && storage.getGuid() !== null && isLanguage(stored.user.language)
    ? stored.user.language
    : null;
}

/** Shows a language, keeping the one shown when its catalogue cannot be fetched (offline without a cache). */
async function show(language: Language): Promise<void> {
  try {
    await showLanguage(language);
  } catch {
    // The language shown stays: a screen in the other language beats no screen.
  }
}

/**
 * Before the first render: the stored session's language at once, else the entity's default from
 * /api/config (English when it cannot be reached), so the first screen is already in its language.
 */
export async function startLanguage(): Promise<void> {
  const config = loadConfig().then((c) => signedOutLanguage(c, askedLanguages()), () => DEFAULT_LANGUAGE);
  const session = storedSessionLanguage();
  if (session) {
    void config.then((language) => (entityLanguage = language));
    await show(session);
  } else {
    entityLanguage = await config;
    signInChoice = addressChoice();
    await show(signInChoice ?? entityLanguage);
  }
  // The other catalogue, when the one asked for could not be fetched.
  if (!i18next.language) await show(DEFAULT_LANGUAGE);
  onSessionCleared(() => void returnToEntityLanguage().then(followEntityLanguage));
}

/**
 * After a way out, the entity's default as the server has it now: the admin may have changed it since the page
 * loaded. Shown only while the tablet is still signed out and nobody has chosen on the sign-in screen.
 */
async function followEntityLanguage(): Promise<void> {
  let latest: Language;
  try {
    latest = signedOutLanguage(await fetchConfig(AbortSignal.timeout(CONFIG_WAIT_MS)), askedLanguages());
  } catch {
    return; // Unreachable (offline): the default this page loaded with stays.
  }
  if (latest === entityLanguage) return;
  entityLanguage = latest;
  if (signInChoice === null && storage.getGuid() === null) await show(latest);
}

/** How long a way out waits for the entity's current default: the sign-in screen is already shown meanwhile. */
const CONFIG_WAIT_MS = 5_000;

/**
 * A signed-out page's switch (sign-in, registration): shown now, kept in the page's address, and the language
 * of the session that the next sign-in opens.
 */
export async function chooseOnSignIn(language: Language): Promise<void> {
  signInChoice = language;
  keepChoiceInAddress();
  await show(language);
}

/**
 * The language of a session that begins now, given the user's saved preference (null: none): the sign-in
 * page's choice wins for this session, and is offered as the account's language when it differs from the saved.
 */
export function sessionLanguage(saved: Language | null): Language {
  offer = signInChoice !== null && signInChoice !== saved ? signInChoice : null;
  return signInChoice ?? saved ?? entityLanguage;
}

/** Shows the session's language once the session is stored. */
export function showSessionLanguage(language: Language): Promise<void> {
  signInChoice = null;
  return show(language);
}

/** The language the portal offers to save as the account's (chosen at sign-in, not saved), or null. */
export function pendingLanguageOffer(): Language | null {
  return offer;
}

/**
 * The answer to the offer: kept, the language is saved as the user's preference (false when the server could
 * not save it); declined, it stays for this session only. Either way the offer is not made again.
 */
export async function answerLanguageOffer(keep: boolean): Promise<boolean> {
  const language = offer;
  offer = null;
  if (!keep || language === null) return true;
  try {
    await savePreferences({ language });
    return true;
  } catch {
    offer = language;
    return false;
  }
}

/**
 * A portal header's switch: shown now, kept as the session's language, and saved as the user's preference.
 * Resolves false when the server could not save it (offline): the language is still shown for this session.
 */
export async function chooseInPortal(language: Language): Promise<boolean> {
  offer = null;
  await show(language);
  const stored = storage.readUser();
  if (stored.ok) storage.saveUser({ ...stored.user, language });
  try {
    await savePreferences({ language });
    return true;
  } catch {
    return false;
  }
}

/** After any way out: the entity's default, the sign-in choice forgotten. */
export function returnToEntityLanguage(): Promise<void> {
  signInChoice = null;
  offer = null;
  return show(entityLanguage);
}

/** The entity's default language (the sign-in screen shows it when nobody chose). */
export function entityDefaultLanguage(): Language {
  return entityLanguage;
}
