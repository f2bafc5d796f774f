/** What backup and restore ask of the database: whether it is empty, and which blobs its documents need. */
import type { Tx } from './client.ts';

/** Tables in the public schema: 0 for a database fit to restore into. */
export async function count_public_tables(sql: Tx): Promise<number> {
  const [{ n }] = await sql<
    { n: number }[]
  >`select count(*)::int as n from pg_tables where schemaname = 'public'`;
  return n;
}

/** Every digest some document refers to (the blobs a backup must hold). */
export async function list_document_blobs(sql: Tx): Promise<string[]> {
  const rows = await sql<{ sha256: string }[]>`select distinct sha256 from documents order by sha256`;
  return rows.map((r) => r.sha256);
}
