/**
 * What the operator's metrics read about the database itself: a round trip through the pool (which includes any
 * wait for a free connection) and the database's connections by state. postgres.js does not expose its pool's
 * counts, so the server's own view (pg_stat_activity) stands in for them.
 */
import type { Sql } from './client.ts';

/** Seconds one `select 1` takes through `sql`'s pool, waiting for a connection included. */
export async function ping_database(sql: Sql): Promise<number> {
  const started = performance.now();
  await sql`select 1`;
  return (performance.now() - started) / 1000;
}

/**
 * This database's connections by state (active, idle, idle in transaction…), every instance's and tool's
 * together; empty where the server keeps no such view.
 */
export async function count_connections_by_state(sql: Sql): Promise<{ state: string; n: number }[]> {
  return await sql<{ state: string; n: number }[]>`
    select coalesce(state, 'unknown') as state, count(*)::int as n from pg_stat_activity
    where datname = current_database() and backend_type = 'client backend'
    group by 1`;
}
