/**
 * The IP whitelist: adding, changing and removing an entity's ranges (each audited in its own transaction;
 * an admin reaches only their own entity's), and the question every offender sign-in and call asks, read fresh
 * from the database so a change applies at once. The pure parser is contract/rules/ip_ranges.ts, the SQL
 * api/db/ip_whitelist.ts.
 */
import type { AppDeps } from '../deps.ts';
import { auditedPath, insert_audit_event } from '../db/audit.ts';
import type { Tx } from '../db/client.ts';
import type { ActiveSession, SessionWhitelist } from '../db/sessions.ts';
import {
  delete_ip_range,
  find_entity_whitelist,
  find_ip_range_for_update,
  insert_ip_range,
  type IpRangeRow,
  list_ip_ranges,
  mark_ip_ranges_configured,
  update_ip_range,
} from '../db/ip_whitelist.ts';
import { lock_entity } from '../db/entities.ts';
import { get_setting } from '../db/settings.ts';
import {
  formatIpRange,
  inActiveRanges,
  type IpRange,
  parseIpRange,
  sameAddresses,
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

/** Another range of the entity that covers the same addresses ('10.*' and '10.0.0.0/8'), if any. */
async function sameAs(
  tx: Tx,
  entityId: string,
  options: { range: IpRange; exceptId?: string },
): Promise<IpRangeRow | undefined> {
  const { range, exceptId } = options;
  const rows = await list_ip_ranges(tx, entityId);
  return rows.find((row) => {
    if (row.id === exceptId) return false;
    const other = parseIpRange(row.ipRange);
    return other !== undefined && sameAddresses(other, range);
  });
}

const blankToNull = (text: string | null | undefined) => (text?.trim() ? text.trim() : null);

/**
 * Adds a range in its canonical form to the actor's entity, and records that the entity has had a range (from
 * then on an empty active list follows the ip_whitelist_when_empty setting).
 */
export async function addIpRange(
  deps: AppDeps,
  input: { ipRange?: unknown; description?: string | null },
  actor: Actor,
): Promise<IpRangeResult> {
  const checked = checkIpRange(input.ipRange);
  if (!checked.ok) return checked;
  const ipRange = formatIpRange(checked.range);
  return await deps.sql.begin(async (tx): Promise<IpRangeResult> => {
    // One change of the entity's ranges at a time: two spellings of one range ('10.*', '10.0.0.0/8') sent at once
    // each would find no match and both be stored; the unique index knows only the canonical text.
    await lock_entity(tx, actor.entityId);
    const existing = await sameAs(tx, actor.entityId, { range: checked.range });
    if (existing) return duplicate(existing.ipRange);
    const inserted = await insert_ip_range(tx, {
      entityId: actor.entityId,
      ipRange,
      description: blankToNull(input.description),
      createdBy: actor.userId,
    });
    if (!inserted.ok) return duplicate(ipRange);
    await mark_ip_ranges_configured(tx, actor.entityId);
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

/**
 * Edits one of the actor's entity's ranges (an edit keeps isActive unless it names it) or toggles it; another
 * entity's range is not found.
 */
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
    await lock_entity(tx, actor.entityId); // as addIpRange
    const before = await find_ip_range_for_update(tx, actor.entityId, id);
    if (!before) return fail('ip_range_not_found');
    let ipRange = before.ipRange;
    if (checked?.ok) {
      const existing = await sameAs(tx, actor.entityId, { range: checked.range, exceptId: id });
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

/** Deletes one of the actor's entity's ranges; another entity's range is not found. */
export async function removeIpRange(
  deps: AppDeps,
  id: string,
  actor: Actor,
): Promise<Outcome> {
  return await deps.sql.begin(async (tx): Promise<Outcome> => {
    const before = await find_ip_range_for_update(tx, actor.entityId, id);
    if (!before || !(await delete_ip_range(tx, actor.entityId, id))) return fail('ip_range_not_found');
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

/** What an empty active list means for an entity, and why: the admin's screen says it in words. */
export interface WhitelistPolicy {
  /** Whether a range was ever added to the entity (never cleared, so deleting every range keeps it). */
  configured: boolean;
  /** The ip_whitelist_when_empty setting. */
  whenEmpty: 'allow' | 'deny';
  activeRanges: string[];
  /**
   * What applies now: 'ranges' (only from inside an active range), 'open' (no active range, any address), or
   * 'closed' (no active range, every address refused).
   */
  effect: 'ranges' | 'open' | 'closed';
}

/** The setting's value; anything else stored (it cannot be, the rule refuses it) reads as the safe 'deny'. */
async function whenEmptySetting(sql: Tx): Promise<'allow' | 'deny'> {
  return (await get_setting(sql, 'ip_whitelist_when_empty')) === 'allow' ? 'allow' : 'deny';
}

/**
 * The entity's whitelist policy. While the entity has never had a range, its offenders connect from anywhere
 * (a fresh install and the demo work); once it has had one, an empty active list refuses every address unless
 * the department set ip_whitelist_when_empty to 'allow'.
 */
export async function whitelistPolicy(sql: Tx, entityId: string): Promise<WhitelistPolicy> {
  const { configured, activeRanges } = await find_entity_whitelist(sql, entityId);
  const whenEmpty = await whenEmptySetting(sql);
  const effect = activeRanges.length > 0
    ? 'ranges'
    : !configured || whenEmpty === 'allow'
    ? 'open'
    : 'closed';
  return { configured, whenEmpty, activeRanges, effect };
}

/**
 * Whether an offender of `entityId` may connect from `ipAddress`: only from inside one of the entity's active
 * ranges, or per the empty-list policy when it has none (whitelistPolicy). Other entities' ranges do not count.
 * Read fresh on every call, no cache, so adding or deactivating a range applies to the next request.
 */
export async function offenderAddressAllowed(sql: Tx, entityId: string, ipAddress: string): Promise<boolean> {
  const { configured, activeRanges } = await find_entity_whitelist(sql, entityId);
  if (activeRanges.length > 0) return inActiveRanges(activeRanges, ipAddress);
  // The setting is read only for an empty list: the common case costs one query.
  return !configured || (await whenEmptySetting(sql)) === 'allow';
}

/** offenderAddressAllowed's rule on a whitelist already read (the session check's SessionWhitelist). */
function whitelistAdmits(whitelist: SessionWhitelist, ipAddress: string): boolean {
  if (whitelist.activeRanges.length > 0) return inActiveRanges(whitelist.activeRanges, ipAddress);
  return !whitelist.configured || whitelist.whenEmpty === 'allow';
}

/**
 * Whether `ipAddress` lies inside an active range of `entityId`: one of that entity's facility NAT addresses,
 * which many of its offenders share, so the sign-in throttle slows each username there rather than the address.
 * Only the entity's own ranges count: another entity's whitelist lifts nothing for it.
 */
export async function addressInEntityRanges(sql: Tx, entityId: string, ipAddress: string): Promise<boolean> {
  const { activeRanges } = await find_entity_whitelist(sql, entityId);
  return inActiveRanges(activeRanges, ipAddress);
}

/**
 * Whether the entity has an active range at all: without one, no address is the facility's network, so a
 * one-time PIN from a reset could open no session (api/domain/pin_reset.ts) and a reset is refused up front.
 */
export async function entityHasFacilityNetwork(sql: Tx, entityId: string): Promise<boolean> {
  const { activeRanges } = await find_entity_whitelist(sql, entityId);
  return activeRanges.length > 0;
}

/**
 * Refuses an offender's call from an address their entity's whitelist does not admit, and records the attempt: a live offender
 * session used from outside the facility is worth an admin's attention. Staff are never restricted by it.
 * The role guard asks it once the session is known; sign-in asks offenderAddressAllowed itself.
 */
export async function checkOffenderNetwork(
  deps: Pick<AppDeps, 'sql'>,
  session: ActiveSession,
  request: { ipAddress: string; method: string; path: string },
): Promise<Outcome> {
  if (session.role !== 'offender') return { ok: true };
  // The guard's session check read the whitelist in its own statement (api/db/sessions.ts): no second query.
  const allowed = session.whitelist
    ? whitelistAdmits(session.whitelist, request.ipAddress)
    : await offenderAddressAllowed(deps.sql, session.entity_id, request.ipAddress);
  if (allowed) return { ok: true };
  await insert_audit_event(deps.sql, {
    userId: session.id,
    eventType: 'request_blocked_ip',
    resourceType: 'session',
    resourceId: session.session_id,
    ipAddress: request.ipAddress,
    eventData: { method: request.method, path: auditedPath(request.path) },
  });
  return fail('ip_not_allowed');
}
