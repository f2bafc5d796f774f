/**
 * Blobs as files: DATA_DIR/blobs/ab/cd/<sha256>. A put writes to blobs/tmp/<uuid>, fsyncs
 * and renames, so a real name always holds complete bytes (rename is atomic on POSIX).
 */
import { sha256Hasher } from './hashing.ts';
import type { ByteRange } from './range.ts';
import { type BlobListing, type BlobStore, SHA256_PATTERN, type StoredBlob } from './types.ts';

/**
 * Read size of a range's stream, pulled by the socket. A whole document is the file's own `readable` instead:
 * Deno then copies it to the socket in Rust, with no JavaScript buffer per chunk. Measured with bench/stream.ts
 * (10 MB to 32 clients, PostgreSQL, nginx paired, a quiet machine): `file.readable` 0.59–0.60 of nginx with the
 * API's RSS growing 17 MB; 256 KiB reads through JavaScript 0.68–0.75 but +72–126 MB (128 and 192 KiB alike),
 * since every chunk is a new buffer that only the next garbage collection frees. The stream bench bounds the growth at
 * 100 MB, and a portal is better served by flat memory than by 20% more of a loopback's throughput.
 */
const READ_CHUNK = 256 * 1024;

export class FsBlobStore implements BlobStore {
  /** The store's folder (DATA_DIR/blobs): the offload canary is written beside the blobs, as they are. */
  constructor(readonly root: string) {}

  private path(sha256: string): string {
    return `${this.root}/${this.inside(sha256)}`;
  }

  private inside(sha256: string): string {
    if (!SHA256_PATTERN.test(sha256)) throw new Error('not a blob name');
    return `${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`;
  }

  // deno-lint-ignore require-await -- the interface is async (other stores may ask a server); this one needs not
  async relativePath(sha256: string): Promise<string | undefined> {
    // Only a blob that is there: a missing one is the API's 404, not nginx's after the reading was audited.
    // A synchronous stat: on the store's local folder it takes microseconds, where Deno's async one goes through
    // its blocking thread pool and back, the largest cost of an offloaded request after its SQL (bench:stream).
    if (!SHA256_PATTERN.test(sha256)) return undefined;
    try {
      Deno.statSync(this.path(sha256));
      return this.inside(sha256);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return undefined;
      throw error;
    }
  }

  async put(stream: ReadableStream<Uint8Array>): Promise<StoredBlob> {
    await Deno.mkdir(`${this.root}/tmp`, { recursive: true });
    const tmp = `${this.root}/tmp/${crypto.randomUUID()}`;
    const hasher = sha256Hasher();
    const file = await Deno.open(tmp, { write: true, createNew: true, mode: 0o600 });
    try {
      try {
        for await (const chunk of stream) {
          hasher.update(chunk);
          for (let at = 0; at < chunk.length;) at += await file.write(chunk.subarray(at));
        }
        await file.sync();
      } finally {
        file.close();
      }
      const blob = hasher.digest();
      const final = this.path(blob.sha256);
      await Deno.mkdir(final.slice(0, final.lastIndexOf('/')), { recursive: true });
      // Same bytes already stored: keep them, refresh their age for the GC's grace period (and against a GC
      // that found them unreferenced a moment ago). Gone meanwhile (that GC removed them): ours take their place.
      const now = new Date();
      const refreshed = await Deno.utime(final, now, now).then(() => true, (error) => {
        if (error instanceof Deno.errors.NotFound) return false;
        throw error;
      });
      if (refreshed) await Deno.remove(tmp);
      else await Deno.rename(tmp, final);
      return blob;
    } catch (error) {
      await Deno.remove(tmp).catch(() => {});
      throw error;
    }
  }

  async open(sha256: string, range?: ByteRange): Promise<ReadableStream<Uint8Array> | undefined> {
    if (!SHA256_PATTERN.test(sha256)) return undefined;
    let file: Deno.FsFile;
    try {
      file = await Deno.open(this.path(sha256), { read: true });
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return undefined;
      throw error;
    }
    // The whole file: the runtime's own stream, which closes the file at its end or on cancel.
    if (!range) return file.readable;
    let remaining = range.end - range.start + 1;
    try {
      await file.seek(range.start, Deno.SeekMode.Start);
    } catch (error) {
      file.close();
      throw error;
    }
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        const buffer = new Uint8Array(Math.min(READ_CHUNK, remaining));
        const n = remaining > 0 ? await file.read(buffer) : null;
        if (n === null) {
          file.close();
          controller.close();
          return;
        }
        remaining -= n;
        controller.enqueue(n === buffer.length ? buffer : buffer.subarray(0, n));
      },
      cancel() {
        file.close();
      },
      // Read only when the socket asks: no chunk waits in memory ahead of a slow reader.
    }, { highWaterMark: 0 });
  }

  async stat(sha256: string): Promise<{ size: number } | undefined> {
    if (!SHA256_PATTERN.test(sha256)) return undefined;
    try {
      return { size: (await Deno.stat(this.path(sha256))).size };
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return undefined;
      throw error;
    }
  }

  // deno-lint-ignore require-await
  async delete(sha256: string, untouchedSince?: Date): Promise<boolean> {
    if (!SHA256_PATTERN.test(sha256)) return false;
    const path = this.path(sha256);
    try {
      // Synchronous: no upload of this process can re-put the blob between the look at its age and the removal.
      if (untouchedSince && (Deno.statSync(path).mtime ?? new Date(0)) > untouchedSince) return false;
      Deno.removeSync(path);
      return true;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return false;
      throw error;
    }
  }

  async *list(): AsyncIterable<BlobListing> {
    for (const a of await this.dirs(this.root)) {
      for (const b of await this.dirs(`${this.root}/${a}`)) {
        for await (const entry of Deno.readDir(`${this.root}/${a}/${b}`)) {
          if (!entry.isFile || !SHA256_PATTERN.test(entry.name)) continue;
          const info = await Deno.stat(`${this.root}/${a}/${b}/${entry.name}`).catch(() => undefined);
          if (info) yield { sha256: entry.name, touchedAt: info.mtime ?? new Date(0) };
        }
      }
    }
  }

  private async dirs(path: string): Promise<string[]> {
    const names: string[] = [];
    try {
      for await (const entry of Deno.readDir(path)) {
        if (entry.isDirectory && /^[0-9a-f]{2}$/.test(entry.name)) names.push(entry.name);
      }
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    return names;
  }

  async sweepTemporary(olderThan: Date): Promise<void> {
    try {
      for await (const entry of Deno.readDir(`${this.root}/tmp`)) {
        const path = `${this.root}/tmp/${entry.name}`;
        const info = await Deno.stat(path).catch(() => undefined);
        if (info?.mtime && info.mtime < olderThan) await Deno.remove(path).catch(() => {});
      }
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }

  async checkWritable(): Promise<void> {
    // What a put does first: create a file in tmp/ and flush it (a read-only or full disk fails here).
    await Deno.mkdir(`${this.root}/tmp`, { recursive: true });
    const probe = `${this.root}/tmp/ready-${crypto.randomUUID()}`;
    try {
      await Deno.writeFile(probe, new Uint8Array([1]), { createNew: true, mode: 0o600 });
    } finally {
      await Deno.remove(probe).catch(() => {});
    }
  }
}
