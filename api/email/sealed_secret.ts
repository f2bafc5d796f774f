/**
 * A secret an e-mail carries (a set-password code) never rests in the database in clear. The message is queued
 * with a placeholder where the secret goes and the secret sealed beside it with AES-256-GCM under a key derived
 * from MFA_SECRET_KEY (kept in the environment or DATA_DIR, never in the database or its backups); the outbox
 * worker opens it only to hand the message to the relay, then drops it. The recipient's address is the additional
 * data, so a sealed secret copied to another row does not open.
 */

/** Where the secret goes in a queued body; what the stored body shows in its place, before and after sending. */
export const SECRET_PLACEHOLDER = '[code sent by e-mail only]';

const encoder = new TextEncoder();

async function outboxKey(master: Uint8Array): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey('raw', master as BufferSource, 'HKDF', false, ['deriveKey']);
  return await crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(32), info: encoder.encode('lmp outbox secret') },
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

/** The secret sealed for the message to `to`: a 12-byte IV followed by the ciphertext and its tag. */
export async function sealEmailSecret(master: Uint8Array, secret: string, to: string): Promise<Uint8Array> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv, additionalData: encoder.encode(`outbox:${to}`) },
      await outboxKey(master),
      encoder.encode(secret),
    ),
  );
  const out = new Uint8Array(iv.length + sealed.length);
  out.set(iv);
  out.set(sealed, iv.length);
  return out;
}

/** The secret sealed for the message to `to`, or undefined under another key or for a damaged value. */
export async function openEmailSecret(
  master: Uint8Array,
  sealed: Uint8Array,
  to: string,
): Promise<string | undefined> {
  try {
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: sealed.slice(0, 12), additionalData: encoder.encode(`outbox:${to}`) },
      await outboxKey(master),
      sealed.slice(12) as BufferSource,
    );
    return new TextDecoder().decode(plain);
  } catch {
    return undefined;
  }
}

/** A sealed secret moved from one key to another (a rotation of MFA_SECRET_KEY); undefined if `from` does not open it. */
export async function resealEmailSecret(
  keys: { from: Uint8Array; to: Uint8Array },
  sealed: Uint8Array,
  to: string,
): Promise<Uint8Array | undefined> {
  const secret = await openEmailSecret(keys.from, sealed, to);
  return secret === undefined ? undefined : await sealEmailSecret(keys.to, secret, to);
}
