import assert from 'node:assert/strict';
import { formatDate, formatDateTime, formatTimeOfDay, fullName } from './format.ts';

Deno.test('a bare date is shown as the US short date of that day', () => {
  assert.equal(formatDate('2025-01-05'), 'Jan 5, 2025');
  assert.equal(formatDate('2024-12-31'), 'Dec 31, 2024');
});

Deno.test('a timestamp is shown as a US short date', () => {
  // Noon UTC is the same calendar day in every time zone from UTC-11 to UTC+11.
  assert.equal(formatDate('2025-01-05T12:00:00Z'), 'Jan 5, 2025');
  assert.equal(formatDate(new Date(Date.UTC(2025, 6, 4, 12))), 'Jul 4, 2025');
});

Deno.test('empty and unparseable dates show nothing rather than Invalid Date', () => {
  assert.equal(formatDate(''), '');
  assert.equal(formatDate(null), '');
  assert.equal(formatDate(undefined), '');
  assert.equal(formatDate('not a date'), '');
});

Deno.test('a full name skips missing parts', () => {
  assert.equal(fullName('Ann', 'Lee'), 'Ann Lee');
  assert.equal(fullName(' Ann ', null), 'Ann');
  assert.equal(fullName(undefined, ''), '');
});

Deno.test('a timestamp with its time reads in US English, with seconds on demand; null and garbage pass through', () => {
  const at = new Date(2025, 0, 5, 15, 4, 9).toISOString();
  assert.equal(formatDateTime(at), 'Jan 5, 2025, 3:04 PM');
  assert.equal(formatDateTime(at, { seconds: true }), 'Jan 5, 2025, 3:04:09 PM');
  assert.equal(formatDateTime(null), '');
  assert.equal(formatDateTime('not a date'), 'not a date');
});

Deno.test('in Spanish a date names its month after the day, never all in numbers', () => {
  const es = { locale: 'es-US' };
  assert.equal(formatDate('2025-01-05', es), '5 ene 2025');
  assert.equal(formatDate('2024-12-31', es), '31 dic 2024');
  assert.equal(formatDate(new Date(Date.UTC(2025, 6, 4, 12)), es), '4 jul 2025');
  const at = new Date(2025, 0, 5, 15, 4, 9).toISOString();
  assert.match(formatDateTime(at, es), /^5 ene 2025, 3:04\sp\.\s?m\.$/);
});

Deno.test('dates follow the language shown', async () => {
  await import('../i18n/testing.ts').then(({ inLanguage }) =>
    inLanguage('es', () => assert.equal(formatDate('2025-01-05'), '5 ene 2025'))
  );
  assert.equal(formatDate('2025-01-05'), 'Jan 5, 2025');
});

Deno.test("a moment later today is its clock time; another day's has its date too", () => {
  const now = new Date(2025, 0, 5, 14, 31);
  const soon = new Date(2025, 0, 5, 14, 41);
  assert.equal(formatTimeOfDay(soon, { now }), '2:41 PM');
  assert.match(formatTimeOfDay(soon, { now, locale: 'es-US' }), /^2:41\sp\.\s?m\.$/);
  assert.equal(formatTimeOfDay(new Date(2025, 0, 6, 0, 10), { now }), 'Jan 6, 2025, 12:10 AM');
  assert.equal(formatTimeOfDay('not a date', { now }), '');
});
