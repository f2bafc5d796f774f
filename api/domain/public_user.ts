/** The user object the API hands to the PWA (contract/shapes/user.ts): enough to route and greet, nothing secret. */
import type { UserRow } from '../db/users.ts';
import type { PublicUser } from '../../contract/shapes/user.ts';

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
    language: row.language,
    largerText: row.larger_text,
  };
}
