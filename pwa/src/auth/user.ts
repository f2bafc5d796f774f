/** The signed-in user as the API hands it over (`user` in the login answer) and as storage keeps it. */
import { isLanguage, type Language } from '../../../contract/languages.ts';
import { type PublicUser, type Role, ROLES } from '../../../contract/shapes/user.ts';

export { ROLES };
export type { Role };

/**
 * The API's PublicUser, except that `role` may be any text: a user stored by another version can hold a role
 * this PWA has no portal for, and is then routed as an unknown role rather than dropped.
 */
export type User = Omit<PublicUser, 'role'> & {
  role: string;
  /**
   * The API's answer: the user's saved preference (null: none). As stored for a session: the session's
   * language (i18n/language.ts).
   */
  language: Language | null;
};

/** True for the five roles the PWA has a portal for. */
export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function nullableText(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/**
 * Accepts anything (a parsed JSON value from storage or the network) and returns
 * a User when it has at least a string role, else null. Missing optional fields
 * get safe defaults so an older stored shape still routes.
 */
export function parseUser(value: unknown): User | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  if (typeof record.role !== 'string' || record.role === '') return null;
  return {
    id: text(record.id),
    role: record.role,
    firstName: text(record.firstName),
    lastName: text(record.lastName),
    email: nullableText(record.email),
    docNumber: nullableText(record.docNumber),
    entity: text(record.entity) || 'default',
    mustChangePassword: record.mustChangePassword === true,
    ...(typeof record.pinResetAt === 'string' ? { pinResetAt: record.pinResetAt } : {}),
    language: isLanguage(record.language) ? record.language : null,
    largerText: record.largerText === true,
  };
}
