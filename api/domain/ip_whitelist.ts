/**
 * The IP whitelist: adding, changing and removing ranges (each audited in its own transaction), and the
 * question every offender sign-in and call asks, read fresh from the database so a change applies at once.
 * The pure parser is contract/rules/ip_ranges.ts, the SQL api/db/ip_whitelist.ts.
 */
import type { AppDeps } from '../deps.ts';
import { insert_audit_event } from '../db/audit.ts';
import type { Tx } from '../db/client.ts';
import type { ActiveSession } from '../db/sessions.ts';
import {
  delete_ip_range,
  find_ip_range_for_update,
  insert_ip_range,
  type IpRangeRow,
  list_active_ip_ranges,
  list_ip_ranges,
  update_ip_range,
} from '../db/ip_whitelist.ts';
import {
  formatIpRange,
  type IpRange,
  parseIpRange,
  sameAddresses,
  whitelistAllows,
} from '../../contract/rules/ip_ranges.ts';
import type { Actor } from './actor.ts';
import { fail, type Failure, type Outcome } from './outcome.ts';

/**
 * What a change did, so the route can answer with its message: an edit, or the Activate/Deactivate toggle.
 */
export type IpRangeChangeKind = 'added' | 'updated' | 'activated' | 'deactivated';

export type IpRangeResult = Outcome<{ row: IpRangeRow; kind: IpRangeChangeKind }>;

/** Blank or missing is 'required'; anything the strict parser refuses is 'invalid'. */
export function checkIpRange(input: unknown): Outcome<{ range: IpRange }> {
  if (input === undefined || input === null || (typeof input === 'string' && input.trim() === '')) {
    return fail('ip_range_required');
  }
  const range = typeof input === 'string' ? parseIpRange(input) : undefined;
  return range ? { ok: true, range } : fail('ip_range_invalid');
}

/** The refusal of a range another one already covers; the message names the one listed. */
const duplicate = (existing: string): Failure => fail('ip_range_duplicate', existing);

/** Another range that covers the same addresses ('10.*' and '10.0.0.0/8'), if any. */
async function sameAs(tx: Tx, range: IpRange, exceptId?: string): Promise<IpRangeRow | undefined> {
  const rows = await list_ip_ranges(tx);
  return rows.find((row) => {
    if (row.id === exceptId) return false;
    const other = parseIpRange(row.ipRange);
    return other !== undefined && sameAddresses(other, range);
  });
}

const blankToNull = (text: string | null | undefined) => (text?.trim() ? text.trim() : null);

/** Adds a range in its canonical form. */
export async function addIpRange(
  deps: AppDeps,
  input: { ipRange?: unknown; description?: string | null },
  actor: Actor,
): Promise<IpRangeResult> {
  const checked = checkIpRange(input.ipRange);
  if (!checked.ok) return checked;
  const ipRange = formatIpRange(checked.range);
  return await deps.sql.begin(async (tx): Promise<IpRangeResult> => {
    const existing = await sameAs(tx, checked.range);
    if (existing) return duplicate(existing.ipRange);
    const inserted = await insert_ip_range(tx, {
      ipRange,
      description: blankToNull(input.description),
      createdBy: actor.userId,
    });
    if (!inserted.ok) return duplicate(ipRange);
    const { row } = inserted;
    await insert_audit_event(tx, {
      userId: actor.userId,
      eventType: 'ip_range_created',
      resourceType: 'ip_range',
      resourceId: row.id,
      ipAddress: actor.ipAddress,
      eventData: { ipRange: row.ipRange, description: row.description, input: input.ipRange },
    });
    return { ok: true, row, kind: 'added' };
  });
}

/** A PUT body: the whole range (an edit) or `{ isActive }` alone (a toggle). */
export interface IpRangeChange {
  /** Checked here, not by the route's schema: blank and malformed have different messages. */
  ipRange?: unknown;
  description?: string | null;
  isActive?: boolean;
}

/** True for `{ isActive }` alone: the Activate/Deactivate action, which answers with its own message. */
export const isToggle = (change: IpRangeChange) =>
  change.isActive !== undefined && change.ipRange === undefined && change.description === undefined;

/** Edits a range (an edit keeps isActive unless it names it) or toggles it. */
export async function changeIpRange(
  deps: AppDeps,
  id: string,
  options: { change: IpRangeChange; actor: Actor },
): Promise<IpRangeResult> {
  const { change, actor } = options;
  const toggle = isToggle(change);
  const checked = toggle ? undefined : checkIpRange(change.ipRange);
  if (checked && !checked.ok) return checked;
  return await deps.sql.begin(async (tx): Promise<IpRangeResult> => {
    const before = await find_ip_range_for_update(tx, id);
    if (!before) return fail('ip_range_not_found');
    let ipRange = before.ipRange;
    if (checked?.ok) {
      const existing = await sameAs(tx, checked.range, id);
      if (existing) return duplicate(existing.ipRange);
      ipRange = formatIpRange(checked.range);
    }
    const after = {
      ipRange,
      description: change.description === undefined ? before.description : blankToNull(change.description),
      isActive: change.isActive ?? before.isActive,
    };
    const updated = await update_ip_range(tx, id, after);
    if (!updated.ok) return duplicate(ipRange);
    await insert_audit_event(tx, {
      userId: actor.userId,
      eventType: 'ip_range_updated',
      resourceType: 'ip_range',
      resourceId: id,
      ipAddress: actor.ipAddress,
      eventData: {
        before: { ipRange: before.ipRange, description: before.description, isActive: before.isActive },
        after,
      },
    });
    const kind = toggle ? (after.isActive ? 'activated' : 'deactivated') : 'updated';
    return { ok: true, row: updated.row, kind };
  });
}

/** Deletes a range. */
export async function removeIpRange(
  deps: AppDeps,
  id: string,
  actor: Actor,
): Promise<Outcome> {
  return await deps.sql.begin(async (tx): Promise<Outcome> => {
    const before = await find_ip_range_for_update(tx, id);
    if (!before || !(await delete_ip_range(tx, id))) return fail('ip_range_not_found');
    await insert_audit_event(tx, {
      userId: actor.userId,
      eventType: 'ip_range_deleted',
      resourceType: 'ip_range',
      resourceId: id,
      ipAddress: actor.ipAddress,
      eventData: { ipRange: before.ipRange, description: before.description, isActive: before.isActive },
    });
    return { ok: true };
  });
}

/**
 * Whether an offender may connect from `address`: yes when no range is active, otherwise only from inside
 * one. One read of a table of a few rows per call and no cache, so adding or deactivating a range applies to the next
 * request.
 */
export async function offenderAddressAllowed(sql: Tx, address: string): Promise<boolean> {
  return whitelistAllows(await list_active_ip_ranges(sql), address);
}

/**
 * Refuses an offender's call from outside every active range, and records the attempt: a live offender
 * session used from outside the facility is worth an admin's attention. Staff are never restricted by it.
 * The role guard asks it once the session is known; sign-in asks offenderAddressAllowed itself.
 */
export async function checkOffenderNetwork(
  deps: Pick<AppDeps, 'sql'>,
  session: ActiveSession,
  request: { ipAddress: string; method: string; path: string },
): Promise<Outcome> {
  if (session.role !== 'offender') return { ok: true };
  if (await offenderAddressAllowed(deps.sql, request.ipAddress)) return { ok: true };
  await insert_audit_event(deps.sql, {
    userId: session.id,
    eventType: 'request_blocked_ip',
    resourceType: 'session',
    resourceId: session.session_id,
    ipAddress: request.ipAddress,
    eventData: { method: request.method, path: request.path },
  });
  return fail('ip_not_allowed');
}
