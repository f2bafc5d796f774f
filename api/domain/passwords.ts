/**
 * Password and PIN hashing: PBKDF2-HMAC-SHA256 through WebCrypto, at the OWASP
 * Password Storage Cheat Sheet's 600,000 iterations. WebCrypto needs no native
 * addon (Deno Deploy runs it too) and Deno derives the bits off the main thread,
 * so one login hashing does not freeze the server for other requests.
 *
 * Stored form: `pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>`, so the work
 * factor can rise later without invalidating existing hashes.
 */

/** OWASP Password Storage Cheat Sheet, PBKDF2-HMAC-SHA256. */
export const PBKDF2_ITERATIONS = 600_000;
const SALT_BYTES = 16;
const HASH_BITS = 256;

const encoder = new TextEncoder();

function toBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

async function derive(secret: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt: salt as BufferSource, iterations },
    key,
    HASH_BITS,
  );
  return new Uint8Array(bits);
}

/** Hashes a password or PIN with a fresh random salt. */
export async function hashSecret(secret: string, iterations = PBKDF2_ITERATIONS): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(secret, salt, iterations);
  return `pbkdf2-sha256$${iterations}$${toBase64(salt)}$${toBase64(hash)}`;
}

function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

/** Checks a secret against a stored hash; a malformed hash never matches. */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 4 || parts[0] !== 'pbkdf2-sha256') return false;
  const iterations = Number(parts[1]);
  if (!Number.isInteger(iterations) || iterations < 1) return false;
  const actual = await derive(secret, fromBase64(parts[2]), iterations);
  return constantTimeEqual(actual, fromBase64(parts[3]));
}

let dummyHash: Promise<string> | undefined;

/**
 * A hash of nothing anyone knows, at the full work factor: checked when the
 * username is unknown so that an unknown user costs the same time as a known one.
 */
export function dummySecretHash(): Promise<string> {
  dummyHash ??= hashSecret(crypto.randomUUID());
  return dummyHash;
}

const TEMP_PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';

/**
 * A one-time password an approver reads to the attorney: 12 characters from an
 * alphabet without look-alikes (about 69 bits), grouped in fours for reading aloud.
 */
export function generateTemporaryPassword(): string {
  const chars: string[] = [];
  const bytes = crypto.getRandomValues(new Uint8Array(64));
  for (const byte of bytes) {
    // Rejection sampling keeps every character equally likely.
    if (byte >= TEMP_PASSWORD_ALPHABET.length * 4) continue;
    chars.push(TEMP_PASSWORD_ALPHABET[byte % TEMP_PASSWORD_ALPHABET.length]);
    if (chars.length === 12) break;
  }
  const body = chars.join('');
  return `${body.slice(0, 4)}-${body.slice(4, 8)}-${body.slice(8, 12)}`;
}
