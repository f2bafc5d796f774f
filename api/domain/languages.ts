/**
 * Who chooses the language a shared tablet shows: each user's saved language, which the user sets from a portal's
 * header and an admin (or the roster import) sets for them; null leaves the entity's default. Changes are
 * audited with who made them.
 */
import { insert_audit_event } from '../db/audit.ts';
import type { Sql } from '../db/client.ts';
import { lock_user, update_user_language } from '../db/users.ts';
import type { Language } from '../../contract/languages.ts';
import type { Actor } from './actor.ts';
import { fail, type Outcome } from './outcome.ts';

/** The signed-in user saves their own language (any role: the offender's tablet header too). */
export async function saveOwnLanguage(sql: Sql, language: Language | null, actor: Actor): Promise<void> {
  await sql.begin(async (tx) => {
    const user = await lock_user(tx, actor.userId);
    if (!user || user.language === language) return;
    await update_user_language(tx, user.id, language);
    await insert_audit_event(tx, {
      userId: actor.userId,
      eventType: 'preferences_updated',
      resourceType: 'user',
      resourceId: user.id,
      ipAddress: actor.ipAddress,
      eventData: { language: { from: user.language, to: language } },
    });
  });
}

/** An admin sets the saved language of a user of their own entity (another entity's user: not found). */
export async function setUserLanguage(
  sql: Sql,
  change: { userId: string; language: Language | null },
  actor: Actor,
): Promise<Outcome> {
  return await sql.begin(async (tx): Promise<Outcome> => {
    const user = await lock_user(tx, change.userId);
    if (!user || user.entity_id !== actor.entityId) return fail('user_not_found');
    if (user.language === change.language) return { ok: true };
    await update_user_language(tx, user.id, change.language);
    await insert_audit_event(tx, {
      userId: actor.userId,
      eventType: 'user_updated',
      resourceType: 'user',
      resourceId: user.id,
      ipAddress: actor.ipAddress,
      eventData: {
        changes: { language: { from: user.language, to: change.language } },
        role: user.role,
        email: user.email,
        docNumber: user.doc_number,
      },
    });
    return { ok: true };
  });
}
