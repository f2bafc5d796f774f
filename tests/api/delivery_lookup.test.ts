/**
 * Who a DOC number is, before a sender sends to it: the sender's own entity's active offenders only, one 404 for
 * everything else, throttled per sender and audited, so the roster cannot be scraped.
 */
import assert from 'node:assert/strict';
import { displayName } from '../../api/domain/delivery.ts';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { setNumberSetting } from '../support/documents.ts';
import { makeUser } from '../support/factories.ts';

const NOT_HERE = 'No one with this DOC number receives mail here';

Deno.test('a recipient is shown as LAST, F.; particles and one name stay readable', () => {
  assert.equal(displayName('John', 'Smith'), 'SMITH, J.');
  assert.equal(displayName('maria', 'de la Cruz'), 'DE LA CRUZ, M.');
  assert.equal(displayName('Jean-Luc', "O'Neil-Van  Damme"), "O'NEIL-VAN DAMME, J.");
  assert.equal(displayName('', 'Madonna'), 'MADONNA');
  assert.equal(displayName('Cher', ' '), 'CHER');
  assert.equal(displayName('Élodie', 'Ñúñez'), 'ÑÚÑEZ, É.');
  assert.equal(displayName('𝒜lex', 'Doe'), 'DOE, 𝒜.', 'an initial is a whole character');
});

let t: TestApp;
let attorney: string;
let representative: string;

Deno.test({
  name: 'setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    attorney = await signIn(t, ...DEMO.attorney);
    representative = await signIn(t, ...DEMO.representative);
  },
});

Deno.test({
  name: 'a sender looks up a known DOC number and sees only the name and the number',
  ...DB_TEST,
  fn: async () => {
    for (const token of [attorney, representative]) {
      const r = await call(t, 'GET', '/api/recipients/100001', { token });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(r.body, { success: true, recipient: { docNumber: '100001', displayName: 'DOE, J.' } });
    }
    const [audit] = await t.deps.sql`
      select event_data, resource_id from audit_logs where event_type = 'recipient_lookup' order by id desc limit 1`;
    assert.deepEqual(audit.event_data, { docNumber: '100001', found: true });
  },
});

Deno.test({
  name: "unknown, released, transferred, deactivated and another entity's DOC numbers are one 404",
  ...DB_TEST,
  fn: async () => {
    const released = await makeUser(t, { role: 'offender', firstName: 'Rae', lastName: 'Leased' });
    await t.deps.sql`update users set status = 'released', released_at = now() where id = ${released.id}`;
    const moved = await makeUser(t, { role: 'offender' });
    await t.deps.sql`update users set status = 'transferred', released_at = now() where id = ${moved.id}`;
    const off = await makeUser(t, { role: 'offender', status: 'deactivated' });
    const [other] = await t.deps.sql<{ id: string }[]>`
      insert into entities (name, slug) values ('Other Facility', 'other-lookup') returning id`;
    const elsewhere = await makeUser(t, { role: 'offender', entityId: other.id });
    const answers = [];
    for (
      const doc of ['999999999', released.username, moved.username, off.username, elsewhere.username, 'a%2Fb']
    ) {
      const r = await call(t, 'GET', `/api/recipients/${doc}`, { token: attorney });
      answers.push([r.status, r.body.message, r.body.code]);
    }
    assert.deepEqual(answers, Array(6).fill([404, NOT_HERE, 'recipient_not_found']));
  },
});

Deno.test({
  name: 'offenders and staff cannot look up a DOC number (403)',
  ...DB_TEST,
  fn: async () => {
    for (const [username, secret] of [DEMO.offender, DEMO.admin, DEMO.approver]) {
      const token = await signIn(t, username, secret);
      assert.equal((await call(t, 'GET', '/api/recipients/100001', { token })).status, 403);
    }
  },
});

Deno.test({
  name: 'lookups past the hourly limit are refused with 429 for that sender only, and audited once',
  ...DB_TEST,
  fn: async () => {
    await setNumberSetting(t, 'recipient_lookup_limit_per_hour', 10);
    const sender = await makeUser(t, { role: 'attorney' });
    const token = await signIn(t, sender.username, sender.secret);
    // Concurrent lookups still count one after another: exactly the limit get through.
    const statuses = await Promise.all(
      Array.from(
        { length: 12 },
        (_, i) => call(t, 'GET', `/api/recipients/${i % 2 ? '100001' : 'nobody'}`, { token }),
      ),
    );
    const counts = statuses.reduce<Record<number, number>>(
      (all, r) => ({ ...all, [r.status]: (all[r.status] ?? 0) + 1 }),
      {},
    );
    assert.equal((counts[200] ?? 0) + (counts[404] ?? 0), 10, JSON.stringify(counts));
    assert.equal(counts[429], 2);
    const refused = await call(t, 'GET', '/api/recipients/100001', { token });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.code, 'recipient_lookup_throttled');
    // Another sender is not held up by this one's budget.
    assert.equal((await call(t, 'GET', '/api/recipients/100001', { token: attorney })).status, 200);
    const rows = await t.deps.sql<{ event_type: string; n: number }[]>`
      select event_type, count(*)::int as n from audit_logs where user_id = ${sender.id} group by event_type
      order by event_type`;
    const byType = Object.fromEntries(rows.map((r) => [r.event_type, r.n]));
    assert.equal(byType.recipient_lookup, 10);
    assert.equal(byType.recipient_lookup_throttled, 1, 'a scraping run writes one refusal row an hour');
    await setNumberSetting(t, 'recipient_lookup_limit_per_hour', 200);
  },
});

Deno.test({ name: 'teardown', ...DB_TEST, fn: () => t.close() });
