import assert from 'node:assert/strict';
import { approvedMessage, APPROVER_TEXTS } from './approverApi.ts';

Deno.test('the approval message shows the temporary password in the spec wording', () => {
  assert.equal(
    approvedMessage('Kx7-p2Qz'),
    'Registration approved successfully! Temporary password: Kx7-p2Qz',
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
