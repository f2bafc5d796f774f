/**
 * The keys the data depends on, and the database's fingerprint of each (docs/operations.md, "Keys").
 *
 * PINs are hashed under PIN_PEPPER, authenticator apps' secrets sealed under MFA_SECRET_KEY and documents' data
 * keys wrapped under BLOB_KEY; no key is in the database or its backups. The database keeps, for each, HMAC-SHA-256 of a fixed label under the key: it tells
 * the right key from another and gives nothing of the key away. The first start records it; every start compares
 * it and refuses, naming the variable and the DATA_DIR file, when a key does not match, so a restore without its
 * keys stops at once instead of refusing every PIN and code. SESSION_SECRET has none: another one only signs
 * everyone out, and it may be rotated at will (SESSION_SECRET_PREVIOUS).
 */
import type { Config } from '../config.ts';
import type { Tx } from '../db/client.ts';
import {
  count_pins_by_pepper,
  find_any_totp_secret,
  find_key_fingerprint,
  insert_key_fingerprint,
  update_key_fingerprint,
} from '../db/key_fingerprints.ts';
import { find_any_sealed_blob } from '../db/sealed_blobs.ts';
import { type BlobKek, blobKek, unwrapDataKey } from '../blobs/blob_key.ts';
import { readOrCreateSecretFile, readSecretFile } from '../secret_file.ts';
import { opensUnder } from './mfa_secrets.ts';
import { pepperKeyId } from './passwords.ts';

export type DataKeyName = 'PIN_PEPPER' | 'MFA_SECRET_KEY' | 'BLOB_KEY';

/** Each data key's file in DATA_DIR when its variable is unset, and what a wrong one would cost. */
export const DATA_KEYS: Record<DataKeyName, { file: string; costs: string }> = {
  PIN_PEPPER: { file: 'pin-pepper', costs: "every offender's PIN would be refused" },
  MFA_SECRET_KEY: {
    file: 'mfa-key',
    costs: 'every authenticator app and recovery code would be refused',
  },
  BLOB_KEY: { file: 'blob-key', costs: 'no document could be opened' },
};

/** One line of what was found about a key (the start's refusal, the doctor). */
export interface KeyCheck {
  name: string;
  ok: boolean;
  detail: string;
}

export type DataKeys =
  | { ok: true; pinPepper: Uint8Array; mfaKey: Uint8Array; blobKey: BlobKek; checks: KeyCheck[] }
  | { ok: false; checks: KeyCheck[] };

const encoder = new TextEncoder();

/** HMAC-SHA-256 of a fixed label under the key, as hex: what the database keeps of a key. */
export async function keyFingerprint(name: DataKeyName, key: Uint8Array): Promise<string> {
  const hmac = await crypto.subtle.importKey(
    'raw',
    key as BufferSource,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = await crypto.subtle.sign(
    'HMAC',
    hmac,
    encoder.encode(`legal-mail-portal key fingerprint ${name}`),
  );
  return Array.from(new Uint8Array(mac), (b) => b.toString(16).padStart(2, '0')).join('');
}

function configured(config: Config, name: DataKeyName): string | undefined {
  if (name === 'BLOB_KEY') return config.blobKey;
  return name === 'PIN_PEPPER' ? config.pinPepper : config.mfaSecretKey;
}

/** BLOB_KEY's secret as the key-encryption key of documents' data keys. */
export async function blobKekOf(secret: Uint8Array): Promise<BlobKek> {
  return await blobKek(secret, await keyFingerprint('BLOB_KEY', secret));
}

/** Where the key was taken from, in the operator's words. */
export function keySource(config: Config, name: DataKeyName): string {
  return configured(config, name)
    ? `${name} from the environment`
    : `${config.dataDir}/${DATA_KEYS[name].file}, as ${name} is unset`;
}

/**
 * Checks PIN_PEPPER and MFA_SECRET_KEY against the database. `start`: a key neither set nor in DATA_DIR is
 * generated when the data needs no earlier one, a missing fingerprint is recorded, and a pepper rotation
 * (PIN_PEPPER_PREVIOUS matching the record) records the new pepper's. `check` (`npm run doctor`) changes nothing.
 */
export async function checkDataKeys(sql: Tx, config: Config, mode: 'start' | 'check'): Promise<DataKeys> {
  const checks: KeyCheck[] = [];
  const found: Partial<Record<DataKeyName, Uint8Array>> = {};
  for (const name of ['PIN_PEPPER', 'MFA_SECRET_KEY', 'BLOB_KEY'] as const) {
    const result = await checkKey(sql, config, { name, mode });
    checks.push(result.check);
    if (result.key) found[name] = result.key;
  }
  if (checks.some((c) => !c.ok) || !found.PIN_PEPPER || !found.MFA_SECRET_KEY || !found.BLOB_KEY) {
    return { ok: false, checks };
  }
  const blobKey = await blobKekOf(found.BLOB_KEY);
  return { ok: true, pinPepper: found.PIN_PEPPER, mfaKey: found.MFA_SECRET_KEY, blobKey, checks };
}

async function checkKey(
  sql: Tx,
  config: Config,
  { name, mode }: { name: DataKeyName; mode: 'start' | 'check' },
): Promise<{ check: KeyCheck; key?: Uint8Array }> {
  const { file, costs } = DATA_KEYS[name];
  const set = configured(config, name);
  let key = set ? encoder.encode(set) : await readSecretFile(config.dataDir, file);
  const stored = await find_key_fingerprint(sql, name);
  const previous = name === 'PIN_PEPPER' && config.pinPepperPrevious
    ? encoder.encode(config.pinPepperPrevious)
    : undefined;
  const evidence = await dataMadeUnder(sql, name, previous);
  const refuse = (detail: string) => ({ check: { name, ok: false, detail } });

  if (!key) {
    if (stored || evidence.any) {
      return refuse(
        `${name} is not set and ${config.dataDir}/${file} does not exist, but this database's data was made ` +
          `under a key: without it ${costs}. Set ${name} to the installation's key, or put its ${file} file ` +
          `back in DATA_DIR (docs/operations.md, "Keys")`,
      );
    }
    if (mode === 'check') {
      return {
        check: { name, ok: true, detail: `none yet: the first start generates ${config.dataDir}/${file}` },
      };
    }
    key = await readOrCreateSecretFile(config.dataDir, file);
  }

  const fingerprint = await keyFingerprint(name, key);
  const mismatch = () =>
    refuse(
      `${name} does not match this database (${keySource(config, name)}): its data was made under another ` +
        `key, and with this one ${costs}. Start with the installation's ${name} (docs/operations.md, "Keys")`,
    );
  const still = await stillUnderPrevious(sql, previous);
  if (stored === fingerprint) return { check: { name, ok: true, detail: `matches the data${still}` }, key };
  if (stored && previous && stored === await keyFingerprint(name, previous)) {
    if (mode === 'check') {
      return {
        check: {
          name,
          ok: true,
          detail: `PIN_PEPPER_PREVIOUS matches the data; the next start records PIN_PEPPER${still}`,
        },
        key,
      };
    }
    await update_key_fingerprint(sql, name, { from: stored, to: fingerprint });
    return { check: { name, ok: true, detail: `rotated from PIN_PEPPER_PREVIOUS${still}` }, key };
  }
  if (stored) return mismatch();
  // No fingerprint yet (the first start, or the first after an upgrade): the data itself must agree.
  if (evidence.any && !(await evidence.opensUnder(key))) return mismatch();
  if (mode === 'check') {
    return {
      check: { name, ok: true, detail: `matches the data; the next start records its fingerprint` },
      key,
    };
  }
  const recorded = await insert_key_fingerprint(sql, name, fingerprint);
  // Another instance starting at the same time with another key recorded first.
  if (recorded !== fingerprint) return mismatch();
  return { check: { name, ok: true, detail: `fingerprint recorded${still}` }, key };
}

/** Whether data was made under a key already, and whether a given key is the one. */
async function dataMadeUnder(
  sql: Tx,
  name: DataKeyName,
  previous: Uint8Array | undefined,
): Promise<{ any: boolean; opensUnder: (key: Uint8Array) => Promise<boolean> }> {
  if (name === 'PIN_PEPPER') {
    const pins = await count_pins_by_pepper(sql);
    const previousId = previous && await pepperKeyId(previous);
    return {
      any: pins.size > 0,
      opensUnder: async (key) => pins.has(await pepperKeyId(key)) || (!!previousId && pins.has(previousId)),
    };
  }
  if (name === 'BLOB_KEY') {
    const row = await find_any_sealed_blob(sql);
    return {
      any: !!row,
      opensUnder: async (key) =>
        !row || !!(await unwrapDataKey(await blobKekOf(key), row.wrapped_key, row.name)),
    };
  }
  const sealed = await find_any_totp_secret(sql);
  return {
    any: !!sealed,
    opensUnder: async (key) => !sealed || await opensUnder(key, sealed.sealed, sealed.id),
  };
}

/** `; N PIN(s) still hashed under PIN_PEPPER_PREVIOUS …` while a pepper rotation is under way, else ''. */
async function stillUnderPrevious(sql: Tx, previous: Uint8Array | undefined): Promise<string> {
  if (!previous) return '';
  const n = (await count_pins_by_pepper(sql)).get(await pepperKeyId(previous)) ?? 0;
  return n
    ? `; ${n} PIN(s) still hashed under PIN_PEPPER_PREVIOUS (keep it until none is)`
    : '; no PIN is hashed under PIN_PEPPER_PREVIOUS any more: remove it';
}

/** The start's refusal: each key that does not match, one per line. */
export function keyRefusal(keys: DataKeys): string {
  const failing = keys.checks.filter((c) => !c.ok);
  const names = failing.map((c) => c.name);
  const listed = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0];
  return `Refusing to start: ${listed} ${failing.length > 1 ? 'do' : 'does'} not match this database.\n${
    failing.map((c) => `  ${c.detail}`).join('\n')
  }`;
}
