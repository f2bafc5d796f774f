/**
 * The secrets behind second factors, under the MFA key (MFA_SECRET_KEY, or DATA_DIR/mfa-key): an authenticator
 * app's secret sealed with AES-256-GCM (the factor's id as additional data), recovery codes kept as an HMAC, and
 * the TOTP codes an app shows (RFC 6238). Both keys are derived from the MFA key by HKDF, one per purpose.
 */
import * as OTPAuth from 'otpauth';
import type { Tx } from '../db/client.ts';
import * as db from '../db/mfa.ts';

/** RFC 6238's defaults, which every authenticator app reads from the QR code. */
const TOTP_PERIOD = 30;
const TOTP_DIGITS = 6;
/** One step of clock skew either way (RFC 6238 section 5.2's recommendation). */
const TOTP_WINDOW = 1;
/** 20 bytes: RFC 4226's recommended secret length for HMAC-SHA1. */
export const TOTP_SECRET_BYTES = 20;
export const RECOVERY_CODE_COUNT = 10;
/** 16 base32 characters: 80 random bits each (NIST SP 800-63B asks at least 64 of a look-up secret). */
const RECOVERY_CODE_CHARACTERS = 16;
const ISSUER = 'Legal Mail Portal';
const encoder = new TextEncoder();

async function derivedKey(master: Uint8Array, purpose: string, usage: 'seal' | 'hash'): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey('raw', master as BufferSource, 'HKDF', false, ['deriveKey']);
  const params = { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(32), info: encoder.encode(purpose) };
  return usage === 'seal'
    ? await crypto.subtle.deriveKey(params, base, { name: 'AES-GCM', length: 256 }, false, [
      'encrypt',
      'decrypt',
    ])
    : await crypto.subtle.deriveKey(params, base, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

export async function sealSecret(master: Uint8Array, secret: Uint8Array, aad: string): Promise<Uint8Array> {
  const key = await derivedKey(master, 'lmp totp secret', 'seal');
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv, additionalData: encoder.encode(aad) },
      key,
      secret as BufferSource,
    ),
  );
  const out = new Uint8Array(iv.length + sealed.length);
  out.set(iv);
  out.set(sealed, iv.length);
  return out;
}

export async function openSecret(
  master: Uint8Array,
  sealed: Uint8Array,
  aad: string,
): Promise<Uint8Array | undefined> {
  try {
    const key = await derivedKey(master, 'lmp totp secret', 'seal');
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: sealed.slice(0, 12), additionalData: encoder.encode(aad) },
      key,
      sealed.slice(12) as BufferSource,
    );
    return new Uint8Array(plain);
  } catch {
    return undefined; // another key (MFA_SECRET_KEY changed) or a damaged row: the factor cannot verify
  }
}

/** True when `sealed` (an authenticator app's secret, sealed with the factor's id) opens under `master`. */
export async function opensUnder(master: Uint8Array, sealed: Uint8Array, factorId: string): Promise<boolean> {
  return (await openSecret(master, sealed, factorId)) !== undefined;
}

/**
 * An authenticator app's secret sealed under `from`, sealed again under `to` (the MFA key's rotation);
 * undefined when it does not open under `from`.
 */
export async function resealTotpSecret(
  keys: { from: Uint8Array; to: Uint8Array },
  sealed: Uint8Array,
  factorId: string,
): Promise<Uint8Array | undefined> {
  const secret = await openSecret(keys.from, sealed, factorId);
  return secret && await sealSecret(keys.to, secret, factorId);
}

export const hex = (bytes: ArrayBuffer) =>
  Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');

export async function sha256(text: string): Promise<string> {
  return hex(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
}

/** A recovery code written as typed: base32 letters and digits only, upper case (dashes and spaces ignored). */
function normaliseRecoveryCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '');
}

export async function recoveryCodeHash(master: Uint8Array, userId: string, code: string): Promise<string> {
  const key = await derivedKey(master, 'lmp recovery code', 'hash');
  return hex(
    await crypto.subtle.sign('HMAC', key, encoder.encode(`${userId}:${normaliseRecoveryCode(code)}`)),
  );
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** One new recovery code: 80 random bits as 16 base32 characters in four groups (`ABCD-EFGH-IJKL-MNOP`). */
function newRecoveryCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(RECOVERY_CODE_CHARACTERS));
  const chars = Array.from(bytes, (b) => BASE32[b & 31]).join('');
  return chars.match(/.{4}/g)!.join('-');
}

/** New recovery codes for a user, replacing any earlier ones: the codes to show once. */
export async function issueRecoveryCodes(tx: Tx, master: Uint8Array, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db.replace_recovery_codes(
    tx,
    userId,
    await Promise.all(codes.map((c) => recoveryCodeHash(master, userId, c))),
  );
  return codes;
}

export function totpFor(secret: Uint8Array, label: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD,
    secret: new OTPAuth.Secret({ buffer: secret.slice().buffer }),
  });
}

/** The time step a right code belongs to (within one step of now), or undefined. */
export function totpStep(secret: Uint8Array, code: string): number | undefined {
  const token = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return undefined;
  const now = Date.now();
  const delta = totpFor(secret, 'check').validate({ token, timestamp: now, window: TOTP_WINDOW });
  if (delta === null) return undefined;
  return Math.floor(now / 1000 / TOTP_PERIOD) + delta;
}
