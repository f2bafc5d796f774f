/** The signed-in user as the API hands it over (`user` in the login answer). */

export const ROLES = ['offender', 'attorney', 'representative', 'admin', 'approver'] as const;

export type Role = (typeof ROLES)[number];

export interface User {
  id: string;
  /** Usually one of ROLES; anything else is treated as an unknown role. */
  role: string;
  firstName: string;
  lastName: string;
  email: string | null;
  docNumber: string | null;
  entity: string;
  mustChangePassword: boolean;
}

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
  };
}
