/**
 * What each setting may hold. A new value must have the setting's own type; numbers are whole numbers in
 * the key's range; text is checked per key. Pure: the route and the PWA's messages come from here.
 */
import { parseAddress } from './ip_ranges.ts';

export type SettingType = 'number' | 'boolean' | 'text';

export interface SettingValueInput {
  type: SettingType;
  value: unknown;
  unit?: string;
}

export interface StoredSettingValue {
  type: SettingType;
  value: number | boolean | string;
  unit?: string;
}

/**
 * Integer ranges. The floors keep the system usable (an idle timeout under 5 minutes signs people out while
 * they read); the ceilings keep a typo from switching a protection off (a lock of 1440 minutes is a day).
 */
export const NUMBER_RANGES: Record<string, { min: number; max: number }> = {
  failed_login_limit: { min: 1, max: 100 },
  lockout_minutes: { min: 1, max: 1440 },
  session_idle_minutes: { min: 5, max: 1440 },
  session_max_hours: { min: 1, max: 72 },
  document_retention_days: { min: 1, max: 3650 },
  max_upload_mb: { min: 1, max: 100 },
  smtp_port: { min: 1, max: 65535 },
};

/** Settings without a range of their own: any whole number from 0 to this. */
const DEFAULT_NUMBER_MAX = 1_000_000;
const DEFAULT_TEXT_MAX = 500;

const HOST_LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;

/** A DNS host name (RFC 1123 labels) or an IPv4 / IPv6 address. */
export function isHostName(value: string): boolean {
  if (parseAddress(value.replace(/^\[(.*)\]$/, '$1'))) return true;
  if (value.length > 253) return false;
  const labels = value.split('.');
  // An all-digit last label is a mistyped IPv4 address (1.2.3.999), never a top-level domain.
  if (/^\d+$/.test(labels[labels.length - 1])) return false;
  return labels.every((label) => HOST_LABEL.test(label));
}

/**
 * A bare e-mail address usable as an SMTP sender: no spaces, angle brackets or line breaks (which would let
 * a value inject SMTP commands or headers), and a host name after the @ (`no-reply@localhost` included).
 */
export function isMailbox(value: string): boolean {
  const at = value.lastIndexOf('@');
  if (at < 1 || value.length > 254) return false;
  const local = value.slice(0, at);
  return local.length <= 64 && /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+$/.test(local) &&
    isHostName(value.slice(at + 1));
}

const ABBREVIATION = /^[A-Za-z0-9 .&-]{1,12}$/;

/** Per-key text rules: a message naming the rule when the (trimmed) value breaks it. */
const TEXT_RULES: Record<string, (value: string) => string | undefined> = {
  department_abbreviation: (v) =>
    ABBREVIATION.test(v)
      ? undefined
      : "Department abbreviation must be 1 to 12 characters: letters, digits, spaces, '.', '&' or '-'.",
  smtp_host: (v) =>
    v === '' || isHostName(v) ? undefined : 'SMTP host must be empty or a host name or IP address.',
  smtp_from: (v) => isMailbox(v) ? undefined : 'SMTP sender must be an e-mail address.',
};

/** How messages name a setting; any other key is spelled out from its name. */
const LABELS: Record<string, string> = {
  session_max_hours: 'Session maximum hours',
  max_upload_mb: 'Maximum upload size in MB',
  smtp_enabled: 'SMTP enabled',
  smtp_host: 'SMTP host',
  smtp_port: 'SMTP port',
  smtp_from: 'SMTP sender',
};

/** 'session_idle_minutes' → 'Session idle minutes'. */
function label(key: string): string {
  if (LABELS[key]) return LABELS[key];
  const words = key.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export type SettingCheck = { ok: true; value: StoredSettingValue } | { ok: false; message: string };

/**
 * Checks a new value for the setting `key` whose stored value is `stored`. Returns the value to store: the
 * stored type and unit are kept (a client cannot change what a setting is), text is trimmed.
 */
export function checkSettingValue(
  key: string,
  stored: StoredSettingValue,
  input: SettingValueInput,
): SettingCheck {
  const name = label(key);
  if (input.type !== stored.type) return { ok: false, message: `${name} is a ${stored.type} setting.` };
  const keep = stored.unit !== undefined ? { unit: stored.unit } : {};
  if (stored.type === 'boolean') {
    if (typeof input.value !== 'boolean') return { ok: false, message: `${name} must be true or false.` };
    return { ok: true, value: { type: 'boolean', value: input.value } };
  }
  if (stored.type === 'number') {
    const range = NUMBER_RANGES[key] ?? { min: 0, max: DEFAULT_NUMBER_MAX };
    const n = input.value;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < range.min || n > range.max) {
      return { ok: false, message: `${name} must be a whole number from ${range.min} to ${range.max}.` };
    }
    return { ok: true, value: { type: 'number', value: n, ...keep } };
  }
  if (typeof input.value !== 'string') return { ok: false, message: `${name} must be text.` };
  const text = input.value.trim();
  if (text.length > DEFAULT_TEXT_MAX) {
    return { ok: false, message: `${name} must be at most ${DEFAULT_TEXT_MAX} characters.` };
  }
  const problem = TEXT_RULES[key]?.(text);
  if (problem) return { ok: false, message: problem };
  return { ok: true, value: { type: 'text', value: text, ...keep } };
}
