import '../../i18n/testing.ts';
import assert from 'node:assert/strict';
import { inLanguage } from '../../i18n/testing.ts';
import { APPROVER_TEXTS, supervisorLabel } from './approverApi.ts';

Deno.test('the approval message names no temporary password: the applicant uses the one they chose', () => {
  assert.equal(
    APPROVER_TEXTS.approved,
    'Registration approved successfully! The applicant signs in with the password they chose when registering.',
  );
  assert.doesNotMatch(APPROVER_TEXTS.approved, /temporary/i);
});

Deno.test('a supervisor match shows name, e-mail and bar', () => {
  assert.equal(
    supervisorLabel({
      id: 'x',
      name: 'Atticus Counsel',
      email: 'attorney@demo.test',
      bar_number: 'MO12345',
      bar_state: 'MO',
    }),
    'Atticus Counsel (attorney@demo.test, bar MO12345 MO)',
  );
});

Deno.test('the approver defaults and empty state use the spec texts', () => {
  assert.equal(APPROVER_TEXTS.fetchFailed, 'Failed to fetch registrations');
  assert.equal(APPROVER_TEXTS.loadFailed, 'Failed to load pending registrations');
  assert.equal(APPROVER_TEXTS.approveFailed, 'Failed to approve registration');
  assert.equal(APPROVER_TEXTS.rejectFailed, 'Failed to reject registration');
  assert.equal(APPROVER_TEXTS.reasonRequired, 'Please provide a rejection reason');
  assert.equal(APPROVER_TEXTS.empty, 'No pending registrations');
});

Deno.test('the approver texts follow the language shown', async () => {
  await inLanguage('es', () => {
    assert.equal(APPROVER_TEXTS.empty, 'No hay registros pendientes');
    assert.match(
      supervisorLabel({ id: 'x', name: 'Ana Díaz', email: 'a@b.test', bar_number: 'MO1', bar_state: 'MO' }),
      /licencia MO1 MO/,
    );
  });
  assert.equal(APPROVER_TEXTS.empty, 'No pending registrations');
});
