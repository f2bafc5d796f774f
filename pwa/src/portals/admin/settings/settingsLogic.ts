/**
 * The Settings screen's rules (spec sections 2, 4, 8, 9), kept free of React so they can be unit-tested; its
 * texts are the catalogues' (sections `settings` and `settingItems`), in the language shown.
 */
import { t } from 'i18next';
import { checkSettingValue } from '../../../../../contract/rules/settings.ts';
import {
  isSettingKey,
  type SettingCategory,
  type SettingKey,
  SETTINGS,
} from '../../../../../contract/settings.ts';
import { formatNumber } from '../../../lib/format.ts';
import type { Setting, SettingValue } from './settingsApi.ts';

/**
 * The catalogues' section of each setting ('settingItems.<key>': label, description, policy), which holds, in
 * English, the settings catalogue's own words (contract/settings.ts; tests/checks/i18n.test.ts compares them).
 * Its keys are built from the setting's key (scripts/check_i18n.ts DYNAMIC_SECTIONS).
 */
function itemText(key: SettingKey, part: 'label' | 'description' | 'policy'): string {
  return t(`settingItems.${key}.${part}` as 'settingItems.lockout_minutes.label');
}

/** A setting's name on screen: the catalogue's label ('Lockout minutes'), never its key. */
export function settingLabel(setting: Pick<Setting, 'key'>): string {
  return isSettingKey(setting.key) ? itemText(setting.key, 'label') : setting.key;
}

/** The line under it: the catalogue's plain description (a row stored before it was reworded keeps its own). */
export function settingDescription(setting: Pick<Setting, 'key' | 'description'>): string {
  return isSettingKey(setting.key) ? itemText(setting.key, 'description') : setting.description;
}

/** The search box: any of the words typed in the label or the description (or the key, for the manual). */
export function matchesSearch(setting: Pick<Setting, 'key' | 'description'>, query: string): boolean {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const text = `${settingLabel(setting)} ${settingDescription(setting)} ${setting.key}`.toLowerCase();
  return words.every((word) => text.includes(word));
}

/** Spec section 9: the categories (their names' catalogue keys), in screen order. */
export const SETTING_CATEGORIES = [
  { key: 'security', label: 'settings.categories.security' },
  { key: 'system', label: 'settings.categories.system' },
  { key: 'email', label: 'settings.categories.email' },
] as const satisfies readonly { key: SettingCategory; label: string }[];

/** The settings of each category, in the server's order; an unknown category is shown last under its own name. */
export function groupSettings(settings: Setting[]): { key: string; label: string; settings: Setting[] }[] {
  const known: string[] = SETTING_CATEGORIES.map((c) => c.key);
  const extra = [...new Set(settings.map((s) => s.category).filter((c) => !known.includes(c)))];
  return [
    ...SETTING_CATEGORIES.map((category) => ({ key: category.key, label: t(category.label) })),
    ...extra.map((key) => ({ key, label: key.charAt(0).toUpperCase() + key.slice(1) })),
  ]
    .map((category) => ({ ...category, settings: settings.filter((s) => s.category === category.key) }))
    .filter((group) => group.settings.length > 0);
}

/** Each unit of the settings catalogue: a value with it ('30 minutes', '1 minute') and its name alone. */
const UNITS = {
  attempts: { value: 'settings.units.attempts', name: 'settings.unitNames.attempts' },
  minutes: { value: 'settings.units.minutes', name: 'settings.unitNames.minutes' },
  digits: { value: 'settings.units.digits', name: 'settings.unitNames.digits' },
  hours: { value: 'settings.units.hours', name: 'settings.unitNames.hours' },
  registrations: { value: 'settings.units.registrations', name: 'settings.unitNames.registrations' },
  days: { value: 'settings.units.days', name: 'settings.unitNames.days' },
  lookups: { value: 'settings.units.lookups', name: 'settings.unitNames.lookups' },
  documents: { value: 'settings.units.documents', name: 'settings.unitNames.documents' },
  MB: { value: 'settings.units.mb', name: 'settings.unitNames.mb' },
} as const;

function knownUnit(unit: string): unit is keyof typeof UNITS {
  return Object.hasOwn(UNITS, unit);
}

/** A unit's name beside the editor ('minutes'); a unit from a newer API as it came. */
export function unitName(unit: string): string {
  return knownUnit(unit) ? t(UNITS[unit].name) : unit;
}

/**
 * How a value reads: 'Enabled' / 'Disabled', '30 minutes', '1 minute', or the text ('Not set' when empty), in
 * the language shown.
 */
export function formatSettingValue(value: SettingValue, key?: string): string {
  if (value.type === 'boolean') return value.value === true ? t('settings.enabled') : t('settings.disabled');
  if (value.type === 'text') {
    const text = String(value.value ?? '');
    if (key !== undefined && settingChoices(key)) return choiceText(text);
    return text === '' ? t('settings.notSet') : text;
  }
  // A number without a unit is a code rather than a quantity (a port): shown as it is.
  if (!value.unit) return String(value.value ?? '');
  const number = typeof value.value === 'number' ? value.value : Number(value.value);
  const shown = Number.isFinite(number) ? formatNumber(number) : String(value.value ?? '');
  return knownUnit(value.unit)
    ? t(UNITS[value.unit].value, { count: number, value: shown })
    : `${shown} ${value.unit}`;
}

/** Each text rule's message in the catalogues (contract/rules/settings.ts words them in English). */
const TEXT_RULES: Partial<
  Record<
    SettingKey,
    | 'settings.rules.department_abbreviation'
    | 'settings.rules.smtp_host'
    | 'settings.rules.smtp_from'
    | 'settings.rules.mfa_required_roles'
  >
> = {
  department_abbreviation: 'settings.rules.department_abbreviation',
  smtp_host: 'settings.rules.smtp_host',
  smtp_from: 'settings.rules.smtp_from',
  mfa_required_roles: 'settings.rules.mfa_required_roles',
};

/**
 * A refusal of the API's own rules in the language shown: the bounds, the choices and the text rules come from
 * the settings catalogue, so the English is the server's message word for word.
 */
function refusalText(key: SettingKey, value: SettingValue, english: string): string {
  const definition = SETTINGS[key] as (typeof SETTINGS)[SettingKey];
  const name = itemText(key, 'label');
  if (definition.type === 'number' && value.type === 'number') {
    // The bounds as the server writes them (no grouping: a port's 65535 is not a quantity).
    const bounds = { name, min: String(definition.min), max: String(definition.max) };
    return 'policy' in definition
      ? t('settings.outOfRangePolicy', { ...bounds, policy: itemText(key, 'policy') })
      : t('settings.outOfRange', bounds);
  }
  if (definition.type === 'text' && 'choices' in definition) {
    return t('settings.oneOf', { name, choices: definition.choices.map((c) => `'${c}'`).join(', ') });
  }
  const rule = TEXT_RULES[key];
  return rule ? t(rule) : english;
}

/** The words of each choice a setting offers (the stored value is the contract's English word). */
const CHOICE_TEXTS = { deny: 'settings.choices.deny', allow: 'settings.choices.allow' } as const;

/** The values a text setting may take (`ip_whitelist_when_empty`: 'deny', 'allow'), or null for free text. */
export function settingChoices(key: string): readonly string[] | null {
  const definition = SETTINGS[key as SettingKey] as (typeof SETTINGS)[SettingKey] | undefined;
  return definition && definition.type === 'text' && 'choices' in definition ? definition.choices : null;
}

/** A choice's words in the language shown; a choice without any (a newer API's) as stored. */
export function choiceText(choice: string): string {
  return Object.hasOwn(CHOICE_TEXTS, choice) ? t(CHOICE_TEXTS[choice as keyof typeof CHOICE_TEXTS]) : choice;
}

/** The editor's starting text: booleans as 'true' / 'false' (the Enabled / Disabled choice). */
export function draftOf(value: SettingValue): string {
  return String(value.value ?? '');
}

/**
 * The value to save from the editor's text (spec section 4: a number is converted to a number; a boolean is
 * chosen as Enabled or Disabled), checked by the API's own rules (contract/rules/settings.ts) so a refusal
 * shows at once, in the words the server would use. The type and unit stay the setting's own.
 */
export function parseDraft(
  setting: Pick<Setting, 'key' | 'value'>,
  draft: string,
): { ok: true; value: SettingValue } | { ok: false; message: string } {
  const current = setting.value;
  const unit = current.unit ? { unit: current.unit } : {};
  let value: SettingValue;
  if (current.type === 'boolean') value = { type: 'boolean', value: draft === 'true', ...unit };
  else if (current.type === 'number') {
    const trimmed = draft.trim();
    const number = Number(trimmed);
    if (trimmed === '' || !Number.isInteger(number)) {
      return { ok: false, message: t('settings.numberRequired') };
    }
    value = { type: 'number', value: number, ...unit };
  } else value = { type: 'text', value: draft.trim(), ...unit };
  // A key the catalogue does not know is left to the server to judge.
  if (!isSettingKey(setting.key)) return { ok: true, value };
  const check = checkSettingValue(setting.key, value);
  return check.ok
    ? { ok: true, value }
    : { ok: false, message: refusalText(setting.key, value, check.message) };
}
