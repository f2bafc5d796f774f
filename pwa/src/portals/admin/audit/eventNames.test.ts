import { inLanguage } from '../../../i18n/testing.ts';
import assert from 'node:assert/strict';
import { eventDisplayName, resourceDisplayName } from './eventNames.ts';

Deno.test('the events named in spec section 9 have their fixed labels', () => {
  assert.equal(eventDisplayName('user_login'), 'User Login');
  assert.equal(eventDisplayName('login_failed'), 'Login Failed');
  assert.equal(eventDisplayName('document_viewed'), 'Document Viewed');
  assert.equal(eventDisplayName('document_printed'), 'Document Printed');
  assert.equal(eventDisplayName('document_uploaded'), 'Document Uploaded');
  assert.equal(eventDisplayName('user_created'), 'User Created');
  assert.equal(eventDisplayName('user_updated'), 'User Updated');
  assert.equal(eventDisplayName('user_deleted'), 'User Deleted');
  assert.equal(eventDisplayName('user_status_updated'), 'User Status Updated');
});

Deno.test('other event types are title-cased with abbreviations in capitals', () => {
  assert.equal(eventDisplayName('registration_approved'), 'Registration Approved');
  assert.equal(eventDisplayName('audit_logs_exported'), 'Audit Logs Exported');
  assert.equal(eventDisplayName('ip_range_added'), 'IP Range Added');
  assert.equal(eventDisplayName('offender_pin_reset'), 'Offender PIN Reset');
  assert.equal(eventDisplayName('account_locked'), 'Account Locked');
});

Deno.test('empty or missing event types show nothing', () => {
  assert.equal(eventDisplayName(''), '');
  assert.equal(eventDisplayName(null), '');
  assert.equal(eventDisplayName(undefined), '');
});

Deno.test('in Spanish, event and resource names are Spanish', async () => {
  await inLanguage('es', () => {
    assert.equal(eventDisplayName('audit_logs_viewed'), 'Registros de auditoría consultados');
    assert.equal(eventDisplayName('registration_submitted'), 'Registro enviado');
    assert.equal(resourceDisplayName('session'), 'sesión');
    assert.equal(resourceDisplayName('user'), 'usuario');
  });
  assert.equal(resourceDisplayName('ip_range'), 'ip_range');
  assert.equal(resourceDisplayName('something_new'), 'something_new');
});
