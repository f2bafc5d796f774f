/** Changing a system setting: checked against its rules, stored and audited in one transaction. */
import { insert_audit_event } from '../db/audit.ts';
import type { Sql } from '../db/client.ts';
import { lock_setting, update_setting } from '../db/settings.ts';
import { fail, type Outcome } from './outcome.ts';
import { checkSettingValue, type SettingValueInput } from '../../contract/rules/settings.ts';
import { isSettingKey } from '../../contract/settings.ts';
import type { Actor } from './actor.ts';
import { applyMfaRequirement } from './mfa.ts';

/** Stores a new value for `key`; every reader takes it from the next use on (no cache anywhere). */
export async function changeSetting(
  sql: Sql,
  key: string,
  input: SettingValueInput,
  actor: Actor,
): Promise<Outcome> {
  return await sql.begin(async (tx): Promise<Outcome> => {
    const current = await lock_setting(tx, key);
    if (!current) return fail('setting_not_found');
    if (!isSettingKey(key)) return fail('setting_not_found');
    const checked = checkSettingValue(key, input);
    if (!checked.ok) return fail('invalid_input', checked.message);
    await update_setting(tx, key, { value: checked.value, userId: actor.userId });
    // Requiring a second factor of a role ends that role's sessions opened with a password alone.
    const ended = key === 'mfa_required_roles'
      ? await applyMfaRequirement(tx, String(current.value.value), String(checked.value.value))
      : 0;
    await insert_audit_event(tx, {
      userId: actor.userId,
      eventType: 'setting_updated',
      resourceType: 'setting',
      resourceId: key,
      ipAddress: actor.ipAddress,
      eventData: {
        key,
        from: current.value.value,
        to: checked.value.value,
        ...(ended ? { sessionsEnded: ended } : {}),
      },
    });
    return { ok: true };
  });
}
