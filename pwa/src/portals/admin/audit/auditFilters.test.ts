import '../../../i18n/testing.ts';
import assert from 'node:assert/strict';
import {
  auditQuery,
  countActiveFilters,
  defaultExportName,
  emptyAuditText,
  formatEventData,
  mergeEventTypes,
  NO_FILTERS,
  userChoiceLabel,
  userIdTyped,
} from './auditFilters.ts';

Deno.test('the badge counts the filters that are set, ignoring blanks', () => {
  assert.equal(countActiveFilters(NO_FILTERS), 0);
  assert.equal(countActiveFilters({ ...NO_FILTERS, startDate: '2025-01-05', userId: '  ' }), 1);
  assert.equal(
    countActiveFilters({
      startDate: '2025-01-05',
      endDate: '2025-01-06',
      eventType: 'user_login',
      userId: 'x',
    }),
    4,
  );
});

Deno.test('the query carries only set filters and the cursor', () => {
  assert.equal(auditQuery(NO_FILTERS), '');
  assert.equal(
    auditQuery({ ...NO_FILTERS, eventType: 'user_login' }, '42'),
    '?eventType=user_login&cursor=42',
  );
  assert.equal(auditQuery({ ...NO_FILTERS, userId: ' a b ' }), '?userId=a+b');
});

Deno.test('the empty state says whether filters are applied', () => {
  assert.equal(emptyAuditText(NO_FILTERS), 'No audit logs found');
  assert.equal(
    emptyAuditText({ ...NO_FILTERS, endDate: '2025-01-01' }),
    'No audit logs found matching the current filters',
  );
});

Deno.test('without a server file name the download takes the spec name for today', () => {
  assert.equal(defaultExportName(new Date('2025-01-05T23:00:00Z')), 'audit-logs-2025-01-05.csv');
});

Deno.test('event data is indented JSON and types merge without duplicates', () => {
  assert.equal(formatEventData({ a: 1 }), '{\n  "a": 1\n}');
  assert.equal(formatEventData(null), '{}');
  assert.deepEqual(
    mergeEventTypes(['user_login'], [{ event_type: 'logout' }, { event_type: 'user_login' }]),
    ['logout', 'user_login'],
  );
});

Deno.test('the User filter takes a pasted id as it is, and names a user with their contact', () => {
  assert.equal(userIdTyped(' 3F2504E0-4F89-11D3-9A0C-0305E82C3301 '), '3f2504e0-4f89-11d3-9a0c-0305e82c3301');
  assert.equal(userIdTyped('Ada'), null);
  assert.equal(userIdTyped('3f2504e0-4f89-11d3-9a0c'), null);
  assert.equal(userChoiceLabel('Ada Admin', 'admin@demo.test'), 'Ada Admin (admin@demo.test)');
  assert.equal(userChoiceLabel('Richard Roe', 'DOC# 100002'), 'Richard Roe (DOC# 100002)');
  assert.equal(userChoiceLabel('Ada Admin', ''), 'Ada Admin');
  assert.equal(userChoiceLabel('', 'x@y.test'), 'x@y.test');
});
