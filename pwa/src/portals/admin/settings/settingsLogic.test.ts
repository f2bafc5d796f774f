import { inLanguage } from '../../../i18n/testing.ts';
import assert from 'node:assert/strict';
import { checkSettingValue } from '../../../../../contract/rules/settings.ts';
import { type SettingKey, SETTINGS } from '../../../../../contract/settings.ts';
import type { Setting } from './settingsApi.ts';
import {
  draftOf,
  formatSettingValue,
  groupSettings,
  matchesSearch,
  parseDraft,
  settingDescription,
  settingLabel,
} from './settingsLogic.ts';

function setting(key: string, category: Setting['category'], value: Setting['value']): Setting {
  return { key, category, description: key, value, updated_at: '2026-01-05T00:00:00Z' };
}

Deno.test('settings are grouped security, system, email, keeping the server order inside a group', () => {
  const groups = groupSettings([
    setting('smtp_host', 'email', { type: 'text', value: '' }),
    setting('max_upload_mb', 'system', { type: 'number', value: 10, unit: 'MB' }),
    setting('lockout_minutes', 'security', { type: 'number', value: 10, unit: 'minutes' }),
    setting('failed_login_limit', 'security', { type: 'number', value: 5, unit: 'attempts' }),
  ]);
  assert.deepEqual(groups.map((g) => g.label), ['Security', 'System', 'Email']);
  assert.deepEqual(groups[0].settings.map((s) => s.key), ['lockout_minutes', 'failed_login_limit']);
  assert.deepEqual(groupSettings([]), [], 'an empty category is not shown');
});

Deno.test('values read with their unit; booleans as Enabled / Disabled; an empty text as Not set', () => {
  assert.equal(formatSettingValue({ type: 'number', value: 30, unit: 'minutes' }), '30 minutes');
  assert.equal(formatSettingValue({ type: 'number', value: 1, unit: 'minutes' }), '1 minute');
  assert.equal(formatSettingValue({ type: 'number', value: 1, unit: 'MB' }), '1 MB');
  assert.equal(formatSettingValue({ type: 'number', value: 25 }), '25');
  assert.equal(formatSettingValue({ type: 'boolean', value: true }), 'Enabled');
  assert.equal(formatSettingValue({ type: 'boolean', value: false }), 'Disabled');
  assert.equal(formatSettingValue({ type: 'text', value: 'DOC' }), 'DOC');
  assert.equal(formatSettingValue({ type: 'text', value: '' }), 'Not set');
});

Deno.test('a number draft is converted to a number and keeps its unit', () => {
  const idle = setting('session_idle_minutes', 'security', { type: 'number', value: 30, unit: 'minutes' });
  assert.equal(draftOf(idle.value), '30');
  assert.deepEqual(parseDraft(idle, ' 15 '), {
    ok: true,
    value: { type: 'number', value: 15, unit: 'minutes' },
  });
  for (const bad of ['', '4.5', 'abc']) {
    assert.deepEqual(parseDraft(idle, bad), { ok: false, message: 'Please enter a whole number' });
  }
});

Deno.test("a value the server would refuse is refused at once, in the server's words", () => {
  const upload = setting('max_upload_mb', 'system', { type: 'number', value: 10, unit: 'MB' });
  const refused = parseDraft(upload, '-3');
  assert.equal(refused.ok, false);
  assert.match(!refused.ok ? refused.message : '', /must be a whole number from 1 to 100/);
  const from = setting('smtp_from', 'email', { type: 'text', value: 'no-reply@localhost' });
  assert.equal(parseDraft(from, 'not an address').ok, false);
});

Deno.test('a boolean is chosen as Enabled or Disabled; text is trimmed', () => {
  const flag = setting('smtp_enabled', 'email', { type: 'boolean', value: false });
  assert.equal(draftOf(flag.value), 'false');
  assert.deepEqual(parseDraft(flag, 'true'), { ok: true, value: { type: 'boolean', value: true } });
  assert.deepEqual(parseDraft(flag, 'false'), { ok: true, value: { type: 'boolean', value: false } });
  const abbreviation = setting('department_abbreviation', 'system', { type: 'text', value: 'DOC' });
  assert.deepEqual(parseDraft(abbreviation, '  WADOC '), {
    ok: true,
    value: { type: 'text', value: 'WADOC' },
  });
});

Deno.test('a setting reads by its label and plain description, and the search finds it by their words', () => {
  const lockout = { key: 'lockout_minutes', description: 'stored before it was reworded' };
  assert.equal(settingLabel(lockout), 'Lockout minutes');
  assert.equal(settingDescription(lockout), 'How long a locked staff account stays locked');
  assert.ok(matchesSearch(lockout, 'LOCKED account'));
  assert.ok(matchesSearch(lockout, '  '));
  assert.equal(matchesSearch(lockout, 'smtp'), false);
  assert.equal(settingLabel({ key: 'from_a_newer_api' }), 'from_a_newer_api');
});

Deno.test("every refusal the API's rules can make reads, in English, as the server's own message", () => {
  const bad: [SettingKey, string][] = [
    ['max_upload_mb', '500'],
    ['failed_login_limit', '9'],
    ['smtp_port', '70000'],
    ['ip_whitelist_when_empty', 'maybe'],
    ['department_abbreviation', 'A name far too long for a title'],
    ['smtp_host', 'bad host!'],
    ['smtp_from', 'nobody'],
    ['mfa_required_roles', 'offender'],
  ];
  for (const [key, draft] of bad) {
    const current = SETTINGS[key];
    const value = setting(key, current.category, {
      type: current.type,
      value: current.default,
      ...('unit' in current ? { unit: current.unit } : {}),
    });
    const refused = parseDraft(value, draft);
    const server = checkSettingValue(key, {
      type: current.type,
      value: current.type === 'number' ? Number(draft) : draft,
    });
    assert.equal(server.ok, false, key);
    assert.deepEqual(refused, { ok: false, message: !server.ok ? server.message : '' }, key);
  }
});

Deno.test('in Spanish: labels, descriptions, categories, values with their units and refusals', async () => {
  await inLanguage('es', () => {
    const lockout = { key: 'lockout_minutes', description: 'x' };
    assert.equal(settingLabel(lockout), 'Minutos de bloqueo');
    assert.equal(settingDescription(lockout), 'Tiempo que una cuenta del personal bloqueada sigue bloqueada');
    assert.ok(matchesSearch(lockout, 'bloqueada'));
    assert.deepEqual(
      groupSettings([setting('smtp_host', 'email', { type: 'text', value: '' })]).map((g) => g.label),
      ['Correo electrónico'],
    );
    assert.equal(formatSettingValue({ type: 'number', value: 30, unit: 'minutes' }), '30 minutos');
    assert.equal(formatSettingValue({ type: 'number', value: 1, unit: 'minutes' }), '1 minuto');
    assert.equal(formatSettingValue({ type: 'number', value: 2000, unit: 'MB' }), '2,000 MB');
    assert.equal(formatSettingValue({ type: 'boolean', value: true }), 'Activado');
    assert.equal(formatSettingValue({ type: 'text', value: '' }), 'Sin definir');
    const idle = setting('session_idle_minutes', 'security', { type: 'number', value: 30, unit: 'minutes' });
    const refused = parseDraft(idle, '45');
    assert.match(
      !refused.ok ? refused.message : '',
      /^El valor de «Minutos de inactividad de la sesión» debe ser un número entero de 5 a 30 \(CJIS/,
    );
  });
});
