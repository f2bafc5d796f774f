/**
 * The IP whitelist's SQL: the ranges each entity's offenders may connect from (canonical forms,
 * contract/rules/ip_ranges.ts). Every function that reads or changes one entity's ranges takes its id, so a range
 * of another entity is never found (the route answers 404).
 */
import type postgres from 'postgres';
import type { Tx } from './client.ts';

/** Inside a transaction only: the update needs a savepoint. */
type InTransaction = postgres.TransactionSql<Record<string, never>>;

/** A range as the API shows it. */
export interface IpRangeRow {
  id: string;
  ipRange: string;
  description: string | null;
  isActive: boolean;
  createdAt: Date;
}

const COLUMNS = (sql: Tx) =>
  sql`id, ip_range as "ipRange", description, is_active as "isActive", created_at as "createdAt"`;

/** The entity's ranges, oldest first (the order an admin added them). */
export function list_ip_ranges(sql: Tx, entityId: string): Promise<IpRangeRow[]> {
  return sql<IpRangeRow[]>`
    select ${COLUMNS(sql)} from ip_ranges where entity_id = ${entityId} order by created_at, id`;
}

/** What the whitelist decision needs about one entity: whether it ever had a range, and its active ranges. */
export interface EntityWhitelist {
  /** True once a range was ever added to the entity, even if every range has since been deleted. */
  configured: boolean;
  activeRanges: string[];
}

/** One entity's whitelist state in one read: asked on every offender request, so a change applies at once. */
export async function find_entity_whitelist(sql: Tx, entityId: string): Promise<EntityWhitelist> {
  const [row] = await sql<{ configured: boolean; active_ranges: string[] }[]>`
    select e.ip_ranges_configured_at is not null as configured,
           coalesce(array_agg(r.ip_range order by r.ip_range) filter (where r.id is not null), '{}') as active_ranges
    from entities e left join ip_ranges r on r.entity_id = e.id and r.is_active
    where e.id = ${entityId}
    group by e.id`;
  return { configured: row?.configured ?? false, activeRanges: row?.active_ranges ?? [] };
}

/** One of the entity's ranges, locked for the rest of the transaction (an update or a delete follows). */
export async function find_ip_range_for_update(
  sql: Tx,
  entityId: string,
  id: string,
): Promise<IpRangeRow | undefined> {
  const [row] = await sql<IpRangeRow[]>`
    select ${COLUMNS(sql)} from ip_ranges where id = ${id} and entity_id = ${entityId} for update`;
  return row;
}

export type IpRangeWrite = { ok: true; row: IpRangeRow } | { ok: false; reason: 'duplicate' };

/** Adds a range to an entity; a range the entity already lists (same canonical text) is a value, not an exception. */
export async function insert_ip_range(
  sql: Tx,
  range: { entityId: string; ipRange: string; description: string | null; createdBy: string },
): Promise<IpRangeWrite> {
  const [row] = await sql<IpRangeRow[]>`
    insert into ip_ranges (entity_id, ip_range, description, created_by)
    values (${range.entityId}, ${range.ipRange}, ${range.description}, ${range.createdBy})
    on conflict (entity_id, ip_range) do nothing
    returning ${COLUMNS(sql)}`;
  return row ? { ok: true, row } : { ok: false, reason: 'duplicate' };
}

/**
 * Records, once, that the entity has had a range: the empty-list policy depends on it, and it is never cleared,
 * so deleting every range does not reopen the gate.
 */
export async function mark_ip_ranges_configured(sql: Tx, entityId: string): Promise<void> {
  await sql`
    update entities set ip_ranges_configured_at = now()
    where id = ${entityId} and ip_ranges_configured_at is null`;
}

/** Postgres' unique_violation. */
const UNIQUE_VIOLATION = '23505';

/**
 * Changes a range (the caller has locked it, which checked its entity). A new text that another range of the
 * entity already has is a value; the savepoint keeps the caller's transaction usable after the refused statement.
 */
export async function update_ip_range(
  tx: InTransaction,
  id: string,
  change: { ipRange: string; description: string | null; isActive: boolean },
): Promise<IpRangeWrite> {
  const write = (sp: Tx) =>
    sp<IpRangeRow[]>`
      update ip_ranges
      set ip_range = ${change.ipRange}, description = ${change.description}, is_active = ${change.isActive},
          updated_at = now()
      where id = ${id}
      returning ${COLUMNS(sp)}`;
  try {
    const [row] = await tx.savepoint((sp) => write(sp));
    if (!row) throw new Error(`update_ip_range: no range ${id}; lock it with find_ip_range_for_update first`);
    return { ok: true, row };
  } catch (error) {
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) return { ok: false, reason: 'duplicate' };
    throw error;
  }
}

/** Removes one of the entity's ranges; returns whether it existed. */
export async function delete_ip_range(sql: Tx, entityId: string, id: string): Promise<boolean> {
  const rows = await sql`delete from ip_ranges where id = ${id} and entity_id = ${entityId} returning id`;
  return rows.length > 0;
}
