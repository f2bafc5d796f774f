/**
 * The IP whitelist's rules: adding, changing and removing ranges (each audited in its own transaction), and
 * the question every offender sign-in and call asks, read fresh from the database so a change applies at once.
 */
import type { AppDeps } from '../deps.ts';
import { insert_audit_event } from '../db/audit.ts';
import type { Tx } from '../db/client.ts';
import {
  delete_ip_range,
  find_ip_range_for_update,
  insert_ip_range,
  type IpRangeRow,
  list_active_ip_ranges,
  list_ip_ranges,
  update_ip_range,
} from '../db/ip_ranges.ts';
import {
  formatIpRange,
  type IpRange,
  parseIpRange,
  sameAddresses,
  whitelistAllows,
} from '../../contract/rules/ip_ranges.ts';
import type { Outcome } from './registration.ts';
import type { Actor } from './user_admin.ts';

/** docs/api.md and the spec's texts, verbatim. */
export const IP_RANGE_TEXTS = {
  required: 'IP range is required',
  invalid: 'Invalid IP range format',
  added: 'IP range added successfully',
  updated: 'IP range updated successfully',
  deleted: 'IP range deleted successfully',
  activated: 'IP range activated',
  deactivated: 'IP range deactivated',
  notFound: 'IP range not found.',
} as const;

export type IpRangeResult = Outcome<{ row: IpRangeRow; message: string }>;

/** Blank or missing is 'required'; anything the strict parser refuses is 'invalid'. */
export function checkIpRange(input: unknown): { ok: true; range: IpRange } | { ok: false; message: string } {
  if (input === undefined || input === null || (typeof input === 'string' && input.trim() === '')) {
    return { ok: false, message: IP_RANGE_TEXTS.required };
  }
  const range = typeof input === 'string' ? parseIpRange(input) : undefined;
  return range ? { ok: true, range } : { ok: false, message: IP_RANGE_TEXTS.invalid };
}

const duplicate = (existing: string) =>
  ({
    ok: false,
    status: 409,
    message: `This IP range is already in the whitelist (as ${existing}).`,
  }) as const;

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
  if (!checked.ok) return { ok: false, status: 400, message: checked.message };
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
    return { ok: true, row, message: IP_RANGE_TEXTS.added };
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
  if (checked && !checked.ok) return { ok: false, status: 400, message: checked.message };
  return await deps.sql.begin(async (tx): Promise<IpRangeResult> => {
    const before = await find_ip_range_for_update(tx, id);
    if (!before) return { ok: false, status: 404, message: IP_RANGE_TEXTS.notFound };
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
    const message = toggle
      ? (after.isActive ? IP_RANGE_TEXTS.activated : IP_RANGE_TEXTS.deactivated)
      : IP_RANGE_TEXTS.updated;
    return { ok: true, row: updated.row, message };
  });
}

/** Deletes a range. */
export async function removeIpRange(
  deps: AppDeps,
  id: string,
  actor: Actor,
): Promise<Outcome<{ message: string }>> {
  return await deps.sql.begin(async (tx) => {
    const before = await find_ip_range_for_update(tx, id);
    if (!before || !(await delete_ip_range(tx, id))) {
      return { ok: false, status: 404, message: IP_RANGE_TEXTS.notFound } as const;
    }
    await insert_audit_event(tx, {
      userId: actor.userId,
      eventType: 'ip_range_deleted',
      resourceType: 'ip_range',
      resourceId: id,
      ipAddress: actor.ipAddress,
      eventData: { ipRange: before.ipRange, description: before.description, isActive: before.isActive },
    });
    return { ok: true, message: IP_RANGE_TEXTS.deleted } as const;
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
