/**
 * The blob store: a document's bytes, content-addressed by SHA-256, behind one small
 * interface with two backends (BLOB_STORE): `fs` (files under DATA_DIR/blobs, the default)
 * and `postgres` (fixed-size chunks in a table, for hosts without a disk).
 *
 * The contract both keep: `put` makes a blob visible under its real name only once every
 * byte is durable, so a crash never leaves half a blob; callers write the blob first and
 * the row that points at it second; `gc` in domain/retention.ts removes blobs no row
 * refers to, and only those older than a grace period, so an upload between its `put`
 * and its commit never loses its bytes (`put` of an existing blob refreshes its age).
 */
import type { ByteRange } from './range.ts';

export interface StoredBlob {
  sha256: string;
  size: number;
}

export interface BlobListing {
  sha256: string;
  /** When it was written or last re-put: the GC's grace period counts from here. */
  touchedAt: Date;
}

export interface BlobStore {
  /** Stores the stream's bytes; resolves once they are durable under their SHA-256. */
  put(stream: ReadableStream<Uint8Array>): Promise<StoredBlob>;
  /** The bytes (or an inclusive byte range of them), or undefined when there is no such blob. */
  open(sha256: string, range?: ByteRange): Promise<ReadableStream<Uint8Array> | undefined>;
  /** The blob's size, or undefined when it does not exist. */
  stat(sha256: string): Promise<{ size: number } | undefined>;
  /**
   * Removes the blob, unless it was written or re-put after `untouchedSince` (the GC's listing time: an upload of
   * the same bytes may have re-put it since the GC found it unreferenced); true when it was removed. The check and
   * the removal are one step (one statement; synchronous file calls), so no re-put of this process falls between.
   */
  delete(sha256: string, untouchedSince?: Date): Promise<boolean>;
  /** Every stored blob, for the GC. */
  list(): AsyncIterable<BlobListing>;
  /** Removes what interrupted `put`s left behind before `olderThan`. */
  sweepTemporary(olderThan: Date): Promise<void>;
  /** Throws unless a new blob could be written now (the readiness check). */
  checkWritable(): Promise<void>;
  /**
   * Where the blob's file sits inside the store's folder (`ab/cd/<sha256>`), for a front server to send it
   * (BLOB_OFFLOAD); undefined when it has no file there. Only the fs store has files. Computed from the
   * hash alone, which the pattern below confines to hex: nothing a client writes ever reaches it.
   */
  relativePath?(sha256: string): Promise<string | undefined>;
  /** Whether the blob is stored sealed (sealed_store.ts), so that no front server can send it as it is stored. */
  isSealed?(sha256: string): Promise<boolean>;
}

/** A SHA-256 in lower-case hex: anything else is never a blob name (and never reaches a path or SQL). */
export const SHA256_PATTERN = /^[0-9a-f]{64}$/;
