/** The IP whitelist's SQL: the ranges offenders may connect from (canonical forms, contract/rules/ip_ranges.ts). */
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

/** Every range, oldest first (the order an admin added them). */
export function list_ip_ranges(sql: Tx): Promise<IpRangeRow[]> {
  return sql<IpRangeRow[]>`select ${COLUMNS(sql)} from ip_ranges order by created_at, id`;
}

/** The active ranges' texts: read on every offender request, so a change applies at once. */
export async function list_active_ip_ranges(sql: Tx): Promise<string[]> {
  const rows = await sql<{ ip_range: string }[]>`select ip_range from ip_ranges where is_active`;
  return rows.map((r) => r.ip_range);
}

/** One range, locked for the rest of the transaction (an update or a delete follows). */
export async function find_ip_range_for_update(sql: Tx, id: string): Promise<IpRangeRow | undefined> {
  const [row] = await sql<IpRangeRow[]>`select ${COLUMNS(sql)} from ip_ranges where id = ${id} for update`;
  return row;
}

export type IpRangeWrite = { ok: true; row: IpRangeRow } | { ok: false; reason: 'duplicate' };

/** Adds a range; a range already listed (same canonical text) is a value, not an exception. */
export async function insert_ip_range(
  sql: Tx,
  range: { ipRange: string; description: string | null; createdBy: string },
): Promise<IpRangeWrite> {
  const [row] = await sql<IpRangeRow[]>`
    insert into ip_ranges (ip_range, description, created_by)
    values (${range.ipRange}, ${range.description}, ${range.createdBy})
    on conflict (ip_range) do nothing
    returning ${COLUMNS(sql)}`;
  return row ? { ok: true, row } : { ok: false, reason: 'duplicate' };
}

/** Postgres' unique_violation. */
const UNIQUE_VIOLATION = '23505';

/**
 * Changes a range (the caller has locked it). A new text that another range already has is a value; the
 * savepoint keeps the caller's transaction usable after the refused statement.
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

/** Removes a range; returns whether it existed. */
export async function delete_ip_range(sql: Tx, id: string): Promise<boolean> {
  const rows = await sql`delete from ip_ranges where id = ${id} returning id`;
  return rows.length > 0;
}
