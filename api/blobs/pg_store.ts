/**
 * Blobs as fixed-size chunks in Postgres (tables blobs and blob_chunks, migration 0006),
 * for hosts without a durable disk. A put stages its chunks under a temporary key and
 * renames them to the SHA-256 in one transaction together with the `blobs` row, so a
 * blob is visible only when complete. Reads fetch a few chunks per query through binary
 * COPY, one query per pull: no connection is held while the client is slow.
 */
import type { Sql } from '../db/client.ts';
import { decodeCopyBinary } from './copy_binary.ts';
import { sha256Hasher } from './hashing.ts';
import type { ByteRange } from './range.ts';
import { type BlobListing, type BlobStore, SHA256_PATTERN, type StoredBlob } from './types.ts';

/** 256 KiB: large enough that per-row overhead is small, small enough to buffer per reader. */
export const CHUNK_SIZE = 256 * 1024;

export class PgBlobStore implements BlobStore {
  constructor(
    private readonly sql: Sql,
    /** `copySql`: where the COPY reads run (a pool of their own on a real server, api/db/client.ts). */
    private readonly options: { chunksPerRead: number; copySql: Sql },
  ) {}

  async put(stream: ReadableStream<Uint8Array>): Promise<StoredBlob> {
    const { sql } = this;
    const staging = `tmp:${crypto.randomUUID()}`;
    const hasher = sha256Hasher();
    let seq = 0;
    let pending: Uint8Array[] = [];
    let pendingSize = 0;
    const flush = async (final: boolean) => {
      while (pendingSize >= CHUNK_SIZE || (final && pendingSize > 0)) {
        const all = concat(pending, pendingSize);
        const chunk = all.subarray(0, Math.min(CHUNK_SIZE, all.length));
        await sql`insert into blob_chunks (sha256, seq, data) values (${staging}, ${seq++}, ${chunk})`;
        const rest = all.subarray(chunk.length);
        pending = rest.length ? [rest] : [];
        pendingSize = rest.length;
      }
    };
    try {
      for await (const chunk of stream) {
        hasher.update(chunk);
        pending.push(chunk);
        pendingSize += chunk.length;
        if (pendingSize >= CHUNK_SIZE) await flush(false);
      }
      await flush(true);
      const blob = hasher.digest();
      await sql.begin(async (tx) => {
        // An existing blob only has its age refreshed (the GC's grace period); ours is then dropped.
        const [row] = await tx<{ inserted: boolean }[]>`
          insert into blobs (sha256, size) values (${blob.sha256}, ${blob.size})
          on conflict (sha256) do update set created_at = now()
          returning (xmax = 0) as inserted`;
        if (row.inserted) await tx`update blob_chunks set sha256 = ${blob.sha256} where sha256 = ${staging}`;
        else await tx`delete from blob_chunks where sha256 = ${staging}`;
      });
      return blob;
    } catch (error) {
      await sql`delete from blob_chunks where sha256 = ${staging}`.catch(() => {});
      throw error;
    }
  }

  async open(sha256: string, range?: ByteRange): Promise<ReadableStream<Uint8Array> | undefined> {
    const stat = await this.stat(sha256);
    if (!stat) return undefined;
    const start = range?.start ?? 0;
    const end = range?.end ?? stat.size - 1;
    const lastSeq = Math.floor(end / CHUNK_SIZE);
    let seq = Math.floor(start / CHUNK_SIZE);
    const { copySql: sql, chunksPerRead: perRead } = this.options;
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (end < start || seq > lastSeq) {
          controller.close();
          return;
        }
        const to = Math.min(lastSeq, seq + perRead - 1);
        const chunks = await readChunks(sql, sha256, seq, to);
        if (chunks.length !== to - seq + 1) {
          controller.error(new Error(`blob ${sha256} is missing chunks`));
          return;
        }
        for (const [i, data] of chunks.entries()) {
          const offset = (seq + i) * CHUNK_SIZE;
          const from = Math.max(0, start - offset);
          const until = Math.min(data.length, end - offset + 1);
          controller.enqueue(data.subarray(from, until));
        }
        seq = to + 1;
      },
    });
  }

  async stat(sha256: string): Promise<{ size: number } | undefined> {
    if (!SHA256_PATTERN.test(sha256)) return undefined;
    const [row] = await this.sql<{ size: string }[]>`select size from blobs where sha256 = ${sha256}`;
    return row ? { size: Number(row.size) } : undefined;
  }

  async delete(sha256: string, untouchedSince?: Date): Promise<boolean> {
    return await this.sql.begin(async (tx) => {
      // One statement: a re-put's upsert of the same row (it refreshes created_at) either came first, and the row
      // is kept, or waits for this one and inserts the blob anew.
      const removed = await tx`
        delete from blobs where sha256 = ${sha256}
          and (${untouchedSince ?? null}::timestamptz is null or created_at <= ${untouchedSince ?? null})
        returning sha256`;
      if (removed.length === 0) return false;
      await tx`delete from blob_chunks where sha256 = ${sha256}`;
      return true;
    });
  }

  async *list(): AsyncIterable<BlobListing> {
    const rows = await this.sql<{ sha256: string; created_at: Date }[]>`select sha256, created_at from blobs`;
    for (const row of rows) yield { sha256: row.sha256, touchedAt: row.created_at };
  }

  async checkWritable(): Promise<void> {
    // A standby (read-only) server or a role without INSERT would refuse every upload.
    const [row] = await this.sql<{ standby: boolean; insert: boolean }[]>`
      select pg_is_in_recovery() as standby, has_table_privilege('blob_chunks', 'INSERT') as insert`;
    if (row.standby || !row.insert) throw new Error('the database does not accept new blobs');
  }

  async sweepTemporary(olderThan: Date): Promise<void> {
    await this.sql`delete from blob_chunks where sha256 like 'tmp:%' and created_at < ${olderThan}`;
  }
}

/** Chunks `from`..`to` (inclusive) of one blob, raw, through binary COPY. */
async function readChunks(sql: Sql, sha256: string, from: number, to: number): Promise<Uint8Array[]> {
  // COPY takes no bind parameters: the values are a checked hex digest and two integers.
  if (!SHA256_PATTERN.test(sha256) || !Number.isInteger(from) || !Number.isInteger(to)) {
    throw new Error('bad chunk read');
  }
  // postgres.js pipelines other queries onto a busy connection but refuses them during a COPY
  // (COPY_IN_PROGRESS): a reserved connection keeps every other query off it until the COPY is done.
  const reserved = await sql.reserve();
  try {
    return await copyChunks(reserved as unknown as Sql, sha256, from, to);
  } finally {
    reserved.release();
  }
}

async function copyChunks(sql: Sql, sha256: string, from: number, to: number): Promise<Uint8Array[]> {
  const stream = await sql.unsafe(
    `copy (select data from blob_chunks where sha256 = '${sha256}' and seq between ${from} and ${to} order by seq)
     to stdout (format binary)`,
  ).readable();
  // postgres.js pauses its socket when a CopyData push finds the stream's buffer full and resumes it
  // from the stream's _read; under Deno's node:net a message spanning several socket reads then stalls
  // the connection for good (seen with any row over ~64 KiB). We read the whole batch (a few chunks)
  // at once anyway, so the buffer may hold it: never report "full", and resume a socket already paused.
  const state = (stream as unknown as { _readableState?: { highWaterMark: number } })._readableState;
  if (state) state.highWaterMark = 1 << 30;
  (stream as unknown as { _read?: () => void })._read?.();
  const pieces: Uint8Array[] = [];
  for await (const piece of stream as AsyncIterable<Uint8Array>) pieces.push(piece);
  // Decoded from the pieces as they came: each chunk is a view of its CopyData message, not a copy.
  return decodeCopyBinary(pieces);
}

function concat(parts: Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
