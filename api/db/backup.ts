/** What backup and restore ask of the database: whether it is empty, and which blobs its documents need. */
import type { Tx } from './client.ts';

/** Tables in the public schema: 0 for a database fit to restore into. */
export async function count_public_tables(sql: Tx): Promise<number> {
  const [{ n }] = await sql<
    { n: number }[]
  >`select count(*)::int as n from pg_tables where schemaname = 'public'`;
  return n;
}

/**
 * Every digest a live document refers to (the blobs a backup must hold). A tombstone or a withdrawn document keeps
 * its digest but not its bytes: the blob collection removes them (referenced_blobs in documents.ts).
 */
export async function list_document_blobs(sql: Tx): Promise<string[]> {
  const rows = await sql<{ sha256: string }[]>`
    select distinct sha256 from documents where deleted_at is null and withdrawn_at is null order by sha256`;
  return rows.map((r) => r.sha256);
}

/** The same digests with their sizes (what an object store must hold for a backup to be whole). */
export async function list_document_blob_sizes(sql: Tx): Promise<{ sha256: string; size: number }[]> {
  const rows = await sql<{ sha256: string; size: string }[]>`
    select sha256, max(size)::text as size from documents where deleted_at is null and withdrawn_at is null
    group by sha256 order by sha256`;
  return rows.map((r) => ({ sha256: r.sha256, size: Number(r.size) }));
}
