/**
 * Encryption at rest of the offline cache, through WebCrypto only. Every record is AES-256-GCM under the
 * session's data key with a fresh 96-bit IV, and the record's store and id as additional authenticated data, so
 * a record moved to another id or store fails its check instead of showing the wrong document. The data key is
 * used only as a non-extractable CryptoKey; what the tablet keeps is that key wrapped (AES-GCM) under a key
 * derived from the offender's PIN by PBKDF2-SHA256, with a random salt kept beside it.
 */

/**
 * PBKDF2-SHA256 iterations for the PIN: OWASP's figure for PBKDF2-HMAC-SHA256. Measured by crypto.test.ts
 * ("PBKDF2 cost"): 85 ms for one derivation on this build machine's core when idle, 190-360 ms under load; a
 * tablet's slower core takes a few times that, paid once per unlock or sign-in (not measured on a tablet yet).
 * Stored beside each wrapped key, so raising it later keeps older wraps readable.
 */
export const PIN_ITERATIONS = 600_000;

const DATA_KEY_BYTES = 32;
const IV_BYTES = 12;
const SALT_BYTES = 16;
const encoder = new TextEncoder();

/** A record as IndexedDB keeps it: only the IV and the ciphertext (with its GCM tag) are stored. */
export interface SealedRecord {
  id: string;
  iv: Uint8Array<ArrayBuffer>;
  data: Uint8Array<ArrayBuffer>;
  /** Random bytes that make the stored value big enough to be written as a file of its own (SEALED_MIN_BYTES). */
  pad?: Uint8Array<ArrayBuffer>;
}

/**
 * The least a sealed record weighs when stored: 80 KiB. Chromium writes an IndexedDB value above 64 KiB
 * (Blink's wrapping threshold) to a blob file of its own, which is unlinked when the record or the database is
 * deleted; a smaller value goes into the LevelDB log, where a deleted record's bytes stay until a compaction that
 * may never come. Padded past it, no sealed record outlives its deletion on the tablet's disk (checked by
 * tests/e2e/offline_tablet's scan of the profile). The padding is random, so no compression shrinks it back.
 */
export const SEALED_MIN_BYTES = 80 * 1024;

/** Random bytes, in the 64 KiB pieces getRandomValues allows. */
export function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  for (let at = 0; at < length; at += 65536) crypto.getRandomValues(bytes.subarray(at, at + 65536));
  return bytes;
}

/** The data key wrapped under the PIN, and what is needed to unwrap it with the right PIN. */
export interface WrappedKey {
  wrapped: Uint8Array<ArrayBuffer>;
  iv: Uint8Array<ArrayBuffer>;
  salt: Uint8Array<ArrayBuffer>;
  iterations: number;
}

/** Decodes base64url (no padding needed); null when it is not base64url. */
export function fromBase64url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(text)) return null;
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  try {
    const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}

/** The raw 32 bytes of OfflineKey.key; null when the server sent anything else. */
export function dataKeyBytes(key: string): Uint8Array<ArrayBuffer> | null {
  const bytes = fromBase64url(key);
  return bytes && bytes.length === DATA_KEY_BYTES ? bytes : null;
}

/** The data key for use: non-extractable, so no script can read it back out of the CryptoKey. */
export function importDataKey(raw: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', raw, { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);
}

/** The additional authenticated data of one record: its store and id (and this format's version). */
export function recordAad(store: string, id: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(`legal-mail/v1/${store}/${id}`);
}

export async function seal(
  key: CryptoKey,
  store: string,
  id: string,
  plaintext: Uint8Array<ArrayBuffer>,
): Promise<SealedRecord> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const data = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: recordAad(store, id) },
    key,
    plaintext,
  );
  const sealed: SealedRecord = { id, iv, data: new Uint8Array(data) };
  const short = SEALED_MIN_BYTES - sealed.data.byteLength;
  if (short > 0) sealed.pad = randomBytes(short);
  return sealed;
}

/** The plaintext of a record read from `store`; null when the key, the store, the id or a byte is wrong. */
export async function unseal(
  key: CryptoKey,
  store: string,
  record: SealedRecord,
): Promise<Uint8Array<ArrayBuffer> | null> {
  try {
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: record.iv, additionalData: recordAad(store, record.id) },
      key,
      record.data,
    );
    return new Uint8Array(plain);
  } catch {
    return null;
  }
}

/** The wrap's additional data binds it to its owner: a wrap copied into another user's meta does not open. */
function wrapAad(userId: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(`legal-mail/v1/data-key/${userId}`);
}

async function pinKey(pin: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey('raw', encoder.encode(pin), 'PBKDF2', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt, iterations },
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'unwrapKey'],
  );
}

/** Wraps the raw data key under the PIN (a fresh salt and IV each time). */
export async function wrapDataKey(
  raw: Uint8Array<ArrayBuffer>,
  pin: string,
  userId: string,
  iterations = PIN_ITERATIONS,
): Promise<WrappedKey> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const kek = await pinKey(pin, salt, iterations);
  const wrapped = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: wrapAad(userId) },
    kek,
    raw,
  );
  return { wrapped: new Uint8Array(wrapped), iv, salt, iterations };
}

/**
 * The data key, unwrapped straight into a non-extractable CryptoKey (its bytes never reach script); null when
 * the PIN (or the owner) is wrong: the GCM tag does not verify.
 */
export async function unwrapDataKey(
  wrap: WrappedKey,
  pin: string,
  userId: string,
): Promise<CryptoKey | null> {
  try {
    const kek = await pinKey(pin, wrap.salt, wrap.iterations);
    return await crypto.subtle.unwrapKey(
      'raw',
      wrap.wrapped,
      kek,
      { name: 'AES-GCM', iv: wrap.iv, additionalData: wrapAad(userId) },
      { name: 'AES-GCM' },
      false,
      ['encrypt', 'decrypt'],
    );
  } catch {
    return null;
  }
}
