/**
 * Password and PIN hashing: PBKDF2-HMAC-SHA256 through WebCrypto, at the OWASP
 * Password Storage Cheat Sheet's 600,000 iterations. WebCrypto needs no native
 * addon (Deno Deploy runs it too) and Deno derives the bits off the main thread,
 * so one login hashing does not freeze the server for other requests.
 *
 * Stored form: `pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>`, so the work
 * factor can rise later without invalidating existing hashes.
 *
 * PINs are peppered: a 6-digit PIN has a million values, so its salted hash alone falls to a stolen database
 * in minutes. PBKDF2 runs over HMAC-SHA256(pepper, PIN), the pepper being a key that is never in the
 * database (PIN_PEPPER, or a secret generated once into DATA_DIR). Stored form:
 * `pbkdf2-sha256-pepper$<key id>$<iterations>$<salt b64>$<hash b64>`; the key id (8 hex digits of the pepper's
 * SHA-256) tells a hash made under another pepper (a mismatched instance) apart from a wrong PIN.
 * A hash without the prefix (made before peppering) still verifies and is re-hashed with the pepper at the next
 * successful sign-in.
 */

import { readOrCreateSecretFile } from '../secret_file.ts';
import { HashingGate, type HashingPlace } from './hashing_gate.ts';

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

/**
 * Derivations running at once in this process: one core fewer than the machine has (at least one). Deno runs
 * each on a thread of its own, so without a bound a burst of sign-ins (two derivations each, about 0.2 s of
 * a core apiece) starves the thread that answers every other request: 50 sign-ins at once pushed the
 * offender's list from tens of milliseconds to seconds (bench:latency).
 */
export const HASHING_SLOTS = Math.max(1, (navigator.hardwareConcurrency ?? 2) - 1);

/**
 * Derivations that may wait for a slot, per slot. A derivation costs about 0.2 s of a core, so a person's sign-in
 * waits behind at most 8 others (under 2 s) before its own; past that the request is refused (503, Retry-After)
 * rather than queued behind a flood (bench/hashing_flood.ts measures both). Legitimate bursts fit: a facility's
 * tablets share one address, which has at most SIGN_INS_IN_FLIGHT_PER_ADDRESS sign-ins in flight, and a sign-in
 * checking a leftover temporary password costs two derivations.
 */
export const HASHING_QUEUE_PER_SLOT = 8;

/**
 * This process's one gate in front of every derivation (api/domain/hashing_gate.ts), its priority line as long as
 * its ordinary one: a facility's tablets at one known address fill at most SIGN_INS_IN_FLIGHT_PER_ADDRESS of it.
 */
export const hashingGate = new HashingGate(HASHING_SLOTS, HASHING_SLOTS * HASHING_QUEUE_PER_SLOT);

/**
 * Derives the hash bits through the gate; throws HashingBusy when it is full, unless `patient` (work no stranger
 * can ask for: it waits its turn however long the line).
 */
async function derive(
  secret: string | Uint8Array,
  salt: Uint8Array,
  options: { iterations: number; patient?: boolean; place?: HashingPlace },
): Promise<Uint8Array> {
  const { iterations } = options;
  return await hashingGate.run(async () => {
    const input = typeof secret === 'string' ? encoder.encode(secret) : secret;
    const key = await crypto.subtle.importKey('raw', input as BufferSource, 'PBKDF2', false, ['deriveBits']);
    const bits = await crypto.subtle.deriveBits(
      { name: 'PBKDF2', hash: 'SHA-256', salt: salt as BufferSource, iterations },
      key,
      HASH_BITS,
    );
    return new Uint8Array(bits);
  }, { patient: options.patient, place: options.place });
}

/**
 * Hashes a password or PIN with a fresh random salt. `patient`: wait in the hashing gate's line however long
 * (work no stranger can ask for: the demo seed, an admin's reset); otherwise HashingBusy when the line is full.
 */
export async function hashSecret(
  secret: string,
  iterations = PBKDF2_ITERATIONS,
  options: { patient?: boolean; place?: HashingPlace } = {},
): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(secret, salt, { iterations, ...options });
  return `pbkdf2-sha256$${iterations}$${toBase64(salt)}$${toBase64(hash)}`;
}

function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

const PEPPERED = 'pbkdf2-sha256-pepper';

/**
 * Checks a secret against a stored hash (peppered or not); a malformed hash never matches. A PIN hashed under
 * `previousPepper` (PIN_PEPPER_PREVIOUS, a rotation under way) verifies under it. `patient` as for `hashSecret`.
 */
export async function verifySecret(
  secret: string,
  stored: string,
  options: { pepper?: Uint8Array; previousPepper?: Uint8Array; place?: HashingPlace; patient?: boolean } = {},
): Promise<boolean> {
  const [scheme, ...parts] = stored.split('$');
  if (scheme === PEPPERED) {
    const [keyId, ...rest] = parts;
    for (const candidate of [options.pepper, options.previousPepper]) {
      if (candidate && keyId === (await pepperKeyId(candidate))) {
        return await verifyParts(await pepperInput(secret, candidate), rest, options);
      }
    }
    return false;
  }
  if (scheme !== 'pbkdf2-sha256') return false;
  return await verifyParts(encoder.encode(secret), parts, options);
}

/** `<iterations>$<salt>$<hash>` against the bytes PBKDF2 runs over. */
async function verifyParts(
  input: Uint8Array,
  parts: string[],
  options: { place?: HashingPlace; patient?: boolean },
): Promise<boolean> {
  if (parts.length !== 3) return false;
  const iterations = Number(parts[0]);
  if (!Number.isInteger(iterations) || iterations < 1) return false;
  const actual = await derive(input, fromBase64(parts[1]), {
    iterations,
    place: options.place,
    patient: options.patient,
  });
  return constantTimeEqual(actual, fromBase64(parts[2]));
}

/** True for a hash made with the pepper; false for one made before (to re-hash at the next sign-in). */
export function isPeppered(stored: string): boolean {
  return stored.startsWith(`${PEPPERED}$`);
}

/** True for a hash made under this very pepper; false for one made before peppering or under another pepper. */
export async function isPepperedUnder(stored: string, pepper: Uint8Array): Promise<boolean> {
  return stored.startsWith(`${PEPPERED}$${await pepperKeyId(pepper)}$`);
}

/** The 8 hex digits that name a pepper in a hash: enough to tell two keys apart, nothing to guess one from. */
export async function pepperKeyId(pepper: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', pepper as BufferSource));
  return Array.from(digest.slice(0, 4), (b) => b.toString(16).padStart(2, '0')).join('');
}

async function pepperInput(pin: string, pepper: Uint8Array): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey(
    'raw',
    pepper as BufferSource,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(pin)));
}

/**
 * Hashes a PIN under the pepper with a fresh random salt (tests pass a lower `iterations`; `patient` as for
 * hashSecret: the roster's import and an admin's PIN reset wait their turn rather than being refused).
 */
export async function hashPin(
  pin: string,
  options: { pepper: Uint8Array; iterations?: number; patient?: boolean; place?: HashingPlace },
): Promise<string> {
  const iterations = options.iterations ?? PBKDF2_ITERATIONS;
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(await pepperInput(pin, options.pepper), salt, {
    iterations,
    patient: options.patient,
    place: options.place,
  });
  return `${PEPPERED}$${await pepperKeyId(options.pepper)}$${iterations}$${toBase64(salt)}$${toBase64(hash)}`;
}

/**
 * The PIN pepper: PIN_PEPPER, or a secret generated once and kept in the data folder (mode 0600), as the
 * session signing key is. Losing it makes every peppered PIN unusable (admins reset them); it is not in the
 * database, so a stolen database or backup does not give up the PINs.
 */
export async function loadPinPepper(pepper: string | undefined, dataDir: string): Promise<Uint8Array> {
  if (pepper) return encoder.encode(pepper);
  return await readOrCreateSecretFile(dataDir, 'pin-pepper');
}

let dummyHash: Promise<string> | undefined;

/**
 * A hash of nothing anyone knows, at the full work factor: checked when the
 * username is unknown so that an unknown user costs the same time as a known one.
 */
export function dummySecretHash(): Promise<string> {
  // A refusal (the gate full) is not kept: the next call makes it again.
  dummyHash ??= hashSecret(crypto.randomUUID(), undefined, { patient: true }).catch((error) => {
    dummyHash = undefined;
    throw error;
  });
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
