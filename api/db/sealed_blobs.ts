/**
 * The sealed blobs (migration 0043): which stored blob holds the sealed bytes of a digest, and its data key
 * wrapped under BLOB_KEY (api/blobs/sealed_store.ts).
 */
import type { Tx } from './client.ts';

export interface SealedBlobRow {
  sha256: string;
  name: string;
  size: number;
  stored_size: number;
  key_id: string;
  wrapped_key: Uint8Array;
}

const COLUMNS = 'sha256, name, size::float8 as size, stored_size::float8 as stored_size, key_id, wrapped_key';

/** The sealed blob of a digest, or undefined when its bytes are stored in plaintext (or not at all). */
export async function find_sealed_blob(sql: Tx, sha256: string): Promise<SealedBlobRow | undefined> {
  const [row] = await sql<SealedBlobRow[]>`select ${
    sql.unsafe(COLUMNS)
  } from sealed_blobs where sha256 = ${sha256}`;
  return row;
}

/** Any one sealed blob (the start's check that BLOB_KEY is the key the data was sealed under). */
export async function find_any_sealed_blob(sql: Tx): Promise<SealedBlobRow | undefined> {
  const [row] = await sql<SealedBlobRow[]>`select ${sql.unsafe(COLUMNS)} from sealed_blobs limit 1`;
  return row;
}

/**
 * Records the sealed blob of a digest. A digest already sealed (the same bytes uploaded again) now points at the
 * new blob: the old one is named by no row and the blob collection removes it after its grace period.
 */
export async function upsert_sealed_blob(sql: Tx, row: SealedBlobRow): Promise<void> {
  await sql`insert into sealed_blobs (sha256, name, size, stored_size, key_id, wrapped_key)
    values (${row.sha256}, ${row.name}, ${row.size}, ${row.stored_size}, ${row.key_id}, ${row.wrapped_key})
    on conflict (sha256) do update set name = excluded.name, size = excluded.size,
      stored_size = excluded.stored_size, key_id = excluded.key_id, wrapped_key = excluded.wrapped_key,
      created_at = now()`;
}

/** Records the sealed blob of a digest unless it has one already (the encryption of a plaintext installation). */
export async function insert_sealed_blob(sql: Tx, row: SealedBlobRow): Promise<boolean> {
  const rows = await sql`insert into sealed_blobs (sha256, name, size, stored_size, key_id, wrapped_key)
    values (${row.sha256}, ${row.name}, ${row.size}, ${row.stored_size}, ${row.key_id}, ${row.wrapped_key})
    on conflict (sha256) do nothing returning 1`;
  return rows.length === 1;
}

/** The digests of the given stored names (names no row maps are plaintext blobs or orphans). */
export async function digests_of_sealed_names(sql: Tx, names: string[]): Promise<Map<string, string>> {
  if (names.length === 0) return new Map();
  const rows = await sql<{ sha256: string; name: string }[]>`
    select sha256, name from sealed_blobs where name = any(${names})`;
  return new Map(rows.map((r) => [r.name, r.sha256]));
}

/** Forgets the sealed blob of a digest, only while it is still `name` (a re-upload may have replaced it). */
export async function delete_sealed_blob(sql: Tx, sha256: string, name: string): Promise<void> {
  await sql`delete from sealed_blobs where sha256 = ${sha256} and name = ${name}`;
}

/** Every sealed blob's wrapped key, locked until the transaction ends (BLOB_KEY's rotation). */
export function lock_wrapped_keys(
  sql: Tx,
): Promise<{ sha256: string; name: string; key_id: string; wrapped_key: Uint8Array }[]> {
  return sql`select sha256, name, key_id, wrapped_key from sealed_blobs order by sha256 for update`;
}

/** Replaces one blob's wrapped key (BLOB_KEY's rotation: the blob itself is not touched). */
export async function update_wrapped_key(
  sql: Tx,
  sha256: string,
  wrapped: { keyId: string; key: Uint8Array },
): Promise<void> {
  await sql`update sealed_blobs set key_id = ${wrapped.keyId}, wrapped_key = ${wrapped.key} where sha256 = ${sha256}`;
}

/** Up to `limit` digests live documents name whose bytes are not sealed yet, after `after` (`blobs:encrypt`). */
export function list_plaintext_digests(
  sql: Tx,
  options: { after: string; limit: number },
): Promise<{ sha256: string; size: number }[]> {
  return sql<{ sha256: string; size: number }[]>`
    select d.sha256, max(d.size)::float8 as size from documents d
    where d.sha256 > ${options.after} and d.deleted_at is null and d.withdrawn_at is null
      and not exists (select 1 from sealed_blobs b where b.sha256 = d.sha256)
    group by d.sha256 order by d.sha256 limit ${options.limit}`;
}

/** How many sealed blobs there are, and how many digests documents name that are not (the doctor). */
export async function count_sealed_blobs(sql: Tx): Promise<{ sealed: number; plaintext: number }> {
  const [row] = await sql<{ sealed: number; plaintext: number }[]>`
    select (select count(*)::int from sealed_blobs) as sealed,
           (select count(distinct d.sha256)::int from documents d
            where d.deleted_at is null and d.withdrawn_at is null
              and not exists (select 1 from sealed_blobs b where b.sha256 = d.sha256)) as plaintext`;
  return row;
}

/** Up to `limit` sealed digests after `after`, in order (`blobs:encrypt`'s look for plaintext left behind). */
export async function list_sealed_digests(
  sql: Tx,
  options: { after: string; limit: number },
): Promise<string[]> {
  const rows = await sql<{ sha256: string }[]>`
    select sha256 from sealed_blobs where sha256 > ${options.after} order by sha256 limit ${options.limit}`;
  return rows.map((r) => r.sha256);
}
