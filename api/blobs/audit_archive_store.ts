/**
 * Where audit rows go when they leave the database: signed, chained segments, one file per segment. With
 * BLOB_STORE=s3 objects under `<S3_PREFIX>audit/archive/` with compliance-mode Object Lock (like the checkpoints);
 * otherwise files in `DATA_DIR/audit-archive/`.
 */
import type { Config } from '../config.ts';
import type { ChainRowContent } from '../db/audit_chain.ts';
import { S3Client } from './s3_client.ts';

export interface ArchiveSegment {
  version: 1;
  fromPosition: number;
  toPosition: number;
  /** The chain hash before fromPosition (the previous segment's last, or the genesis). */
  previousChainHash: string;
  lastChainHash: string;
  rows: { position: number; rowHash: string; chainHash: string; content: ChainRowContent }[];
  /** ISO 8601. */
  signedAt: string;
  publicKey: string;
  signature: string;
}

export interface StoredSegment {
  location: string;
  segment?: ArchiveSegment;
  problem?: string;
}

export interface ArchiveStore {
  readonly where: string;
  write(segment: ArchiveSegment): Promise<string>;
  list(): Promise<StoredSegment[]>;
  /**
   * One segment by the location `write` answered, read from this store's own folder or prefix by its file name (so
   * a DATA_DIR moved by a restore still finds it); `problem` when it is missing or not a segment.
   */
  read(location: string): Promise<StoredSegment>;
}

/** A segment's file name: the last part of its location. */
const fileName = (location: string) => location.slice(location.lastIndexOf('/') + 1);

/** The archive's folder in DATA_DIR. */
export const ARCHIVE_FOLDER = 'audit-archive';

const name = (s: ArchiveSegment) =>
  `${String(s.fromPosition).padStart(15, '0')}-${String(s.toPosition).padStart(15, '0')}.json`;

/** The archive the configuration names. */
export function createArchiveStore(
  config: Pick<Config, 'dataDir' | 's3' | 'auditCheckpointLockDays'>,
): ArchiveStore {
  if (config.s3) {
    return new S3ArchiveStore(new S3Client(config.s3), config.s3.prefix, config.auditCheckpointLockDays);
  }
  return new FolderArchiveStore(`${config.dataDir}/${ARCHIVE_FOLDER}`);
}

/** One file per segment, written whole under a temporary name, flushed and renamed. */
export class FolderArchiveStore implements ArchiveStore {
  constructor(readonly where: string) {}

  async write(segment: ArchiveSegment): Promise<string> {
    await Deno.mkdir(this.where, { recursive: true, mode: 0o700 });
    const path = `${this.where}/${name(segment)}`;
    const tmp = `${path}.${crypto.randomUUID()}.tmp`;
    await Deno.writeTextFile(tmp, JSON.stringify(segment), { createNew: true, mode: 0o600 });
    const file = await Deno.open(tmp, { read: true });
    try {
      await file.sync();
    } finally {
      file.close();
    }
    await Deno.rename(tmp, path);
    return path;
  }

  async list(): Promise<StoredSegment[]> {
    const found: StoredSegment[] = [];
    try {
      for await (const entry of Deno.readDir(this.where)) {
        if (!entry.isFile || !entry.name.endsWith('.json')) continue;
        const location = `${this.where}/${entry.name}`;
        found.push(parseSegment(await Deno.readTextFile(location), location));
      }
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    return found;
  }

  async read(location: string): Promise<StoredSegment> {
    const path = `${this.where}/${fileName(location)}`;
    try {
      return parseSegment(await Deno.readTextFile(path), path);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      return { location: path, problem: `${path} is missing from the archive` };
    }
  }
}

/** One locked object per segment; read back through every version, as the checkpoints are. */
export class S3ArchiveStore implements ArchiveStore {
  readonly where: string;
  private readonly folder: string;

  constructor(readonly client: S3Client, prefix: string, private readonly lockDays: number) {
    this.folder = `${prefix}audit/archive/`;
    this.where = `s3://${client.settings.bucket}/${this.folder}`;
  }

  async write(segment: ArchiveSegment): Promise<string> {
    const key = `${this.folder}${name(segment)}`;
    const retainUntil = new Date(Date.now() + this.lockDays * 24 * 60 * 60 * 1000);
    await this.client.putLockedObject(key, new TextEncoder().encode(JSON.stringify(segment)), retainUntil);
    return `s3://${this.client.settings.bucket}/${key}`;
  }

  async list(): Promise<StoredSegment[]> {
    const found = new Map<string, StoredSegment>();
    for await (const version of this.client.listObjectVersions(this.folder)) {
      const location = `s3://${this.client.settings.bucket}/${version.key}`;
      const text = await this.client.getObjectVersionText(version.key, version.versionId);
      if (text !== undefined && !found.has(location)) found.set(location, parseSegment(text, location));
    }
    return [...found.values()];
  }

  async read(location: string): Promise<StoredSegment> {
    const key = `${this.folder}${fileName(location)}`;
    const where = `s3://${this.client.settings.bucket}/${key}`;
    const response = await this.client.getObject(key);
    if (!response) return { location: where, problem: `${where} is missing from the archive` };
    return parseSegment(await response.text(), where);
  }
}

function parseSegment(text: string, location: string): StoredSegment {
  try {
    const s = JSON.parse(text);
    if (
      s?.version === 1 && Number.isSafeInteger(s.fromPosition) && Number.isSafeInteger(s.toPosition) &&
      Array.isArray(s.rows) && typeof s.signature === 'string' && typeof s.publicKey === 'string'
    ) {
      return { location, segment: s as ArchiveSegment };
    }
  } catch {
    // Reported below.
  }
  return {
    location,
    problem: `${location} is not an archive segment (damaged or written by something else)`,
  };
}
