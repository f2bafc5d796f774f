/**
 * Password hashing is bounded: the set-password form looks its code up before hashing anything and is throttled
 * per client address, and every route that hashes passes one gate (api/domain/hashing_gate.ts) that refuses with
 * 503 and Retry-After, counting nothing, once its slots and its short queue are taken. The gate's counts, not
 * the clock, show what was hashed.
 */
import assert from 'node:assert/strict';
import { HashingBusy, HashingGate } from '../../api/domain/hashing_gate.ts';
import { RESET_CODES_PER_ADDRESS, tokenHash } from '../../api/domain/password_reset.ts';
import { hashingGate } from '../../api/domain/passwords.ts';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { makeUser, registrationBody } from '../support/factories.ts';

let t: TestApp;

Deno.test({
  name: 'setup: app on a fresh database',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
  },
});

/** A set-password link for `userId` whose code the test knows (as the e-mail would carry it). */
async function linkFor(userId: string, minutes = 30): Promise<string> {
  const code = `test-code-${crypto.randomUUID()}`;
  await t.deps.sql`
    insert into password_reset_tokens (token_hash, user_id, purpose, expires_at)
    values (${await tokenHash(code)}, ${userId}, 'forgotten', now() + make_interval(mins => ${minutes}))`;
  return code;
}

const setPassword = (token: string, ip: string, newPassword = 'Copper-Meadow-Violin-41') =>
  call(t, 'POST', '/api/auth/reset-password', { body: { token, newPassword }, ip });

/** Takes every slot and queue place of the process's gate until `release` is called. */
function fillGate(): { release: () => Promise<void> } {
  let open!: () => void;
  const held = new Promise<void>((resolve) => open = resolve);
  const runs = Array.from(
    { length: hashingGate.slots + hashingGate.queueLimit },
    () => hashingGate.run(() => held),
  );
  assert.equal(hashingGate.running, hashingGate.slots);
  assert.equal(hashingGate.queued, hashingGate.queueLimit);
  assert.equal(hashingGate.hasRoom(), false);
  return {
    release: async () => {
      open();
      await Promise.all(runs);
    },
  };
}

Deno.test('the gate runs its slots, queues in order up to its limit, and refuses past it', async () => {
  const gate = new HashingGate(1, 2);
  const order: string[] = [];
  let open!: () => void;
  const held = new Promise<void>((resolve) => open = resolve);
  const first = gate.run(async () => {
    await held;
    order.push('first');
  });
  const second = gate.run(() => Promise.resolve(void order.push('second')));
  const third = gate.run(() => Promise.resolve(void order.push('third')));
  assert.deepEqual([gate.running, gate.queued, gate.hasRoom()], [1, 2, false]);
  await assert.rejects(gate.run(() => Promise.resolve(void order.push('fourth'))), HashingBusy);
  open();
  await Promise.all([first, second, third]);
  assert.deepEqual(order, ['first', 'second', 'third']);
  assert.deepEqual([gate.running, gate.queued, gate.admitted, gate.refused], [0, 0, 3, 1]);
});

Deno.test('a place taken ahead is honoured when the line fills meanwhile, and no place is given past the line', async () => {
  const gate = new HashingGate(1, 1);
  const place = gate.reserve();
  assert.ok(place, 'room for one place');
  let open!: () => void;
  const held = new Promise<void>((resolve) => open = resolve);
  const running = gate.run(() => held);
  // The slot is busy and the one place in line is the request's: a stranger is refused, as is a new request.
  await assert.rejects(gate.run(() => Promise.resolve()), HashingBusy);
  assert.equal(gate.reserve(), undefined);
  // The request that took its place ahead is checked all the same, once the slot frees.
  const checked = gate.run(() => Promise.resolve('checked'), { place });
  assert.deepEqual([gate.queued, gate.reserved], [1, 0]);
  open();
  assert.equal(await checked, 'checked');
  await running;
  place.release();
  assert.deepEqual([gate.running, gate.queued, gate.reserved, gate.refused], [0, 0, 0, 2]);
});

Deno.test({
  name: 'an unknown, used or expired set-password code is refused without any password being hashed',
  ...DB_TEST,
  fn: async () => {
    const staff = await makeUser(t);
    const expired = await linkFor(staff.id, -1);
    const before = hashingGate.admitted;
    for (const token of ['no-such-code', expired]) {
      const r = await setPassword(token, '10.90.0.1');
      assert.equal(r.status, 400);
      assert.equal(r.body.code, 'reset_link_invalid');
    }
    assert.equal(hashingGate.admitted, before, 'no derivation ran');

    // A valid code hashes once; used, it is refused like an unknown one, again without hashing.
    const code = await linkFor(staff.id);
    assert.equal((await setPassword(code, '10.90.0.1')).status, 200);
    assert.equal(hashingGate.admitted, before + 1);
    const again = await setPassword(code, '10.90.0.1', 'Another-Meadow-Violin-42');
    assert.equal(again.body.code, 'reset_link_invalid');
    assert.equal(hashingGate.admitted, before + 1);
  },
});

Deno.test({
  name: 'set-password attempts past the per-address budget are refused with 429 before the code is looked up',
  ...DB_TEST,
  fn: async () => {
    const staff = await makeUser(t);
    for (let i = 0; i < RESET_CODES_PER_ADDRESS; i++) {
      assert.equal((await setPassword(`guess-${i}`, '10.91.0.1')).status, 400);
    }
    const code = await linkFor(staff.id);
    const over = await setPassword(code, '10.91.0.1');
    assert.equal(over.status, 429);
    assert.equal(over.body.code, 'reset_code_throttled');
    assert.ok(Number(over.headers.get('retry-after')) > 0);
    // The refused attempt did not use the link: from another address it still works.
    assert.equal((await setPassword(code, '10.91.0.2')).status, 200);
  },
});

Deno.test({
  name:
    'with every hashing slot and queue place taken, sign-in, unlock, set-password, registration and password change answer 503 with Retry-After and count nothing',
  ...DB_TEST,
  fn: async () => {
    const staff = await makeUser(t);
    const session = await signIn(t, staff.username, staff.secret);
    const code = await linkFor(staff.id);
    const offender = await signIn(t, ...DEMO.offender);
    assert.equal((await call(t, 'POST', '/api/auth/lock', { token: offender })).status, 200);
    const [{ n: failuresBefore }] = await t.deps.sql<{ n: number }[]>`
      select count(*)::int as n from login_failures`;
    const refusedBefore = hashingGate.refused;

    const gate = fillGate();
    try {
      const answers = [
        await call(t, 'POST', '/api/auth/login', {
          body: { username: staff.username, password: staff.secret, entity: 'default' },
          ip: '10.92.0.1',
        }),
        await call(t, 'POST', '/api/auth/unlock', { token: offender, body: { pin: DEMO.offender[1] } }),
        await setPassword(code, '10.92.0.2'),
        await call(t, 'POST', '/api/auth/register', {
          body: registrationBody({ email: 'busy-gate@example.test' }),
          ip: '10.92.0.3',
        }),
        await call(t, 'POST', '/api/auth/password', {
          token: session,
          body: { currentPassword: staff.secret, newPassword: 'Granite-Orchard-Piano-57' },
        }),
      ];
      for (const r of answers) {
        assert.equal(r.status, 503, JSON.stringify(r.body));
        assert.equal(r.body.code, 'hashing_busy');
        assert.equal(r.headers.get('retry-after'), '5');
      }
      assert.equal(hashingGate.running, hashingGate.slots, 'the held slots are still held');
    } finally {
      await gate.release();
    }
    // Refused through the gate (set-password, registration) or before it (the rest): no attempt was counted.
    assert.ok(hashingGate.refused >= refusedBefore + 2);
    const [{ n: failuresAfter }] = await t.deps.sql<{ n: number }[]>`
      select count(*)::int as n from login_failures`;
    assert.equal(failuresAfter, failuresBefore, 'no sign-in attempt was counted');

    // With the slots free again, each works: the link was not used by its refused attempt.
    assert.equal((await setPassword(code, '10.92.0.2')).status, 200);
    assert.equal(
      (await call(t, 'POST', '/api/auth/login', {
        body: { username: staff.username, password: 'Copper-Meadow-Violin-41', entity: 'default' },
        ip: '10.92.0.1',
      })).status,
      200,
    );
    assert.equal(
      (await call(t, 'POST', '/api/auth/unlock', { token: offender, body: { pin: DEMO.offender[1] } }))
        .status,
      200,
    );
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
  },
});
