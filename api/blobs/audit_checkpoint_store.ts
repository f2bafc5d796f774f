/**
 * Where the audit log's signed checkpoints are kept, out of the database owner's reach: with BLOB_STORE=s3, one
 * object per checkpoint under `<S3_PREFIX>audit/checkpoints/`, put with Object Lock in compliance mode (nobody
 * can delete or overwrite it until its retention ends, the bucket's owner included); otherwise one line per
 * checkpoint appended to `DATA_DIR/audit-checkpoints.jsonl` (docs/operations.md, "The audit log's checkpoints").
 */
import type { Config } from '../config.ts';
import { S3Client } from './s3_client.ts';

/** A checkpoint as it is stored: the chain's size and last hash at a time, signed. */
export interface Checkpoint {
  version: 1;
  size: number;
  chainHash: string;
  /** ISO 8601. */
  signedAt: string;
  /** The Ed25519 public key, base64. */
  publicKey: string;
  /** Ed25519 over checkpointMessage(), base64. */
  signature: string;
}

/** A stored checkpoint and where it was read from; `problem` when it could not be read as one. */
export interface StoredCheckpoint {
  location: string;
  checkpoint?: Checkpoint;
  problem?: string;
}

export interface CheckpointStore {
  /** Where checkpoints go, for messages (`/var/lib/…/audit-checkpoints.jsonl`, `s3://bucket/prefix…`). */
  readonly where: string;
  /** Writes one checkpoint; answers its location. */
  append(checkpoint: Checkpoint): Promise<string>;
  /** Every checkpoint stored. */
  list(): Promise<StoredCheckpoint[]>;
}

/** The checkpoints' file in DATA_DIR. */
export const CHECKPOINT_FILE = 'audit-checkpoints.jsonl';

/** The text a checkpoint's signature covers. */
export function checkpointMessage(c: Pick<Checkpoint, 'size' | 'chainHash' | 'signedAt'>): string {
  return `legal-mail-portal audit checkpoint v1\nsize ${c.size}\nchain ${c.chainHash}\nsigned ${c.signedAt}\n`;
}

/** The store the configuration names. */
export function createCheckpointStore(
  config: Pick<Config, 'dataDir' | 's3' | 'auditCheckpointLockDays'>,
): CheckpointStore {
  if (config.s3) {
    return new S3CheckpointStore(new S3Client(config.s3), config.s3.prefix, config.auditCheckpointLockDays);
  }
  return new FileCheckpointStore(`${config.dataDir}/${CHECKPOINT_FILE}`);
}

/** One JSON line per checkpoint, appended (O_APPEND) and flushed before the checkpoint counts as written. */
export class FileCheckpointStore implements CheckpointStore {
  constructor(readonly where: string) {}

  async append(checkpoint: Checkpoint): Promise<string> {
    const file = await Deno.open(this.where, { append: true, create: true, mode: 0o600 });
    try {
      const bytes = new TextEncoder().encode(JSON.stringify(checkpoint) + '\n');
      let written = 0;
      while (written < bytes.length) written += await file.write(bytes.subarray(written));
      await file.sync();
    } finally {
      file.close();
    }
    return this.where;
  }

  async list(): Promise<StoredCheckpoint[]> {
    let text: string;
    try {
      text = await Deno.readTextFile(this.where);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return [];
      throw error;
    }
    return text.split('\n').flatMap((line, i) =>
      line.trim() ? [parseCheckpoint(line, `${this.where}:${i + 1}`)] : []
    );
  }
}

/** One object per checkpoint, under compliance-mode Object Lock for `lockDays`. */
export class S3CheckpointStore implements CheckpointStore {
  readonly where: string;
  private readonly folder: string;

  constructor(readonly client: S3Client, prefix: string, private readonly lockDays: number) {
    this.folder = `${prefix}audit/checkpoints/`;
    this.where = `s3://${client.settings.bucket}/${this.folder}`;
  }

  /** The object's name sorts by size, then time: a listing is the checkpoints in order. */
  static key(folder: string, checkpoint: Checkpoint): string {
    const time = checkpoint.signedAt.replace(/[-:.]/g, '');
    return `${folder}${String(checkpoint.size).padStart(15, '0')}-${time}.json`;
  }

  async append(checkpoint: Checkpoint): Promise<string> {
    const key = S3CheckpointStore.key(this.folder, checkpoint);
    const retainUntil = new Date(Date.now() + this.lockDays * 24 * 60 * 60 * 1000);
    await this.client.putLockedObject(key, new TextEncoder().encode(JSON.stringify(checkpoint)), retainUntil);
    return `s3://${this.client.settings.bucket}/${key}`;
  }

  /** Every version under the folder: a checkpoint hidden behind a delete marker is still read. */
  async list(): Promise<StoredCheckpoint[]> {
    const found: StoredCheckpoint[] = [];
    for await (const version of this.client.listObjectVersions(this.folder)) {
      const location = `s3://${this.client.settings.bucket}/${version.key}`;
      const text = await this.client.getObjectVersionText(version.key, version.versionId);
      if (text !== undefined) found.push(parseCheckpoint(text, location));
    }
    return found;
  }
}

function parseCheckpoint(text: string, location: string): StoredCheckpoint {
  try {
    const c = JSON.parse(text);
    if (
      c && c.version === 1 && Number.isSafeInteger(c.size) && c.size > 0 &&
      /^[0-9a-f]{64}$/.test(c.chainHash) &&
      typeof c.signedAt === 'string' && typeof c.publicKey === 'string' && typeof c.signature === 'string'
    ) {
      return {
        location,
        checkpoint: {
          version: 1,
          size: c.size,
          chainHash: c.chainHash,
          signedAt: c.signedAt,
          publicKey: c.publicKey,
          signature: c.signature,
        },
      };
    }
  } catch {
    // Reported below.
  }
  return { location, problem: `${location} is not a checkpoint (damaged or written by something else)` };
}
