import '../../i18n/testing.ts';
import assert from 'node:assert/strict';
import { t } from 'i18next';
import { ADMIN_SECTIONS, sectionForPath, sectionsFor } from './sections.ts';

Deno.test('the admin sidebar lists Users, Entities, Audit Logs, Settings, IP Whitelist in that order', () => {
  assert.deepEqual(ADMIN_SECTIONS.map((s) => t(s.label)), [
    'Users',
    'Entities',
    'Audit Logs',
    'Settings',
    'IP Whitelist',
  ]);
});

Deno.test('the selected sidebar section follows the path, the dashboard being the default', () => {
  assert.equal(sectionForPath('/portal/admin'), null);
  assert.equal(sectionForPath('/portal/admin/'), null);
  assert.equal(sectionForPath('/portal/admin/audit-logs'), 'audit-logs');
  assert.equal(sectionForPath('/portal/admin/users/42'), 'users');
  assert.equal(sectionForPath('/portal/admin/unknown'), null);
});

Deno.test("an entity's own admin sees no Settings: the installation's settings are the department's", () => {
  assert.deepEqual(sectionsFor(true).map((s) => s.key), ADMIN_SECTIONS.map((s) => s.key));
  assert.deepEqual(sectionsFor(false).map((s) => t(s.label)), [
    'Users',
    'Entities',
    'Audit Logs',
    'IP Whitelist',
  ]);
});
