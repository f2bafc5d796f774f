/**
 * Who chooses the language a shared tablet shows: each user's saved language, which the user sets from a portal's
 * header and an admin (or the roster import) sets for them; null leaves the entity's default. Changes are
 * audited with who made them.
 */
import { insert_audit_event } from '../db/audit.ts';
import type { Sql } from '../db/client.ts';
import { lock_user, update_user_language, update_user_larger_text } from '../db/users.ts';
import type { Language } from '../../contract/languages.ts';
import type { Actor } from './actor.ts';
import { fail, type Outcome } from './outcome.ts';

/**
 * The signed-in user saves their own choices (any role: the offender's tablet header too): the language, and the
 * offender's "Larger text". Each change is audited with what it was before; the answer is what is saved now.
 */
export async function saveOwnPreferences(
  sql: Sql,
  change: { language?: Language | null; largerText?: boolean },
  actor: Actor,
): Promise<{ language: Language | null; largerText: boolean }> {
  return await sql.begin(async (tx) => {
    const user = await lock_user(tx, actor.userId);
    if (!user) return { language: change.language ?? null, largerText: change.largerText ?? false };
    const changed: Record<string, { from: unknown; to: unknown }> = {};
    if (change.language !== undefined && change.language !== user.language) {
      await update_user_language(tx, user.id, change.language);
      changed.language = { from: user.language, to: change.language };
    }
    if (change.largerText !== undefined && change.largerText !== user.larger_text) {
      await update_user_larger_text(tx, user.id, change.largerText);
      changed.largerText = { from: user.larger_text, to: change.largerText };
    }
    if (Object.keys(changed).length) {
      await insert_audit_event(tx, {
        userId: actor.userId,
        eventType: 'preferences_updated',
        resourceType: 'user',
        resourceId: user.id,
        ipAddress: actor.ipAddress,
        eventData: changed,
      });
    }
    return {
      language: change.language !== undefined ? change.language : user.language,
      largerText: change.largerText ?? user.larger_text,
    };
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
