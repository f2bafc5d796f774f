/**
 * Backup and restore with BLOB_STORE=s3: the documents' objects either copied into the backup folder (the fs
 * store's layout, blobs/ab/cd/<sha256>, each checked against its SHA-256 on the way) and put back into the bucket
 * on restore, or left in the bucket when it is backed up by its own means (versioning, replication), and then only
 * checked: every document's object there, with its size. `document-blobs.txt` in the backup lists what the
 * documents need, so a restore checks the bucket before it touches the database.
 */
import { sha256Hasher } from '../blobs/hashing.ts';
import type { BlobStore } from '../blobs/types.ts';
import { SHA256_PATTERN } from '../blobs/types.ts';

export interface NeededBlob {
  sha256: string;
  size: number;
}

/** S3 calls in flight at once: a bucket of many documents is checked in minutes, not hours, without a burst. */
const CONCURRENCY = 8;

/** Runs `job` on every item, at most CONCURRENCY at a time; the first failure stops the rest and is thrown. */
async function eachLimited<T>(items: T[], job: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, async () => {
    while (!failed && next < items.length) {
      const item = items[next++];
      try {
        await job(item);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  }));
}

/** The file of a blob in the fs store's layout under `root`. */
export function blobFile(root: string, sha256: string): string {
  if (!SHA256_PATTERN.test(sha256)) throw new Error(`not a blob name: ${sha256}`);
  return `${root}/${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`;
}

/** The needed blobs as the backup writes them: one `<sha256> <size>` line each. */
export function formatNeeded(needed: NeededBlob[]): string {
  return needed.map((n) => `${n.sha256} ${n.size}\n`).join('');
}

export function parseNeeded(text: string): NeededBlob[] {
  return text.split('\n').filter(Boolean).map((line) => {
    const [sha256, size] = line.split(' ');
    if (!SHA256_PATTERN.test(sha256) || !/^\d+$/.test(size)) throw new Error(`a damaged line: ${line}`);
    return { sha256, size: Number(size) };
  });
}

/** The needed blobs the store lacks, or holds with another size (each looked up with a HEAD). */
export async function missingObjects(blobs: BlobStore, needed: NeededBlob[]): Promise<string[]> {
  const missing: string[] = [];
  await eachLimited(needed, async ({ sha256, size }) => {
    if ((await blobs.stat(sha256))?.size !== size) missing.push(sha256);
  });
  return missing.sort();
}

/** Copies each needed object out of the store into `root`, checking its bytes against its name. Returns the count. */
export async function copyObjectsOut(blobs: BlobStore, needed: NeededBlob[], root: string): Promise<number> {
  await eachLimited(needed, async ({ sha256 }) => {
    const stream = await blobs.open(sha256);
    if (!stream) throw new Error(`the object of blob ${sha256} is missing from the bucket`);
    const path = blobFile(root, sha256);
    await Deno.mkdir(path.slice(0, path.lastIndexOf('/')), { recursive: true });
    const hasher = sha256Hasher();
    const file = await Deno.open(path, { write: true, createNew: true, mode: 0o600 });
    try {
      for await (const chunk of stream) {
        hasher.update(chunk);
        for (let at = 0; at < chunk.length;) at += await file.write(chunk.subarray(at));
      }
      await file.sync();
    } finally {
      file.close();
    }
    if (hasher.digest().sha256 !== sha256) throw new Error(`the object of blob ${sha256} has other bytes`);
  });
  return needed.length;
}

/** Puts each needed blob's file from `root` into the store; the store's digest must be the file's name. */
export async function copyObjectsIn(blobs: BlobStore, needed: NeededBlob[], root: string): Promise<number> {
  await eachLimited(needed, async ({ sha256 }) => {
    const file = await Deno.open(blobFile(root, sha256), { read: true });
    const stored = await blobs.put(file.readable);
    if (stored.sha256 !== sha256) throw new Error(`the backup's file of blob ${sha256} has other bytes`);
  });
  return needed.length;
}

/** The blob files under `root` (the fs store's layout) with their sizes: what an fs backup holds. */
export async function listBlobFiles(root: string): Promise<NeededBlob[]> {
  const found: NeededBlob[] = [];
  const walk = async (path: string, depth: number) => {
    for await (const entry of Deno.readDir(path)) {
      const inside = `${path}/${entry.name}`;
      if (entry.isDirectory && depth < 2 && /^[0-9a-f]{2}$/.test(entry.name)) await walk(inside, depth + 1);
      else if (entry.isFile && depth === 2 && SHA256_PATTERN.test(entry.name)) {
        found.push({ sha256: entry.name, size: (await Deno.stat(inside)).size });
      }
    }
  };
  await walk(root, 0).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  });
  return found.sort((a, b) => a.sha256 < b.sha256 ? -1 : 1);
}
