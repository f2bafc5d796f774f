/** The Settings screen's rules (spec sections 2, 4, 8, 9), kept free of React so they can be unit-tested. */
import { checkSettingValue } from '../../../../../contract/rules/settings.ts';
import { isSettingKey, type SettingCategory, SETTINGS } from '../../../../../contract/settings.ts';
import type { Setting, SettingValue } from './settingsApi.ts';

export const SETTINGS_TEXTS = {
  title: 'System Settings',
  updated: 'Setting updated successfully',
  updateFailed: 'Failed to update setting',
  updateError: 'Error updating setting',
  loadFailed: 'Failed to load settings',
  loadError: 'Error loading settings',
  numberRequired: 'Please enter a whole number',
  empty: 'No settings configured',
  search: 'Search settings',
  noMatch: 'No setting matches the search',
} as const;

/** A setting's name on screen: the catalogue's label ('Lockout minutes'), never its key. */
export function settingLabel(setting: Pick<Setting, 'key'>): string {
  return isSettingKey(setting.key) ? SETTINGS[setting.key].label : setting.key;
}

/** The line under it: the catalogue's plain description (a row stored before it was reworded keeps its own). */
export function settingDescription(setting: Pick<Setting, 'key' | 'description'>): string {
  return isSettingKey(setting.key) ? SETTINGS[setting.key].description : setting.description;
}

/** The search box: any of the words typed in the label or the description (or the key, for the manual). */
export function matchesSearch(setting: Pick<Setting, 'key' | 'description'>, query: string): boolean {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const text = `${settingLabel(setting)} ${settingDescription(setting)} ${setting.key}`.toLowerCase();
  return words.every((word) => text.includes(word));
}

/** Spec section 9: the categories, in screen order. */
export const SETTING_CATEGORIES = [
  { key: 'security', label: 'Security' },
  { key: 'system', label: 'System' },
  { key: 'email', label: 'Email' },
] as const satisfies readonly { key: SettingCategory; label: string }[];

/** The settings of each category, in the server's order; an unknown category is shown last under its own name. */
export function groupSettings(settings: Setting[]): { key: string; label: string; settings: Setting[] }[] {
  const known: string[] = SETTING_CATEGORIES.map((c) => c.key);
  const extra = [...new Set(settings.map((s) => s.category).filter((c) => !known.includes(c)))];
  return [
    ...SETTING_CATEGORIES,
    ...extra.map((key) => ({ key, label: key.charAt(0).toUpperCase() + key.slice(1) })),
  ]
    .map((category) => ({ ...category, settings: settings.filter((s) => s.category === category.key) }))
    .filter((group) => group.settings.length > 0);
}

/** How a value reads: 'Enabled' / 'Disabled', '30 minutes', '1 minute', or the text ('Not set' when empty). */
export function formatSettingValue(value: SettingValue): string {
  if (value.type === 'boolean') return value.value === true ? 'Enabled' : 'Disabled';
  const text = String(value.value ?? '');
  if (value.type === 'text') return text === '' ? 'Not set' : text;
  if (!value.unit) return text;
  // '1 minute', not '1 minutes': every plural unit of the settings ends in s ('MB' has no plural).
  const unit = value.value === 1 && value.unit.endsWith('s') ? value.unit.slice(0, -1) : value.unit;
  return `${text} ${unit}`;
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
      return { ok: false, message: SETTINGS_TEXTS.numberRequired };
    }
    value = { type: 'number', value: number, ...unit };
  } else value = { type: 'text', value: draft.trim(), ...unit };
  // A key the catalogue does not know is left to the server to judge.
  if (!isSettingKey(setting.key)) return { ok: true, value };
  const check = checkSettingValue(setting.key, value);
  return check.ok ? { ok: true, value } : check;
}
