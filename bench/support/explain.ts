/**
 * EXPLAIN of the API's own SQL, for bench/latency.ts: a data function from api/db runs once on a connection
 * whose postgres.js `debug` hook records the statement it sends, and that exact text and those parameters are
 * then run under `EXPLAIN (ANALYZE, BUFFERS, TIMING OFF)`. No copy of a query can drift from what the API runs.
 * TIMING OFF: timing every node of a 100,000-row plan multiplied its execution time by up to 7 here (the admin's
 * user list: 503 ms with per-node timing, 66 ms without), which would point at the wrong query.
 */
import postgres from 'postgres';
import type { Sql } from '../../api/db/client.ts';

export interface Plan {
  /** Execution time as EXPLAIN ANALYZE reports it (ms). */
  executionMs: number;
  /** The plan's nodes that read a table or an index, e.g. "Index Scan using documents_recipient_idx on documents". */
  scans: string[];
  /** Sequential scans of a table (a missing index, unless the table is tiny). */
  seqScans: string[];
  lines: string[];
}

/**
 * Runs `call` (one api/db function, or a few) on its own connection and explains the last statement it sent.
 * Only for reads: the statement really runs (ANALYZE), inside a transaction that is rolled back.
 */
export async function explainLast(url: string, call: (sql: Sql) => Promise<unknown>): Promise<Plan> {
  let last: { query: string; parameters: unknown[] } | undefined;
  const sql = postgres(url, {
    max: 1,
    onnotice: () => {},
    debug: (_connection, query, parameters) => {
      if (!query.startsWith('explain')) last = { query, parameters: parameters as unknown[] };
    },
  });
  try {
    await call(sql as unknown as Sql);
    if (!last) throw new Error('the call sent no statement');
    const statement = last;
    let rows: { 'QUERY PLAN': string }[] = [];
    await sql.begin(async (tx) => {
      rows = await tx.unsafe(
        `explain (analyze, buffers, timing off, costs off) ${statement.query}`,
        statement.parameters as postgres.ParameterOrJSON<never>[],
      );
      throw new Rollback();
    }).catch((error) => {
      if (!(error instanceof Rollback)) throw error;
    });
    const lines = rows.map((r) => r['QUERY PLAN']);
    const scans = lines.map((l) =>
      /(?:->\s+)?((?:Parallel )?(?:Seq|Index Only|Index|Bitmap Heap|Bitmap Index) Scan.*?)(?:\s+\(actual|$)/
        .exec(l)?.[1]
    )
      .filter((s): s is string => !!s);
    return {
      executionMs: Number(/Execution Time: ([\d.]+) ms/.exec(lines.join('\n'))?.[1] ?? NaN),
      scans,
      seqScans: scans.filter((s) => s.includes('Seq Scan')),
      lines,
    };
  } finally {
    await sql.end({ timeout: 5 });
  }
}

class Rollback extends Error {}
