/**
 * Who chooses the language shown, on a tablet shared by many people:
 * - signed out, the entity's default language (GET /api/config), or what was chosen on the sign-in screen;
 * - signed in, the session's language: the user's saved preference (kept by the server with the user), else
 *   what was chosen on the sign-in screen, else the entity's default. It is kept in the session's stored user
 *   (cleared with the session on every way out, lib/state/keys.ts), so a reload or a viewer pop-up shows it;
 * - a portal header's switch shows the language at once and saves it as the user's preference on the server, so
 *   it is theirs at their next sign-in, on any tablet;
 * - after any way out, the entity's default again, whatever the last person chose (asked of the server again, so
 *   a default the admin changed meanwhile holds without a page load).
 * The tablet keeps no language of its own: nothing here outlives the session or names a person.
 */
import i18next from 'i18next';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '../../../contract/languages.ts';
import { fetchConfig, loadConfig } from '../lib/config.ts';
import { onSessionCleared, storage } from '../lib/storage.ts';
import { showLanguage } from './i18n.ts';
import { savePreferences } from '../auth/authApi.ts';

let entityLanguage: Language = DEFAULT_LANGUAGE;
/** The sign-in screen's choice: memory only, for the sign-in it is made for. */
let signInChoice: Language | null = null;

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
  const config = loadConfig().then((c) => c.defaultLanguage, () => DEFAULT_LANGUAGE);
  const session = storedSessionLanguage();
  if (session) {
    void config.then((language) => (entityLanguage = language));
    await show(session);
  } else {
    entityLanguage = await config;
    await show(entityLanguage);
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
    latest = (await fetchConfig(AbortSignal.timeout(CONFIG_WAIT_MS))).defaultLanguage;
  } catch {
    return; // Unreachable (offline): the default this page loaded with stays.
  }
  if (latest === entityLanguage) return;
  entityLanguage = latest;
  if (signInChoice === null && storage.getGuid() === null) await show(latest);
}

/** How long a way out waits for the entity's current default: the sign-in screen is already shown meanwhile. */
const CONFIG_WAIT_MS = 5_000;

/** The sign-in screen's switch: shown now, and the session's language if the user has no saved preference. */
export function chooseOnSignIn(language: Language): Promise<void> {
  signInChoice = language;
  return show(language);
}

/** The language of a session that begins now, given the user's saved preference (null: none). */
export function sessionLanguage(saved: Language | null): Language {
  return saved ?? signInChoice ?? entityLanguage;
}

/** Shows the session's language once the session is stored. */
export function showSessionLanguage(language: Language): Promise<void> {
  signInChoice = null;
  return show(language);
}

/**
 * A portal header's switch: shown now, kept as the session's language, and saved as the user's preference.
 * Resolves false when the server could not save it (offline): the language is still shown for this session.
 */
export async function chooseInPortal(language: Language): Promise<boolean> {
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
  return show(entityLanguage);
}

/** The entity's default language (the sign-in screen shows it when nobody chose). */
export function entityDefaultLanguage(): Language {
  return entityLanguage;
}
