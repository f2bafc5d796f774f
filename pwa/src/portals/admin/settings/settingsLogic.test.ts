import assert from 'node:assert/strict';
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
  assert.equal(settingDescription(lockout), 'How long a locked account stays locked');
  assert.ok(matchesSearch(lockout, 'LOCKED account'));
  assert.ok(matchesSearch(lockout, '  '));
  assert.equal(matchesSearch(lockout, 'smtp'), false);
  assert.equal(settingLabel({ key: 'from_a_newer_api' }), 'from_a_newer_api');
});
