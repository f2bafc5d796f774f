/**
 * Reading the audit log: filtered pages for the admin screen and batches for the CSV export.
 * Pages use keyset pagination on (created_at, id), newest first, so a page costs the same at any depth
 * and rows appended while an admin pages never shift or repeat entries.
 */
import type postgres from 'postgres';
import type { Tx } from './client.ts';

/**
 * Whose rows an admin reads: those of their own entity's users, and, for the department's administrators, the rows
 * no user is named on (sign-ins refused before an account was found, registrations, the command line).
 */
export interface AuditScope {
  entityId: string;
  unattributed: boolean;
}

export interface AuditFilter {
  /** Always set: no admin reads another entity's rows. */
  scope: AuditScope;
  /** Inclusive lower bound. */
  from?: Date;
  /** Exclusive upper bound. */
  before?: Date;
  eventType?: string;
  userId?: string;
}

export interface AuditLogRow {
  id: string;
  created_at: Date;
  user_id: string | null;
  user_name: string | null;
  event_type: string;
  resource_type: string;
  resource_id: string | null;
  ip_address: string | null;
  event_data: Record<string, unknown>;
}

/**
 * The where-clause of a page: the filter's conditions on `audit_logs a`, and the keyset cursor. The cursor
 * names a row; comparing with that row's own (created_at, id) keeps the timestamp's full microsecond
 * precision, which a JavaScript Date would lose.
 */
function matching(sql: Tx, filter: AuditFilter, afterId: string | undefined) {
  const { entityId, unattributed } = filter.scope;
  return sql`(a.user_id in (select s.id from users s where s.entity_id = ${entityId})
      ${unattributed ? sql`or a.user_id is null` : sql``})
    ${filter.from ? sql`and a.created_at >= ${filter.from}` : sql``}
    ${filter.before ? sql`and a.created_at < ${filter.before}` : sql``}
    ${filter.eventType ? sql`and a.event_type = ${filter.eventType}` : sql``}
    ${filter.userId ? sql`and a.user_id = ${filter.userId}` : sql``}
    ${
    afterId
      ? sql`and (a.created_at, a.id) < (select c.created_at, c.id from audit_logs c where c.id = ${afterId})`
      : sql``
  }`;
}

/**
 * One page of events matching `filter`, newest first, strictly after the row `afterId` (the last row of the
 * previous page). Ids are bigints, returned as strings so they survive JSON.
 */
export function list_audit_logs(
  sql: Tx,
  filter: AuditFilter,
  page: { afterId?: string; limit: number },
): Promise<AuditLogRow[]> {
  return sql<AuditLogRow[]>`
    select a.id::text as id, a.created_at, a.user_id, a.event_type, a.resource_type, a.resource_id, a.ip_address,
           a.event_data, nullif(btrim(concat_ws(' ', u.first_name, u.last_name)), '') as user_name
    from audit_logs a
    left join users u on u.id = a.user_id
    where ${matching(sql, filter, page.afterId)}
    order by a.created_at desc, a.id desc
    limit ${page.limit}`;
}

/**
 * The distinct event types in the whole log, for the filter list, in order, as rows of one column `t`. A recursive
 * "skip scan" over the (event_type, created_at) index reads one index entry per type instead of every row.
 */
function eventTypes(sql: Tx) {
  return sql`
    with recursive types (t) as (
      (select event_type from audit_logs order by event_type limit 1)
      union all
      select (select a.event_type from audit_logs a where a.event_type > types.t order by a.event_type limit 1)
      from types where types.t is not null
    )
    select t from types where t is not null`;
}

/** The distinct event types in the whole log, for the filter list. */
export async function list_audit_event_types(sql: Tx): Promise<string[]> {
  const rows = await sql<{ t: string }[]>`${eventTypes(sql)}`;
  return rows.map((r) => r.t);
}

/**
 * list_audit_event_types as one JSON array, for the guard's session check to carry (api/http/guard.ts `alongside`):
 * an audit page then costs the database one round trip fewer.
 */
export function audit_event_types_json(sql: Tx): postgres.Fragment {
  return sql`(select coalesce(json_agg(x.t order by x.t), '[]'::json) from (${eventTypes(sql)}) x)`;
}

/** A row of the CSV export, every column already text (no JSON parse and re-stringify per row). */
export interface AuditExportRow {
  id: string;
  created_at: string;
  user_id: string | null;
  event_type: string;
  resource_type: string;
  ip_address: string | null;
  event_data: string;
}

/** One export batch: like list_audit_logs, but the columns of the CSV only, as text, timestamps in UTC ISO form. */
export function list_audit_export_batch(
  sql: Tx,
  filter: AuditFilter,
  page: { afterId?: string; limit: number },
): Promise<AuditExportRow[]> {
  return sql<AuditExportRow[]>`
    select a.id::text as id,
           to_char(a.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
           a.user_id::text as user_id, a.event_type, a.resource_type, a.ip_address, a.event_data::text as event_data
    from audit_logs a
    where ${matching(sql, filter, page.afterId)}
    order by a.created_at desc, a.id desc
    limit ${page.limit}`;
}

/** When the table's oldest audit row was written, whoever it names; null for an empty table. */
export async function oldest_audit_log_time(sql: Tx): Promise<Date | null> {
  const [row] = await sql<{ created_at: Date }[]>`
    select a.created_at from audit_logs a order by a.created_at, a.id limit 1`;
  return row?.created_at ?? null;
}

/** Which of `userIds` are users of the entity: an archived row is in an admin's scope as a table row is. */
export async function list_entity_user_ids(
  sql: Tx,
  entityId: string,
  userIds: string[],
): Promise<Set<string>> {
  if (!userIds.length) return new Set();
  const rows = await sql<{ id: string }[]>`
    select u.id::text as id from users u where u.entity_id = ${entityId} and u.id::text = any(${userIds}::text[])`;
  return new Set(rows.map((r) => r.id));
}
