/**
 * Blobs as objects in an S3 bucket (AWS S3, Ceph's RADOS Gateway, MinIO): `<S3_PREFIX>blobs/<sha256>`, written
 * by a put only once its bytes are complete (an S3 PUT or a completed multipart upload is atomic: a reader sees
 * the whole object or none). The bucket is the operator's: the store never creates it.
 *
 * A put reads up to one part (8 MiB) into memory. A document that fits, nearly every letter, is one PUT to its
 * final name, which S3 checks against the SHA-256 computed on the way (x-amz-content-sha256). A larger one goes
 * as a multipart upload to `tmp/<uuid>` (parts of 8 MiB, one in memory at a time), is copied inside the store to
 * its final name once its digest is known, and the temporary object is removed.
 *
 * The GC's guarantee (types.ts): a put writes its object again even when the bytes are already stored, which
 * gives the object a new Last-Modified (its age for the GC's grace period); then, holding the blob's lock
 * (blob_locks.ts), it checks the object is there and writes it once more if a GC removed it meanwhile. The GC
 * looks at the age and deletes holding the same lock. So a delete either sees the re-put's new age and keeps the
 * object, or runs before the put's check, which then writes it back.
 */
import type { BlobLocks } from './blob_locks.ts';
import { sha256Hasher } from './hashing.ts';
import type { ByteRange } from './range.ts';
import type { S3Client } from './s3_client.ts';
import { type BlobListing, type BlobStore, SHA256_PATTERN, type StoredBlob } from './types.ts';

/**
 * 8 MiB: above S3's 5 MiB minimum for every part but the last, the size most S3 tools use, and a bounded buffer
 * per upload in flight (the API holds the uploaded file already; this is at most one part more).
 */
export const PART_SIZE = 8 * 1024 * 1024;

/** Last-Modified has whole seconds: an object written in the same second as a listing counts as after it. */
const LAST_MODIFIED_RESOLUTION_MS = 1000;

export class S3BlobStore implements BlobStore {
  constructor(
    private readonly client: S3Client,
    private readonly options: { locks: BlobLocks; prefix: string; partSize?: number },
  ) {}

  private key(sha256: string): string {
    if (!SHA256_PATTERN.test(sha256)) throw new Error('not a blob name');
    return `${this.options.prefix}blobs/${sha256}`;
  }

  private get tmpPrefix(): string {
    return `${this.options.prefix}tmp/`;
  }

  async put(stream: ReadableStream<Uint8Array>): Promise<StoredBlob> {
    const hasher = sha256Hasher();
    const reader = stream.getReader();
    try {
      const parts = new Parts(reader, hasher, this.options.partSize ?? PART_SIZE);
      const first = await parts.next();
      if (first.last) {
        const blob = hasher.digest();
        const write = () => this.client.putObject(this.key(blob.sha256), first.bytes, blob.sha256);
        await write();
        await this.confirm(blob, write);
        return blob;
      }
      const tmp = `${this.tmpPrefix}${crypto.randomUUID()}`;
      await this.multipart(tmp, first.bytes, parts);
      const blob = hasher.digest();
      try {
        const write = () => this.client.copyObject(tmp, this.key(blob.sha256));
        await write();
        await this.confirm(blob, write);
        return blob;
      } finally {
        await this.client.deleteObject(tmp).catch(() => {/* the sweep removes it */});
      }
    } finally {
      reader.releaseLock();
    }
  }

  /** Holding the blob's lock: the object is there, complete (else a GC removed it since `write`: write again). */
  private async confirm(blob: StoredBlob, write: () => Promise<void>): Promise<void> {
    await this.options.locks.withLock(blob.sha256, async () => {
      const head = await this.client.headObject(this.key(blob.sha256));
      if (head?.size !== blob.size) await write();
    });
  }

  /** Sends `first` and the rest of the stream to `key` in parts; abandons the upload when anything fails. */
  private async multipart(
    key: string,
    first: Uint8Array,
    parts: Parts,
  ): Promise<void> {
    const uploadId = await this.client.createMultipartUpload(key);
    try {
      const etags = [await this.client.uploadPart(key, uploadId, 1, first)];
      for (let last = false; !last;) {
        const part = await parts.next();
        etags.push(await this.client.uploadPart(key, uploadId, etags.length + 1, part.bytes));
        last = part.last;
      }
      await this.client.completeMultipartUpload(key, uploadId, etags);
    } catch (error) {
      // The sweep abandons it later if this fails too (the store was unreachable).
      await this.client.abortMultipartUpload(key, uploadId).catch(() => {});
      throw error;
    }
  }

  async open(sha256: string, range?: ByteRange): Promise<ReadableStream<Uint8Array> | undefined> {
    if (!SHA256_PATTERN.test(sha256)) return undefined;
    const response = await this.client.getObject(this.key(sha256), range);
    if (!response) return undefined;
    // The response's own stream, untouched: Deno then moves its bytes to the client's socket without JavaScript
    // (bench:stream: 7.7 ms of the API's CPU per 10 MB answer, where a stream read through JavaScript took 48 ms
    // and a quarter of the throughput). Its deadline is the client's (s3_client.ts, S3_TIMEOUTS.readBytesPerSecond);
    // the document route also watches it for silence and a short end (watched_read.ts).
    return response.body ?? new Blob([]).stream();
  }

  async stat(sha256: string): Promise<{ size: number } | undefined> {
    if (!SHA256_PATTERN.test(sha256)) return undefined;
    const head = await this.client.headObject(this.key(sha256));
    return head ? { size: head.size } : undefined;
  }

  async delete(sha256: string, untouchedSince?: Date): Promise<boolean> {
    if (!SHA256_PATTERN.test(sha256)) return false;
    const key = this.key(sha256);
    return await this.options.locks.withLock(sha256, async () => {
      const head = await this.client.headObject(key);
      if (!head) return false;
      if (
        untouchedSince &&
        head.lastModified.getTime() + LAST_MODIFIED_RESOLUTION_MS > untouchedSince.getTime()
      ) return false;
      await this.client.deleteObject(key);
      return true;
    });
  }

  async *list(): AsyncIterable<BlobListing> {
    const prefix = `${this.options.prefix}blobs/`;
    for await (const object of this.client.listObjects(prefix)) {
      const sha256 = object.key.slice(prefix.length);
      if (SHA256_PATTERN.test(sha256)) yield { sha256, touchedAt: object.lastModified };
    }
  }

  async sweepTemporary(olderThan: Date): Promise<void> {
    for await (const object of this.client.listObjects(this.tmpPrefix)) {
      if (object.lastModified < olderThan) await this.client.deleteObject(object.key);
    }
    // Uploads a crash or a lost store left unfinished: their parts are stored (and billed) until abandoned.
    for await (const upload of this.client.listMultipartUploads(this.tmpPrefix)) {
      if (upload.initiated < olderThan) await this.client.abortMultipartUpload(upload.key, upload.uploadId);
    }
  }

  async checkWritable(): Promise<void> {
    // What a put does: write an object (this finds a wrong key, a missing bucket, a store that does not answer).
    const probe = `${this.tmpPrefix}ready-${crypto.randomUUID()}`;
    await this.client.putObject(probe, new Uint8Array([1]));
    await this.client.deleteObject(probe);
  }
}

/**
 * The stream cut into parts of `size` bytes, hashed on the way. A chunk that straddles a part's end is split: its
 * rest starts the next part. A full part looks one read ahead, so the last part is known as the last.
 */
class Parts {
  private rest: Uint8Array | undefined;

  constructor(
    private readonly reader: ReadableStreamDefaultReader<Uint8Array>,
    private readonly hasher: ReturnType<typeof sha256Hasher>,
    private readonly size: number,
  ) {}

  private async read(): Promise<Uint8Array | undefined> {
    const { value, done } = await this.reader.read();
    if (done) return undefined;
    this.hasher.update(value);
    return value;
  }

  async next(): Promise<{ bytes: Uint8Array; last: boolean }> {
    const buffer = new Uint8Array(this.size);
    let filled = 0;
    while (filled < this.size) {
      const chunk = this.rest ?? await this.read();
      this.rest = undefined;
      if (!chunk) return { bytes: buffer.subarray(0, filled), last: true };
      const n = Math.min(chunk.length, this.size - filled);
      buffer.set(chunk.subarray(0, n), filled);
      filled += n;
      if (n < chunk.length) this.rest = chunk.subarray(n);
    }
    this.rest ??= await this.read();
    return { bytes: buffer, last: !this.rest };
  }
}
