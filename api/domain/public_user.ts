/** The user object the API hands to the PWA: enough to route and greet, nothing secret. */
import type { Role, UserRow } from '../db/users.ts';

export interface PublicUser {
  id: string;
  role: Role;
  firstName: string;
  lastName: string;
  email: string | null;
  docNumber: string | null;
  entity: string;
  mustChangePassword: boolean;
}

/** Maps a user row to the public shape. */
export function toPublicUser(row: UserRow, mustChangePassword: boolean): PublicUser {
  return {
    id: row.id,
    role: row.role,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    docNumber: row.doc_number,
    entity: row.entity_slug,
    mustChangePassword,
  };
}
