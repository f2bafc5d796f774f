import '../../../i18n/testing.ts';
import assert from 'node:assert/strict';
import { ROSTER_MAX_BYTES } from '../../../../../contract/rules/roster.ts';
import type { AdminUser } from './usersApi.ts';
import {
  appendPage,
  applyLanguage,
  applyStatusChange,
  applyUnlock,
  contactText,
  emptyUsersText,
  entityText,
  lockEnd,
  NO_USER_FILTERS,
  rejectedRows,
  roleText,
  rosterFileProblem,
  rosterSummary,
  showingText,
  statusAction,
  statusFailureText,
  statusText,
  usersQuery,
} from './usersLogic.ts';

function user(overrides: Partial<AdminUser> = {}): AdminUser {
  return {
    id: crypto.randomUUID(),
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@example.test',
    doc_number: null,
    role: 'attorney',
    status: 'active',
    entity_name: 'Department of Corrections',
    language: null,
    created_at: '2026-01-05T12:00:00Z',
    locked_until: null,
    ...overrides,
  };
}

const USERS = [
  user({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.test' }),
  user({
    first_name: 'Grace',
    last_name: 'Hopper',
    email: 'GRACE@navy.test',
    role: 'admin',
    status: 'deactivated',
  }),
  user({ first_name: 'John', last_name: 'Doe', email: null, doc_number: 'A-100', role: 'offender' }),
  user({ first_name: 'Pat', last_name: 'Pending', email: 'pat@example.test', status: 'pending' }),
];

Deno.test('the filters go to the server as q, role and status, always with the page size', () => {
  assert.equal(usersQuery(NO_USER_FILTERS), '?limit=50');
  assert.equal(
    usersQuery({ search: '  Ada L ', role: 'attorney', status: 'deactivated' }),
    '?q=Ada+L&role=attorney&status=deactivated&limit=50',
    'the search is trimmed; "all" is no filter',
  );
  assert.equal(usersQuery({ ...NO_USER_FILTERS, search: 'a&b=%' }), '?q=a%26b%3D%25&limit=50');
  assert.equal(
    usersQuery({ ...NO_USER_FILTERS, role: 'offender' }, 'c-1'),
    '?role=offender&limit=50&cursor=c-1',
  );
});

Deno.test('a further page adds its rows after those shown, once each, and brings the new total and cursor', () => {
  const [a, b, c] = USERS;
  const more = appendPage({ users: [a, b], total: 3, nextCursor: b.id }, {
    users: [b, c],
    total: 4,
    nextCursor: null,
  });
  assert.deepEqual(more.users.map((u) => u.first_name), ['Ada', 'Grace', 'John']);
  assert.deepEqual([more.total, more.nextCursor], [4, null]);
});

Deno.test('a status changed on screen updates the row, or drops it and the count when the status filter excludes it', () => {
  const page = { users: USERS, total: 10, nextCursor: 'x' };
  const ada = USERS[0];
  const all = applyStatusChange(page, { id: ada.id, status: 'deactivated' }, NO_USER_FILTERS);
  assert.equal(all.users.find((u) => u.id === ada.id)?.status, 'deactivated');
  assert.deepEqual([all.users.length, all.total, all.nextCursor], [4, 10, 'x']);
  const activeOnly = applyStatusChange(page, { id: ada.id, status: 'deactivated' }, {
    ...NO_USER_FILTERS,
    status: 'active',
  });
  assert.deepEqual([activeOnly.users.length, activeOnly.total], [3, 9]);
  assert.equal(activeOnly.users.some((u) => u.id === ada.id), false);
  assert.equal(applyStatusChange(page, { id: 'not-shown', status: 'active' }, NO_USER_FILTERS), page);
});

Deno.test('the count and the empty states follow the spec texts', () => {
  assert.equal(showingText(1, 4), 'Showing 1 of 4 users');
  assert.equal(emptyUsersText(NO_USER_FILTERS), 'No users found');
  assert.equal(
    emptyUsersText({ ...NO_USER_FILTERS, role: 'approver' }),
    'No users match the current filters',
  );
  assert.equal(emptyUsersText({ ...NO_USER_FILTERS, search: 'zz' }), 'No users match the current filters');
});

Deno.test('active users can be deactivated, deactivated ones activated, pending ones have no action', () => {
  assert.deepEqual(statusAction('active'), { labelKey: 'users.deactivate', next: 'deactivated' });
  assert.deepEqual(statusAction('deactivated'), { labelKey: 'users.activate', next: 'active' });
  assert.equal(statusAction('pending'), null);
  assert.deepEqual(statusAction('released'), { labelKey: 'users.activate', next: 'active' });
  assert.deepEqual(statusAction('transferred'), { labelKey: 'users.activate', next: 'active' });
  assert.equal(statusAction('something-else'), null);
});

Deno.test('a failed status change reads "Failed to activate user: {reason}"', () => {
  assert.equal(statusFailureText('active', 'User not found.'), 'Failed to activate user: User not found.');
  assert.equal(statusFailureText('deactivated', ''), 'Failed to deactivate user');
});

Deno.test('an offender without e-mail shows the DOC number; no entity shows N/A', () => {
  assert.equal(contactText({ email: null, doc_number: 'A-100' }), 'DOC# A-100');
  assert.equal(contactText({ email: 'x@y.test', doc_number: null }), 'x@y.test');
  assert.equal(entityText(null), 'N/A');
  assert.equal(entityText('  '), 'N/A');
  assert.equal(entityText('DOC'), 'DOC');
});

Deno.test('the roster picker accepts a .csv file up to 5 MB', () => {
  assert.equal(rosterFileProblem({ name: 'roster.CSV', size: 10 }), null);
  assert.equal(rosterFileProblem({ name: 'roster.xlsx', size: 10 }), 'Please choose a .csv file');
  assert.equal(rosterFileProblem({ name: 'roster.csv', size: 0 }), 'The file is empty.');
  assert.equal(
    rosterFileProblem({ name: 'roster.csv', size: ROSTER_MAX_BYTES + 1 }),
    'The file is larger than 5 MB.',
  );
});

Deno.test('the import report lists the rejected rows in file order', () => {
  const rows = [
    { line: 5, docNumber: 'B', outcome: 'rejected' as const, reason: 'PIN must be 4-12 digits' },
    { line: 2, docNumber: 'A', outcome: 'added' as const },
    { line: 3, docNumber: '', outcome: 'rejected' as const, reason: 'DOC number is required' },
  ];
  assert.deepEqual(rejectedRows(rows).map((r) => r.line), [3, 5]);
  assert.equal(
    rosterSummary({ added: 2, updated: 0, rejected: 1 }),
    'Roster imported: 2 added, 0 updated, 1 rejected.',
  );
});

Deno.test('a lock shows while in force only, and an unlock clears it from the row alone', () => {
  const now = Date.parse('2026-01-05T14:31:00Z');
  const locked = user({ locked_until: '2026-01-05T14:41:00Z' });
  assert.equal(lockEnd(locked, now), '2026-01-05T14:41:00Z');
  assert.equal(lockEnd(locked, Date.parse('2026-01-05T14:41:01Z')), null, 'a lock over is no lock');
  assert.equal(lockEnd(user(), now), null);
  const other = user({ locked_until: '2026-01-05T14:45:00Z' });
  const page = applyUnlock({ users: [locked, other], total: 2, nextCursor: null }, locked.id);
  assert.deepEqual(page.users.map((u) => u.locked_until), [null, '2026-01-05T14:45:00Z']);
});

Deno.test('a language saved in View Details shows on the row, so reopening the details shows it too', () => {
  const kept = user({ language: 'en' });
  const changed = user({ language: null });
  const page = applyLanguage({ users: [kept, changed], total: 2, nextCursor: null }, changed.id, 'es');
  assert.deepEqual(page.users.map((u) => u.language), ['en', 'es']);
});

Deno.test("the screen's words follow the language shown", async () => {
  const { inLanguage } = await import('../../../i18n/testing.ts');
  assert.equal(roleText('attorney'), 'Attorney');
  assert.equal(statusText('deactivated'), 'Deactivated');
  assert.equal(roleText('auditor'), 'Auditor', 'an unknown role as it came');
  await inLanguage('es', () => {
    assert.equal(roleText('attorney'), 'Abogado');
    assert.equal(statusText('active'), 'Activo');
    assert.equal(showingText(1, 4), 'Se muestran 1 de 4 usuarios');
    assert.equal(entityText(null), 'No aplica');
    assert.equal(
      rosterSummary({ added: 2, updated: 0, rejected: 1 }),
      'Lista importada: 2 filas agregadas, 0 actualizadas, 1 rechazada.',
    );
    assert.equal(
      rosterSummary({ added: 0, updated: 1, rejected: 0 }),
      'Lista importada: 0 filas agregadas, 1 actualizada, 0 rechazadas.',
    );
  });
});
