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
 * The stored name of every blob a live document refers to (the blobs a backup must hold): a sealed blob's name
 * (sealed_blobs), or the digest itself for a plaintext blob from before. A tombstone or a withdrawn document keeps
 * its digest but not its bytes: the blob collection removes them (referenced_blobs in documents.ts).
 */
export async function list_document_blobs(sql: Tx): Promise<string[]> {
  return (await list_document_blob_sizes(sql)).map((r) => r.sha256);
}

/** The same names with their stored sizes (what an object store must hold for a backup to be whole). */
export async function list_document_blob_sizes(sql: Tx): Promise<{ sha256: string; size: number }[]> {
  const rows = await sql<{ sha256: string; size: string }[]>`
    select coalesce(b.name, d.sha256) as sha256, max(coalesce(b.stored_size, d.size))::text as size
    from documents d left join sealed_blobs b on b.sha256 = d.sha256
    where d.deleted_at is null and d.withdrawn_at is null
    group by 1 order by 1`;
  return rows.map((r) => ({ sha256: r.sha256, size: Number(r.size) }));
}
