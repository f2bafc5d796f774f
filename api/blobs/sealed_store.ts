/**
 * Documents' bytes sealed at rest, over any backend (docs/security.md, "Document bytes at rest"). The callers still
 * name a blob by the SHA-256 of its plaintext (the receipt's digest); this store seals the bytes under a new random
 * data key (stream_seal.ts), puts the sealed bytes into the backend, whose name for them is their own SHA-256 (under
 * a key used once, as good as random: two uploads of the same letter have unrelated names), and records in
 * `sealed_blobs` the digest → name mapping with the data key wrapped under BLOB_KEY (blob_key.ts). A digest with no
 * such row is a plaintext blob from before, stored under the digest itself, and is read as it is until
 * `npm run blobs:encrypt` seals it: the portal serves both kinds meanwhile.
 *
 * The backend's contract holds through it: the sealed bytes are durable before the mapping row is written, and
 * the mapping before the document's row (blob first, row second); a re-upload of the same bytes writes a new sealed
 * blob and moves the mapping to it, so the old one becomes unnamed and is collected after its grace period, and a
 * collection racing the re-upload deletes the mapping only while it still names what it deleted.
 */
import type { Sql } from '../db/client.ts';
import {
  delete_sealed_blob,
  digests_of_sealed_names,
  find_sealed_blob,
  insert_sealed_blob,
  type SealedBlobRow,
  upsert_sealed_blob,
} from '../db/sealed_blobs.ts';
import type { Logger } from '../log.ts';
import { type BlobKek, unwrapDataKey, wrapDataKey } from './blob_key.ts';
import { sha256Hasher } from './hashing.ts';
import type { ByteRange } from './range.ts';
import {
  importDataKey,
  newDataKey,
  openSegments,
  SealBroken,
  sealedRangeFor,
  sealStream,
} from './stream_seal.ts';
import type { BlobListing, BlobStore, StoredBlob } from './types.ts';

/** Names looked up per query while listing for the collection. */
const LIST_BATCH = 500;

export interface SealedStoreOptions {
  sql: Sql;
  /** BLOB_KEY: the key new data keys are wrapped under, and the one that opens them. */
  kek: BlobKek;
  /** Where a blob that fails to open is reported; unset, the console. */
  log?: Logger;
}

/** Seals what it stores; reads sealed and plaintext blobs alike. */
export class SealedBlobStore implements BlobStore {
  constructor(readonly inner: BlobStore, private readonly options: SealedStoreOptions) {}

  async put(stream: ReadableStream<Uint8Array>): Promise<StoredBlob> {
    const { row } = await this.seal(stream);
    await upsert_sealed_blob(this.options.sql, row);
    return { sha256: row.sha256, size: row.size };
  }

  /**
   * Seals a plaintext blob of an installation from before in place (`npm run blobs:encrypt`): its sealed form is
   * stored and recorded, then the plaintext one removed. Readers meanwhile get either. 'missing' when there is no
   * such plaintext blob; 'sealed' as well when an upload of the same bytes sealed it first.
   */
  async sealPlaintext(sha256: string): Promise<'sealed' | 'missing'> {
    const plain = await this.inner.open(sha256);
    if (!plain) return 'missing';
    const { row } = await this.seal(plain);
    if (row.sha256 !== sha256) {
      await this.inner.delete(row.name);
      throw new Error(`the plaintext blob ${sha256} holds other bytes (${row.sha256}): left as it is`);
    }
    if (!(await insert_sealed_blob(this.options.sql, row))) await this.inner.delete(row.name);
    await this.inner.delete(sha256);
    return 'sealed';
  }

  /** Removes the plaintext blob a sealed digest may have left behind (a `blobs:encrypt` interrupted there). */
  async removePlaintextLeftover(sha256: string): Promise<boolean> {
    if (!(await find_sealed_blob(this.options.sql, sha256))) return false;
    return await this.inner.delete(sha256);
  }

  private async seal(stream: ReadableStream<Uint8Array>): Promise<{ row: SealedBlobRow }> {
    const { kek } = this.options;
    const raw = newDataKey();
    const hasher = sha256Hasher();
    const counted = stream.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          hasher.update(chunk);
          controller.enqueue(chunk);
        },
      }),
    );
    const stored = await this.inner.put(sealStream(await importDataKey(raw), counted));
    const { sha256, size } = hasher.digest();
    const row = {
      sha256,
      name: stored.sha256,
      size,
      stored_size: stored.size,
      key_id: kek.id,
      wrapped_key: await wrapDataKey(kek, raw, stored.sha256),
    };
    raw.fill(0);
    return { row };
  }

  async open(sha256: string, range?: ByteRange): Promise<ReadableStream<Uint8Array> | undefined> {
    const row = await find_sealed_blob(this.options.sql, sha256);
    if (!row) return await this.inner.open(sha256, range);
    const key = await this.dataKey(row);
    const span = sealedRangeFor(row.size, range);
    const whole = span.start === 0 && span.end === row.stored_size - 1;
    const sealed = await this.inner.open(row.name, whole ? undefined : { start: span.start, end: span.end });
    if (!sealed) return undefined;
    const plain = openSegments(key, sealed, { size: row.size, range });
    // The first segment is opened before the stream is handed over: a blob broken there is a read that cannot start
    // (the route's 503, nothing recorded), not an answer that begins and breaks off.
    let first: IteratorResult<Uint8Array>;
    try {
      first = await plain.next();
    } catch (error) {
      this.reportBroken(row, error);
      throw error;
    }
    const report = (error: unknown) => this.reportBroken(row, error);
    const rest = async function* () {
      try {
        if (!first.done) yield first.value;
        yield* plain;
      } catch (error) {
        report(error);
        throw error;
      }
    };
    return ReadableStream.from(rest());
  }

  async stat(sha256: string): Promise<{ size: number } | undefined> {
    const row = await find_sealed_blob(this.options.sql, sha256);
    if (!row) return await this.inner.stat(sha256);
    return (await this.inner.stat(row.name)) ? { size: row.size } : undefined;
  }

  async delete(sha256: string, untouchedSince?: Date): Promise<boolean> {
    const row = await find_sealed_blob(this.options.sql, sha256);
    if (!row) return await this.inner.delete(sha256, untouchedSince);
    const removed = await this.inner.delete(row.name, untouchedSince);
    if (removed) await delete_sealed_blob(this.options.sql, sha256, row.name);
    return removed;
  }

  /** The backend's blobs under the digests documents name; a stored name no row maps is listed as it is. */
  async *list(): AsyncIterable<BlobListing> {
    let batch: BlobListing[] = [];
    const flush = async () => {
      const digests = await digests_of_sealed_names(this.options.sql, batch.map((b) => b.sha256));
      const out = batch.map((b) => ({ sha256: digests.get(b.sha256) ?? b.sha256, touchedAt: b.touchedAt }));
      batch = [];
      return out;
    };
    for await (const blob of this.inner.list()) {
      batch.push(blob);
      if (batch.length >= LIST_BATCH) yield* await flush();
    }
    yield* await flush();
  }

  sweepTemporary(olderThan: Date): Promise<void> {
    return this.inner.sweepTemporary(olderThan);
  }

  checkWritable(): Promise<void> {
    return this.inner.checkWritable();
  }

  /** Only a plaintext blob can be sent by a front server as it is stored: a sealed one has no such place. */
  async relativePath(sha256: string): Promise<string | undefined> {
    if (!this.inner.relativePath || (await find_sealed_blob(this.options.sql, sha256))) return undefined;
    return await this.inner.relativePath(sha256);
  }

  /** Whether the digest's bytes are sealed (they then go through the API, never a front's offload). */
  async isSealed(sha256: string): Promise<boolean> {
    return !!(await find_sealed_blob(this.options.sql, sha256));
  }

  private async dataKey(row: SealedBlobRow): Promise<CryptoKey> {
    const { kek } = this.options;
    const raw = row.key_id === kek.id ? await unwrapDataKey(kek, row.wrapped_key, row.name) : undefined;
    if (!raw) {
      throw new Error(
        `the data key of blob ${row.name} was wrapped under BLOB_KEY ${row.key_id}, and does not open under ` +
          `this BLOB_KEY (${kek.id})`,
      );
    }
    const key = await importDataKey(raw);
    raw.fill(0);
    return key;
  }

  private reportBroken(row: SealedBlobRow, error: unknown) {
    if (!(error instanceof SealBroken)) return;
    const fields = { blob: row.name, segment: error.segment, cause: error.message };
    if (this.options.log) this.options.log.error('sealed blob failed its authentication', fields);
    else console.error(`sealed blob ${row.name} failed its authentication: ${error.message}`);
  }
}
