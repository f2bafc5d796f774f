/**
 * What each setting may hold. A new value must have the setting's own type (contract/settings.ts); numbers
 * are whole numbers within the catalogue's bounds; text is checked per key. Pure: the route and the PWA's messages come from here.
 */
import { parseAddress } from './ip_ranges.ts';
import { type SettingKey, SETTINGS, type SettingType, type SettingValue } from '../settings.ts';

export interface SettingValueInput {
  type: SettingType;
  value: unknown;
  unit?: string;
}

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

/** The roles that may be required to use a second factor (offenders sign in with a PIN on a facility tablet). */
export const MFA_ROLES = ['admin', 'approver', 'attorney', 'representative'] as const;

/**
 * The roles a `mfa_required_roles` value names, in catalogue order, or undefined when it names something else.
 * Empty and 'none' name none.
 */
export function parseMfaRoles(value: string): string[] | undefined {
  const named = value.split(',').map((r) => r.trim().toLowerCase()).filter((r) => r !== '' && r !== 'none');
  if (!named.every((r) => (MFA_ROLES as readonly string[]).includes(r))) return undefined;
  return MFA_ROLES.filter((r) => named.includes(r));
}

const ABBREVIATION = /^[A-Za-z0-9 .&-]{1,12}$/;

/** Per-key text rules: a message naming the rule when the (trimmed) value breaks it. */
const TEXT_RULES: Partial<Record<SettingKey, (value: string) => string | undefined>> = {
  department_abbreviation: (v) =>
    ABBREVIATION.test(v)
      ? undefined
      : "Department abbreviation must be 1 to 12 characters: letters, digits, spaces, '.', '&' or '-'.",
  smtp_host: (v) =>
    v === '' || isHostName(v) ? undefined : 'SMTP host must be empty or a host name or IP address.',
  smtp_from: (v) => isMailbox(v) ? undefined : 'SMTP sender must be an e-mail address.',
  mfa_required_roles: (v) =>
    parseMfaRoles(v)
      ? undefined
      : "Roles that must use a second factor must be 'none' or a comma-separated list of: admin, approver, attorney, representative.",
};

/** Per-key text written in one form (a role list in catalogue order, 'none' as empty). */
const TEXT_FORMS: Partial<Record<SettingKey, (value: string) => string>> = {
  mfa_required_roles: (v) => parseMfaRoles(v)!.join(','),
};

export type SettingCheck = { ok: true; value: SettingValue } | { ok: false; message: string };

/**
 * Checks a new value for the setting `key`. Returns the value to store: the catalogue's type and unit are
 * kept (a client cannot change what a setting is), text is trimmed.
 */
export function checkSettingValue(key: SettingKey, input: SettingValueInput): SettingCheck {
  const definition = SETTINGS[key] as (typeof SETTINGS)[SettingKey];
  const name = definition.label;
  if (input.type !== definition.type) {
    return { ok: false, message: `${name} is a ${definition.type} setting.` };
  }
  if (definition.type === 'boolean') {
    if (typeof input.value !== 'boolean') return { ok: false, message: `${name} must be true or false.` };
    return { ok: true, value: { type: 'boolean', value: input.value } };
  }
  if (definition.type === 'number') {
    const n = input.value;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < definition.min || n > definition.max) {
      const policy = 'policy' in definition ? ` (${definition.policy})` : '';
      return {
        ok: false,
        message: `${name} must be a whole number from ${definition.min} to ${definition.max}${policy}.`,
      };
    }
    const unit = 'unit' in definition ? { unit: definition.unit } : {};
    return { ok: true, value: { type: 'number', value: n, ...unit } };
  }
  if (typeof input.value !== 'string') return { ok: false, message: `${name} must be text.` };
  const text = input.value.trim();
  if (text.length > DEFAULT_TEXT_MAX) {
    return { ok: false, message: `${name} must be at most ${DEFAULT_TEXT_MAX} characters.` };
  }
  const choices = 'choices' in definition ? definition.choices as readonly string[] : undefined;
  if (choices && !choices.includes(text)) {
    return { ok: false, message: `${name} must be one of: ${choices.map((c) => `'${c}'`).join(', ')}.` };
  }
  const problem = TEXT_RULES[key]?.(text);
  if (problem) return { ok: false, message: problem };
  return { ok: true, value: { type: 'text', value: TEXT_FORMS[key]?.(text) ?? text } };
}
