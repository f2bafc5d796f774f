import assert from 'node:assert/strict';
import { inLanguage } from '../i18n/testing.ts';
import {
  deliveryText,
  mayWithdraw,
  timelineLine,
  timeSensitiveBadge,
  timeSensitiveFirst,
  UNOPENED_FLAG_MS,
} from './delivery.ts';
import { toDocumentRow } from './listLogic.ts';

const row = (fields: Record<string, unknown>) =>
  toDocumentRow({ documentid: 'd', name: 'Letter', date: '2026-01-05T12:00:00Z', ...fields });
const sent = Date.parse('2026-01-05T12:00:00Z');

Deno.test('the sender list says where each document stands', () => {
  assert.equal(deliveryText(row({ state: 'delivered' }), sent), 'Delivered');
  assert.equal(
    deliveryText(row({ state: 'opened', opened_at: '2026-01-06T15:00:00' }), sent),
    'Opened Jan 6, 2026',
  );
  assert.equal(deliveryText(row({ state: 'printed', opened_at: '2026-01-06T15:00:00' })), 'Printed');
  assert.equal(deliveryText(row({ state: 'withdrawn' })), 'Withdrawn');
  assert.equal(deliveryText(row({ state: 'deleted', recipient_released: true })), 'Deleted');
  assert.equal(deliveryText(row({ state: 'opened', recipient_released: true })), 'Recipient released');
});

Deno.test('a time-sensitive document unopened for 48 hours says for how long; an ordinary one does not', () => {
  const urgent = row({ state: 'delivered', time_sensitive: true });
  assert.equal(deliveryText(urgent, sent + UNOPENED_FLAG_MS - 1), 'Delivered');
  assert.equal(deliveryText(urgent, sent + UNOPENED_FLAG_MS), 'Not yet opened (2 days)');
  assert.equal(deliveryText(urgent, sent + 3 * UNOPENED_FLAG_MS), 'Not yet opened (6 days)');
  assert.equal(deliveryText(row({ state: 'delivered' }), sent + 10 * UNOPENED_FLAG_MS), 'Delivered');
});

Deno.test('only a delivered document offers Withdraw', () => {
  assert.equal(mayWithdraw(row({ state: 'delivered' })), true);
  for (const state of ['opened', 'printed', 'withdrawn', 'deleted', undefined]) {
    assert.equal(mayWithdraw(row({ state })), false, String(state));
  }
});

Deno.test('the time-sensitive badge carries its respond-by day in US format', () => {
  assert.equal(
    timeSensitiveBadge({ time_sensitive: true, respond_by: '2026-12-03' }),
    'Time-sensitive — respond by Dec 3, 2026',
  );
  assert.equal(timeSensitiveBadge({ time_sensitive: true, respond_by: null }), 'Time-sensitive');
  assert.equal(timeSensitiveBadge({ time_sensitive: false, respond_by: null }), null);
});

Deno.test('time-sensitive rows come first, each group in the order it had', () => {
  const rows = ['a', 'b', 'c', 'd'].map((name, i) => ({ name, time_sensitive: i % 2 === 1 }));
  assert.deepEqual(timeSensitiveFirst(rows).map((r) => r.name), ['b', 'd', 'a', 'c']);
});

Deno.test('a timeline line names the event and its time', () => {
  assert.match(
    timelineLine({ event: 'fetched', at: '2026-01-05T12:00:00Z' }),
    /^Saved to the recipient's tablet — Jan 5, 2026, /,
  );
});

Deno.test('the delivery texts speak Spanish too', async () => {
  await inLanguage('es', () => {
    assert.equal(deliveryText(row({ state: 'withdrawn' })), 'Retirado');
    assert.equal(
      timeSensitiveBadge({ time_sensitive: true, respond_by: '2026-12-03' }),
      'Urgente: responda a más tardar el 3 dic 2026',
    );
    assert.equal(
      deliveryText(row({ state: 'delivered', time_sensitive: true }), sent + UNOPENED_FLAG_MS),
      'Sin abrir (2 días)',
    );
  });
});
