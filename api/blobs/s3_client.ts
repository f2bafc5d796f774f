/**
 * The few S3 calls the s3 blob store makes, over aws4fetch (SigV4 signing on fetch, no SDK): objects put, read
 * (with Range), HEAD, copied and deleted; multipart uploads; listings. Every call has a deadline, so an object
 * store that stopped answering fails a request, a readiness probe or the start-up with a message that says so,
 * never hangs it. Every failure becomes an S3Error whose message tells an operator what to check.
 */
import { createHash } from 'node:crypto';
import { AwsClient } from 'aws4fetch';

export interface S3Settings {
  /** `https://s3.example.org` (a path after the host is kept: a gateway behind a path). */
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `https://endpoint/bucket/key` (Ceph, MinIO) rather than `https://bucket.endpoint/key` (AWS's default). */
  forcePathStyle: boolean;
}

export interface ObjectHead {
  size: number;
  lastModified: Date;
}

export interface ListedObject {
  key: string;
  size: number;
  lastModified: Date;
}

/**
 * Deadlines. A metadata call (HEAD, DELETE, listing, copy) or the headers of a read: 15 s, far above a healthy
 * store's milliseconds and below a balancer's patience. A call that sends bytes gets 1 s more for every 128 KiB
 * (1 Mbit/s, a facility's slowest uplink: 79 s for an 8 MiB part). A read's body must arrive at 32 KiB/s at least,
 * which a tablet on a crowded facility link still reads faster than (a 64 KiB range: 17 s; a whole 30 MB document:
 * 16 min); past that the read is cut, so a store that stops sending mid-body never holds a reader's connection for
 * good, whatever the reader; the document route also cuts a read whose store sends nothing for
 * BLOB_READ_IDLE_SECONDS (watched_read.ts).
 */
export const S3_TIMEOUTS = { callMs: 15_000, bytesPerSecond: 128 * 1024, readBytesPerSecond: 32 * 1024 };

/** An S3 call that failed: `code` is S3's error code (or `unreachable`, `timeout`), `message` says what to check. */
export class S3Error extends Error {
  constructor(message: string, readonly status: number, readonly code: string) {
    super(message);
    this.name = 'S3Error';
  }
}

const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/** The SHA-256 S3 checks the body against (x-amz-content-sha256): a body damaged on the way is refused. */
export function payloadSha256(body: Uint8Array): string {
  return createHash('sha256').update(body).digest('hex');
}

interface CallOptions {
  method: 'GET' | 'HEAD' | 'PUT' | 'POST' | 'DELETE';
  key?: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: Uint8Array;
  /** The body's SHA-256 when the caller has it already. */
  bodySha256?: string;
  /** What the call is, for messages ("reading blobs/ab…"). */
  what: string;
  /** A read whose body the caller streams: its deadline then follows its length (S3_TIMEOUTS.readBytesPerSecond). */
  streamBody?: boolean;
}

export class S3Client {
  private readonly aws: AwsClient;

  constructor(readonly settings: S3Settings, private readonly timeouts = S3_TIMEOUTS) {
    // Two retries of a 5xx or 429 (S3's SlowDown), 100 ms apart and more: every call here is idempotent.
    this.aws = new AwsClient({
      accessKeyId: settings.accessKeyId,
      secretAccessKey: settings.secretAccessKey,
      service: 's3',
      region: settings.region,
      retries: 2,
      initRetryMs: 100,
    });
  }

  /** The object's URL, path-style or virtual-hosted; each segment of the key percent-encoded. */
  url(key = '', query: Record<string, string> = {}): string {
    const endpoint = new URL(this.settings.endpoint);
    const base = endpoint.pathname.replace(/\/+$/, '');
    const path = key.split('/').map(encodeURIComponent).join('/');
    if (this.settings.forcePathStyle) endpoint.pathname = `${base}/${this.settings.bucket}/${path}`;
    else {
      endpoint.hostname = `${this.settings.bucket}.${endpoint.hostname}`;
      endpoint.pathname = `${base}/${path}`;
    }
    for (const [name, value] of Object.entries(query)) endpoint.searchParams.set(name, value);
    return endpoint.toString();
  }

  /** One signed call under its deadline; answers the response or throws an S3Error. */
  private async call(options: CallOptions): Promise<Response> {
    const controller = new AbortController();
    const sending = options.body?.length ?? 0;
    const limit = this.timeouts.callMs + Math.ceil((sending / this.timeouts.bytesPerSecond) * 1000);
    const timer = setTimeout(() => controller.abort(), limit);
    const headers: Record<string, string> = {
      'x-amz-content-sha256': options.body ? options.bodySha256 ?? payloadSha256(options.body) : EMPTY_SHA256,
      ...options.headers,
    };
    let response: Response;
    try {
      response = await this.aws.fetch(this.url(options.key, options.query), {
        method: options.method,
        headers,
        body: options.body as BodyInit | undefined,
        signal: controller.signal,
      });
    } catch (error) {
      clearTimeout(timer);
      if (controller.signal.aborted) {
        throw new S3Error(
          `the object store at ${this.settings.endpoint} did not answer within ${
            seconds(limit)
          } s (${options.what})`,
          0,
          'timeout',
        );
      }
      // Deno's fetch says only "fetch failed"; its cause says why (connection refused, no such host, TLS).
      const cause = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
      throw new S3Error(
        `cannot reach the object store at ${this.settings.endpoint} (${options.what}): ${
          cause.replace(/^error sending request for url \([^)]*\): /, '')
        }`,
        0,
        'unreachable',
      );
    }
    if (!options.streamBody || !response.ok) {
      try {
        // Read the body under the same deadline (small: XML, or nothing).
        const text = options.method === 'HEAD' ? '' : await response.text();
        clearTimeout(timer);
        // A 204 (a delete) or a HEAD's answer may carry no body, not even an empty one.
        return new Response(text || null, { status: response.status, headers: response.headers });
      } catch {
        clearTimeout(timer);
        throw new S3Error(
          `the object store at ${this.settings.endpoint} stopped answering (${options.what})`,
          0,
          'timeout',
        );
      }
    }
    clearTimeout(timer);
    const length = Number(response.headers.get('content-length') ?? 0);
    const bodyDeadline = setTimeout(
      () => controller.abort(),
      this.timeouts.callMs + Math.ceil((length / this.timeouts.readBytesPerSecond) * 1000),
    );
    // A read that ended before its deadline has nothing left to abort when it fires; unref'd, it keeps no process up.
    Deno.unrefTimer(bodyDeadline);
    return response;
  }

  /** An S3Error for a refusal, in the words an operator needs. */
  private async refusal(response: Response, what: string): Promise<S3Error> {
    const text = response.bodyUsed ? '' : await response.text().catch(() => '');
    const code = xmlValue(text, 'Code') ?? (response.status === 404 ? 'NotFound' : `HTTP${response.status}`);
    const where = `${this.settings.endpoint}, bucket "${this.settings.bucket}"`;
    const message = ({
      NoSuchBucket:
        `the bucket "${this.settings.bucket}" does not exist at ${this.settings.endpoint}: create it (the portal never creates buckets)`,
      SignatureDoesNotMatch:
        `the object store at ${this.settings.endpoint} refused the signature: check S3_SECRET_ACCESS_KEY (and S3_REGION)`,
      InvalidAccessKeyId:
        `the object store at ${this.settings.endpoint} does not know the access key ${this.settings.accessKeyId}: check S3_ACCESS_KEY_ID`,
      AccessDenied:
        `the key ${this.settings.accessKeyId} may not do this in ${where} (${what}): its policy must allow reading, writing, deleting and listing under the portal's prefix`,
      RequestTimeTooSkewed: `this machine's clock differs too much from the object store's: set up NTP`,
      AuthorizationHeaderMalformed: `the object store rejected the signature's region: check S3_REGION`,
    } as Record<string, string>)[code] ??
      `the object store answered ${response.status} ${code} (${what}, ${where})`;
    return new S3Error(message, response.status, code);
  }

  /** Stores `body` under `key` in one PUT (S3 checks it against `sha256`). */
  async putObject(key: string, body: Uint8Array, sha256?: string): Promise<void> {
    const what = `writing ${key}`;
    const r = await this.call({ method: 'PUT', key, body, bodySha256: sha256, what });
    if (!r.ok) throw await this.refusal(r, what);
  }

  /**
   * Stores `body` under `key` with Object Lock in compliance mode until `retainUntil`: nobody, the bucket's owner
   * included, can delete or overwrite that version before then. The bucket must have been created with Object
   * Lock enabled; S3 asks such a put for the body's MD5 (Content-MD5).
   */
  async putLockedObject(key: string, body: Uint8Array, retainUntil: Date): Promise<void> {
    const what = `writing ${key} under Object Lock`;
    const headers = {
      'content-md5': createHash('md5').update(body).digest('base64'),
      'x-amz-object-lock-mode': 'COMPLIANCE',
      'x-amz-object-lock-retain-until-date': retainUntil.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    };
    const r = await this.call({ method: 'PUT', key, body, headers, what });
    if (!r.ok) throw await this.refusal(r, what);
  }

  /** The object's Object Lock retention (mode and date), or undefined when it has none. */
  async getObjectRetention(key: string): Promise<{ mode: string; retainUntil: Date } | undefined> {
    const what = `reading the retention of ${key}`;
    const r = await this.call({ method: 'GET', key, query: { retention: '' }, what });
    if (r.status === 404) return undefined;
    if (!r.ok) throw await this.refusal(r, what);
    const text = await r.text();
    const mode = xmlValue(text, 'Mode');
    const until = xmlValue(text, 'RetainUntilDate');
    return mode && until ? { mode, retainUntil: new Date(until) } : undefined;
  }

  /** The object's bytes (or the inclusive range), as a response whose body is still to read; undefined when absent. */
  async getObject(key: string, range?: { start: number; end: number }): Promise<Response | undefined> {
    const what = `reading ${key}`;
    const headers: Record<string, string> = range ? { range: `bytes=${range.start}-${range.end}` } : {};
    const r = await this.call({ method: 'GET', key, headers, what, streamBody: true });
    if (r.status === 404) {
      const refusal = await this.refusal(r, what);
      if (refusal.code === 'NoSuchKey' || refusal.code === 'NotFound') return undefined;
      throw refusal;
    }
    if (!r.ok) throw await this.refusal(r, what);
    if (range && r.status !== 206) {
      await r.body?.cancel();
      throw new S3Error(`the object store ignored the Range of ${what}`, r.status, 'NoRange');
    }
    return r;
  }

  /** Size and age, or undefined when there is no such object (HEAD: the existence check). */
  async headObject(key: string): Promise<ObjectHead | undefined> {
    const what = `looking up ${key}`;
    const r = await this.call({ method: 'HEAD', key, what });
    if (r.status === 404) return undefined;
    if (!r.ok) throw await this.refusal(r, what);
    return {
      size: Number(r.headers.get('content-length') ?? NaN),
      lastModified: new Date(r.headers.get('last-modified') ?? 0),
    };
  }

  /** Removes the object (S3 answers the same for one that was not there). */
  async deleteObject(key: string): Promise<void> {
    const what = `deleting ${key}`;
    const r = await this.call({ method: 'DELETE', key, what });
    if (!r.ok && r.status !== 404) throw await this.refusal(r, what);
  }

  /** A copy made inside the store (nothing passes through the API); up to 5 GB, S3's limit for one copy. */
  async copyObject(from: string, to: string): Promise<void> {
    const what = `copying ${from} to ${to}`;
    const source = `/${this.settings.bucket}/${from.split('/').map(encodeURIComponent).join('/')}`;
    const r = await this.call({ method: 'PUT', key: to, headers: { 'x-amz-copy-source': source }, what });
    // S3 may answer 200 and put the failure in the body.
    if (!r.ok || !(await r.clone().text()).includes('CopyObjectResult')) throw await this.refusal(r, what);
  }

  async createMultipartUpload(key: string): Promise<string> {
    const what = `starting a multipart upload of ${key}`;
    const r = await this.call({ method: 'POST', key, query: { uploads: '' }, what });
    if (!r.ok) throw await this.refusal(r, what);
    const id = xmlValue(await r.text(), 'UploadId');
    if (!id) throw new S3Error(`the object store answered no UploadId (${what})`, r.status, 'NoUploadId');
    return id;
  }

  /** Sends one part (every part but the last at least 5 MiB, S3's minimum); answers its ETag. */
  async uploadPart(key: string, uploadId: string, part: number, body: Uint8Array): Promise<string> {
    const what = `sending part ${part} of ${key}`;
    const query = { partNumber: String(part), uploadId };
    const r = await this.call({ method: 'PUT', key, query, body, what });
    if (!r.ok) throw await this.refusal(r, what);
    const etag = r.headers.get('etag');
    if (!etag) throw new S3Error(`the object store answered no ETag (${what})`, r.status, 'NoETag');
    return etag;
  }

  /**
   * Joins the parts. Its answer's ETag is not used: Ceph 16 answers an empty one (a known RGW bug), and the bytes
   * were checked part by part (x-amz-content-sha256) and are checked whole by the caller's SHA-256.
   */
  async completeMultipartUpload(key: string, uploadId: string, etags: string[]): Promise<void> {
    const what = `completing the multipart upload of ${key}`;
    const parts = etags.map((etag, i) =>
      `<Part><PartNumber>${i + 1}</PartNumber><ETag>${escapeXml(etag)}</ETag></Part>`
    );
    const body = new TextEncoder().encode(
      `<CompleteMultipartUpload>${parts.join('')}</CompleteMultipartUpload>`,
    );
    const r = await this.call({ method: 'POST', key, query: { uploadId }, body, what });
    // As with a copy, a 200 may carry the failure in its body.
    if (!r.ok || (await r.clone().text()).includes('<Error>')) throw await this.refusal(r, what);
  }

  async abortMultipartUpload(key: string, uploadId: string): Promise<void> {
    const what = `abandoning the multipart upload of ${key}`;
    const r = await this.call({ method: 'DELETE', key, query: { uploadId }, what });
    if (!r.ok && r.status !== 404) throw await this.refusal(r, what);
  }

  /** Every object under `prefix`, a page (1000) at a time. */
  async *listObjects(prefix: string): AsyncIterable<ListedObject> {
    let token: string | undefined;
    do {
      const query: Record<string, string> = { 'list-type': '2', prefix };
      if (token) query['continuation-token'] = token;
      const what = `listing ${prefix}`;
      const r = await this.call({ method: 'GET', query, what });
      if (!r.ok) throw await this.refusal(r, what);
      const text = await r.text();
      for (const block of xmlBlocks(text, 'Contents')) {
        yield {
          key: xmlValue(block, 'Key') ?? '',
          size: Number(xmlValue(block, 'Size') ?? NaN),
          lastModified: new Date(xmlValue(block, 'LastModified') ?? 0),
        };
      }
      token = xmlValue(text, 'IsTruncated') === 'true' ? xmlValue(text, 'NextContinuationToken') : undefined;
    } while (token);
  }

  /**
   * Every version of every object under `prefix` (a bucket with Object Lock is versioned): a DELETE without a
   * version only hides the latest behind a delete marker, and what it hid is still listed here.
   */
  async *listObjectVersions(prefix: string): AsyncIterable<{ key: string; versionId: string }> {
    let markers: Record<string, string> = {};
    for (;;) {
      const what = `listing the versions under ${prefix}`;
      const r = await this.call({ method: 'GET', query: { versions: '', prefix, ...markers }, what });
      if (!r.ok) throw await this.refusal(r, what);
      const text = await r.text();
      for (const block of xmlBlocks(text, 'Version')) {
        yield { key: xmlValue(block, 'Key') ?? '', versionId: xmlValue(block, 'VersionId') ?? '' };
      }
      const key = xmlValue(text, 'NextKeyMarker');
      if (xmlValue(text, 'IsTruncated') !== 'true' || !key) return;
      markers = { 'key-marker': key, 'version-id-marker': xmlValue(text, 'NextVersionIdMarker') ?? '' };
    }
  }

  /** One version's bytes as text, or undefined when there is no such version. */
  async getObjectVersionText(key: string, versionId: string): Promise<string | undefined> {
    const what = `reading ${key} (version ${versionId})`;
    const r = await this.call({ method: 'GET', key, query: { versionId }, what });
    if (r.status === 404) return undefined;
    if (!r.ok) throw await this.refusal(r, what);
    return await r.text();
  }

  /** Multipart uploads under `prefix` that were started and never completed or abandoned. */
  async *listMultipartUploads(
    prefix: string,
  ): AsyncIterable<{ key: string; uploadId: string; initiated: Date }> {
    let markers: Record<string, string> = {};
    for (;;) {
      const what = `listing the unfinished uploads under ${prefix}`;
      const r = await this.call({ method: 'GET', query: { uploads: '', prefix, ...markers }, what });
      if (!r.ok) throw await this.refusal(r, what);
      const text = await r.text();
      for (const block of xmlBlocks(text, 'Upload')) {
        yield {
          key: xmlValue(block, 'Key') ?? '',
          uploadId: xmlValue(block, 'UploadId') ?? '',
          initiated: new Date(xmlValue(block, 'Initiated') ?? 0),
        };
      }
      const key = xmlValue(text, 'NextKeyMarker');
      if (xmlValue(text, 'IsTruncated') !== 'true' || !key) return;
      markers = { 'key-marker': key, 'upload-id-marker': xmlValue(text, 'NextUploadIdMarker') ?? '' };
    }
  }
}

/** 15000 → "15", 500 → "0.5". */
function seconds(ms: number): string {
  return (ms / 1000).toFixed(1).replace(/\.0$/, '');
}

/** The text of the first `<name>` element (S3's answers are flat enough for this), entities decoded. */
export function xmlValue(xml: string, name: string): string | undefined {
  const match = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(xml);
  return match ? unescapeXml(match[1]) : undefined;
}

function xmlBlocks(xml: string, name: string): string[] {
  return [...xml.matchAll(new RegExp(`<${name}>([\\s\\S]*?)</${name}>`, 'g'))].map((m) => m[1]);
}

function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, entity: string) => {
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (entity[0] !== '#') return named[entity.toLowerCase()];
    return String.fromCodePoint(entity[1] === 'x' ? parseInt(entity.slice(2), 16) : Number(entity.slice(1)));
  });
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
