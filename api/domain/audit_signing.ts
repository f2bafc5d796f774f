/**
 * The Ed25519 key the audit log's checkpoints are signed with (WebCrypto's Ed25519: no library). Its private half
 * is never in the database: AUDIT_SIGNING_KEY (a 32-byte seed as 64 hex characters) or a seed generated once into
 * DATA_DIR/audit-signing-key. Anyone may have the public half (GET /api/audit/public-key, `npm run doctor`).
 */
import { readOrCreateSecretFile, readSecretFile } from '../secret_file.ts';

/** The generated key's file in DATA_DIR. */
export const AUDIT_KEY_FILE = 'audit-signing-key';

/** PKCS #8's fixed wrapping of an Ed25519 seed (RFC 8410): WebCrypto imports a private key only wrapped. */
const PKCS8_ED25519_PREFIX = [
  0x30,
  0x2e,
  0x02,
  0x01,
  0x00,
  0x30,
  0x05,
  0x06,
  0x03,
  0x2b,
  0x65,
  0x70,
  0x04,
  0x22,
  0x04,
  0x20,
];

export interface AuditSigner {
  /** The public key: 32 bytes, base64. */
  publicKey: string;
  /** Where the private key came from, for messages ("AUDIT_SIGNING_KEY", the file's path). */
  source: string;
  sign(message: string): Promise<string>;
}

/** The signer from AUDIT_SIGNING_KEY, else the seed in DATA_DIR (created when `create` and missing). */
export async function loadAuditSigner(
  config: { auditSigningKey?: string; dataDir: string },
  options: { create?: boolean } = {},
): Promise<AuditSigner | undefined> {
  let hex: string;
  let source: string;
  if (config.auditSigningKey) {
    hex = config.auditSigningKey;
    source = 'AUDIT_SIGNING_KEY';
  } else {
    const bytes = options.create === false
      ? await readSecretFile(config.dataDir, AUDIT_KEY_FILE)
      : await readOrCreateSecretFile(config.dataDir, AUDIT_KEY_FILE);
    if (!bytes) return undefined;
    hex = new TextDecoder().decode(bytes);
    source = `${config.dataDir}/${AUDIT_KEY_FILE}`;
  }
  return await signerFromSeed(hex, source);
}

/** A signer for a 64-hex-character seed. */
export async function signerFromSeed(hex: string, source: string): Promise<AuditSigner> {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) {
    throw new Error(`${source} must be 64 hexadecimal characters (openssl rand -hex 32)`);
  }
  const seed = hex.match(/../g)!.map((b) => parseInt(b, 16));
  const key = await crypto.subtle.importKey(
    'pkcs8',
    new Uint8Array([...PKCS8_ED25519_PREFIX, ...seed]),
    { name: 'Ed25519' },
    true,
    ['sign'],
  );
  const jwk = await crypto.subtle.exportKey('jwk', key);
  const publicKey = base64FromBase64url(jwk.x!);
  return {
    publicKey,
    source,
    async sign(message: string) {
      const signature = await crypto.subtle.sign('Ed25519', key, new TextEncoder().encode(message));
      return toBase64(new Uint8Array(signature));
    },
  };
}

/** Whether `signature` (base64) is `publicKey`'s (base64) over `message`; false for anything malformed. */
export async function verifySignature(
  publicKey: string,
  message: string,
  signature: string,
): Promise<boolean> {
  try {
    const key = await crypto.subtle.importKey('raw', fromBase64(publicKey), { name: 'Ed25519' }, false, [
      'verify',
    ]);
    return await crypto.subtle.verify(
      'Ed25519',
      key,
      fromBase64(signature),
      new TextEncoder().encode(message),
    );
  } catch {
    return false;
  }
}

/** A short fingerprint of a public key, to tell keys apart in messages: SHA-256's first 8 bytes as hex. */
export async function keyFingerprint(publicKey: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', fromBase64(publicKey)));
  return Array.from(digest.slice(0, 8), (b) => b.toString(16).padStart(2, '0')).join('');
}

function toBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

function base64FromBase64url(text: string): string {
  const plain = text.replace(/-/g, '+').replace(/_/g, '/');
  return plain + '='.repeat((4 - (plain.length % 4)) % 4);
}

/** JSON with every object's keys sorted and no spaces: one text for one value. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
