/**
 * BLOB_KEY, the key-encryption key of documents' data keys (docs/operations.md, "Keys"). It is never in the
 * database, the blob store or a backup: the database holds each document's data key wrapped under it, with the id
 * of the key that wrapped it, so a copied database, bucket or backup opens nothing without it.
 *
 * The wrapping key is HKDF-SHA-256 of the configured secret (any text of 32 characters or more, like the other
 * keys), used with AES-256-GCM: a random 12-byte nonce, the stored blob's name as associated data (a wrapped key
 * moved to another blob's row does not open), and the 32-byte data key; stored as nonce || ciphertext || tag.
 */

const encoder = new TextEncoder();

/** The key-encryption key and its id (8 hex digits of its fingerprint), which each wrapped data key carries. */
export interface BlobKek {
  id: string;
  key: CryptoKey;
}

/** The wrapping key of a BLOB_KEY secret, with its id (`fingerprint`: keyFingerprint('BLOB_KEY', secret)). */
export async function blobKek(secret: Uint8Array, fingerprint: string): Promise<BlobKek> {
  const base = await crypto.subtle.importKey('raw', secret as BufferSource, 'HKDF', false, ['deriveKey']);
  const key = await crypto.subtle.deriveKey(
    {
      name: 'HKDF',
      hash: 'SHA-256',
      salt: new Uint8Array(0),
      info: encoder.encode('legal-mail-portal blob key wrapping'),
    },
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
  return { id: fingerprint.slice(0, 8), key };
}

/** The data key wrapped under the KEK for the blob stored as `name`. */
export async function wrapDataKey(kek: BlobKek, dataKey: Uint8Array, name: string): Promise<Uint8Array> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: encoder.encode(`blob ${name}`) },
    kek.key,
    dataKey as BufferSource,
  );
  const out = new Uint8Array(12 + sealed.byteLength);
  out.set(iv);
  out.set(new Uint8Array(sealed), 12);
  return out;
}

/** The data key of the blob `name`, or undefined when the wrapped key does not open under this KEK. */
export async function unwrapDataKey(
  kek: BlobKek,
  wrapped: Uint8Array,
  name: string,
): Promise<Uint8Array | undefined> {
  try {
    return new Uint8Array(
      await crypto.subtle.decrypt(
        {
          name: 'AES-GCM',
          iv: wrapped.subarray(0, 12) as BufferSource,
          additionalData: encoder.encode(`blob ${name}`),
        },
        kek.key,
        wrapped.subarray(12) as BufferSource,
      ),
    );
  } catch {
    return undefined;
  }
}
