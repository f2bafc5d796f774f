/**
 * Password hashing is bounded: the set-password form looks its code up before hashing anything and is throttled
 * per client address, and every route that hashes passes one gate (api/domain/hashing_gate.ts) that refuses with
 * 503 and Retry-After, counting nothing, once its slots and its short queue are taken. Sign-ins very likely a
 * returning person's (an address that signed in before, a DOC number on its facility's network) and the tablet's
 * unlock have a line of their own that the others cannot take. The gate's counts, not the clock, show what was
 * hashed.
 */
import assert from 'node:assert/strict';
import {
  HashingBusy,
  HashingGate,
  type HashingPlace,
  PRIORITY_TURNS,
} from '../../api/domain/hashing_gate.ts';
import { isKnownClient, KNOWN_ADDRESS_DAYS } from '../../api/domain/known_client.ts';
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

/**
 * Takes every slot and ordinary place of the process's gate, and with `priority` every place of its priority line
 * too, until `release` is called.
 */
function fillGate(options: { priority?: boolean } = {}): { release: () => Promise<void> } {
  let open!: () => void;
  const held = new Promise<void>((resolve) => open = resolve);
  const runs = Array.from(
    { length: hashingGate.slots + hashingGate.queueLimit },
    () => hashingGate.run(() => held),
  );
  const places: HashingPlace[] = [];
  for (let i = 0; options.priority && i < hashingGate.priorityLimit; i++) {
    const place = hashingGate.reserve(1, { priority: true })!;
    assert.equal(place.line, 'priority');
    places.push(place);
    runs.push(hashingGate.run(() => held, { place }));
  }
  assert.equal(hashingGate.running, hashingGate.slots);
  assert.equal(hashingGate.lineCounts('ordinary').queued, hashingGate.queueLimit);
  assert.equal(hashingGate.lineCounts('priority').queued, options.priority ? hashingGate.priorityLimit : 0);
  assert.equal(hashingGate.hasRoom(), false);
  return {
    release: async () => {
      open();
      await Promise.all(runs);
      for (const place of places) place.release();
    },
  };
}

/** Waits until `check` holds (the gate's counts moving as requests reach it), for at most 10 s. */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) {
      throw new Error(
        `timed out waiting until ${what}: ${
          JSON.stringify([
            hashingGate.running,
            hashingGate.lineCounts('ordinary'),
            hashingGate.lineCounts('priority'),
          ])
        }`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A slot held by `gate` until the answer's `open` is called. */
function holdSlot(gate: HashingGate): { open: () => void; done: Promise<void> } {
  let open!: () => void;
  const held = new Promise<void>((resolve) => open = resolve);
  return { open, done: gate.run(() => held) };
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

Deno.test('priority work is served before ordinary work when a slot frees, each line in its own order', async () => {
  const gate = new HashingGate(1, 2, 2);
  const order: string[] = [];
  const slot = holdSlot(gate);
  const job = (name: string) => () => Promise.resolve(void order.push(name));
  const ordinary = [gate.run(job('ordinary 1')), gate.run(job('ordinary 2'))];
  const first = gate.reserve(1, { priority: true })!;
  const second = gate.reserve(1, { priority: true })!;
  assert.deepEqual([first.line, second.line], ['priority', 'priority']);
  const priority = [
    gate.run(job('priority 1'), { place: first }),
    gate.run(job('priority 2'), { place: second }),
  ];
  assert.deepEqual(gate.lineCounts('priority'), { queued: 2, reserved: 0, limit: 2 });
  assert.deepEqual(gate.lineCounts('ordinary'), { queued: 2, reserved: 0, limit: 2 });
  slot.open();
  await Promise.all([slot.done, ...ordinary, ...priority]);
  assert.deepEqual(order, ['priority 1', 'priority 2', 'ordinary 1', 'ordinary 2']);
  first.release();
  second.release();
  assert.deepEqual([gate.running, gate.queued, gate.reserved, gate.admitted, gate.refused], [0, 0, 0, 5, 0]);
});

Deno.test('with the ordinary line full an ordinary request is refused while a priority one is admitted, and both lines are bounded', async () => {
  const gate = new HashingGate(1, 2, 2);
  const slot = holdSlot(gate);
  const ordinary = [gate.run(() => Promise.resolve()), gate.run(() => Promise.resolve())];
  // The ordinary line is full and the priority line empty: its places are not for ordinary requests.
  assert.equal(gate.reserve(), undefined);
  await assert.rejects(gate.run(() => Promise.resolve()), HashingBusy);
  assert.equal(gate.hasRoom(), false);
  // A priority request is admitted, twice (its line's length), then refused: its line full, and the ordinary too.
  const places = [gate.reserve(1, { priority: true }), gate.reserve(1, { priority: true })];
  assert.deepEqual(places.map((p) => p?.line), ['priority', 'priority']);
  assert.equal(gate.reserve(1, { priority: true }), undefined);
  assert.deepEqual(gate.lineCounts('priority'), { queued: 0, reserved: 2, limit: 2 });
  const checked = places.map((place) => gate.run(() => Promise.resolve('checked'), { place: place! }));
  assert.deepEqual(gate.lineCounts('priority'), { queued: 2, reserved: 0, limit: 2 });
  assert.equal(gate.reserve(1, { priority: true }), undefined, 'places waiting count as taken');
  slot.open();
  assert.deepEqual(await Promise.all(checked), ['checked', 'checked']);
  await Promise.all([slot.done, ...ordinary]);
  assert.deepEqual([gate.running, gate.queued, gate.reserved, gate.refused], [0, 0, 0, 4]);
});

Deno.test('a priority request whose line is full takes an ordinary place when there is one', async () => {
  const gate = new HashingGate(1, 1, 1);
  const slot = holdSlot(gate);
  const first = gate.reserve(1, { priority: true })!;
  const second = gate.reserve(1, { priority: true })!;
  assert.deepEqual([first.line, second.line], ['priority', 'ordinary']);
  assert.equal(gate.reserve(1, { priority: true }), undefined);
  slot.open();
  await slot.done;
  first.release();
  second.release();
  assert.deepEqual([gate.running, gate.reserved], [0, 0]);
});

Deno.test('ordinary work waiting is not starved by a busy priority line: one ordinary start after PRIORITY_TURNS priority ones', async () => {
  const gate = new HashingGate(1, 1, PRIORITY_TURNS + 2);
  const order: string[] = [];
  const slot = holdSlot(gate);
  const job = (name: string) => () => Promise.resolve(void order.push(name));
  const ordinary = gate.run(job('ordinary'));
  const priority = Array.from({ length: PRIORITY_TURNS + 2 }, (_, i) => {
    const place = gate.reserve(1, { priority: true })!;
    return gate.run(job(`priority ${i + 1}`), { place });
  });
  slot.open();
  await Promise.all([slot.done, ordinary, ...priority]);
  const expected = Array.from({ length: PRIORITY_TURNS }, (_, i) => `priority ${i + 1}`);
  expected.push('ordinary', `priority ${PRIORITY_TURNS + 1}`, `priority ${PRIORITY_TURNS + 2}`);
  assert.deepEqual(order, expected);
});

Deno.test({
  name:
    "an address is known for KNOWN_ADDRESS_DAYS after a session opened from it; an entity's active range makes a DOC number known, not an e-mail address",
  ...DB_TEST,
  fn: async () => {
    const staff = await makeUser(t);
    const known = (username: string, ipAddress: string) =>
      isKnownClient(t.deps.sql, { entity: 'default', username, ipAddress });
    assert.equal(await known(staff.username, '10.96.0.1'), false);
    await signIn(t, staff.username, staff.secret, '10.96.0.1');
    // Any username from there: being known says nothing about an account.
    assert.equal(await known('nobody@example.test', '10.96.0.1'), true);
    assert.equal(await known('100001', '10.96.0.1'), true);
    await t.deps.sql`
      update sessions set created_at = now() - make_interval(days => ${KNOWN_ADDRESS_DAYS + 1})
      where ip_address = '10.96.0.1'`;
    assert.equal(await known(staff.username, '10.96.0.1'), false, 'an old session counts no more');

    const [range] = await t.deps.sql<{ id: string }[]>`
      insert into ip_ranges (entity_id, ip_range, is_active)
      select id, '10.96.8.0/24', true from entities where slug = 'default' returning id`;
    try {
      assert.equal(await known('100001', '10.96.8.7'), true);
      assert.equal(await known(staff.username, '10.96.8.7'), false, "the ranges are the offenders'");
      assert.equal(
        await isKnownClient(t.deps.sql, {
          entity: 'no-such-entity',
          username: '100001',
          ipAddress: '10.96.8.7',
        }),
        false,
      );
      await t.deps.sql`update ip_ranges set is_active = false where id = ${range.id}`;
      assert.equal(await known('100001', '10.96.8.7'), false, 'an inactive range counts not');
    } finally {
      await t.deps.sql`delete from ip_ranges where id = ${range.id}`;
    }
  },
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
    'with every hashing slot and place of both lines taken, sign-in (a known address too), unlock, set-password, registration and password change answer 503 with Retry-After and count nothing',
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

    const gate = fillGate({ priority: true });
    try {
      const answers = [
        await call(t, 'POST', '/api/auth/login', {
          body: { username: staff.username, password: staff.secret, entity: 'default' },
          ip: '10.92.0.1',
        }),
        // The address the staff member signed in from: known, but the priority line is full too.
        await call(t, 'POST', '/api/auth/login', {
          body: { username: staff.username, password: staff.secret, entity: 'default' },
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
  name:
    "with the ordinary line full, a sign-in from an address that signed in before, a DOC number on its facility's network and the tablet's unlock wait in the priority line and succeed, while a new address gets 503",
  ...DB_TEST,
  fn: async () => {
    const staff = await makeUser(t);
    // Two offenders: attempts at once for one account are told to wait (its growing delay), not queued.
    const offender = await makeUser(t, { role: 'offender' });
    const tabletOwner = await makeUser(t, { role: 'offender' });
    const login = (username: string, password: string, ip: string) =>
      call(t, 'POST', '/api/auth/login', { body: { username, password, entity: 'default' }, ip });
    const staffSession = await signIn(t, staff.username, staff.secret, '10.95.0.1');
    const [range] = await t.deps.sql<{ id: string }[]>`
      insert into ip_ranges (entity_id, ip_range, is_active)
      select id, '10.95.8.0/24', true from entities where slug = 'default' returning id`;
    try {
      const tablet = await signIn(t, tabletOwner.username, tabletOwner.secret, '10.95.8.2');
      assert.equal((await call(t, 'POST', '/api/auth/lock', { token: tablet, ip: '10.95.8.2' })).status, 200);

      const gate = fillGate();
      let waiting: Promise<Awaited<ReturnType<typeof call>>[]> | undefined;
      try {
        waiting = Promise.all([
          login(staff.username, staff.secret, '10.95.0.1'),
          // Never signed in from here, but inside the entity's active range: a facility tablet.
          login(offender.username, offender.secret, '10.95.8.1'),
          call(t, 'POST', '/api/auth/unlock', {
            token: tablet,
            body: { pin: tabletOwner.secret },
            ip: '10.95.8.2',
          }),
        ]);
        await until(
          () => hashingGate.lineCounts('priority').queued === 3,
          'the three wait in the priority line',
        );
        const refused = [
          // The same person from an address never signed in from.
          await login(staff.username, staff.secret, '10.95.0.2'),
          // An e-mail address inside the facility's range: the ranges are the offenders'.
          await login(staff.username, staff.secret, '10.95.8.3'),
          // A password change takes no priority place, even from a known address.
          await call(t, 'POST', '/api/auth/password', {
            token: staffSession,
            body: { currentPassword: staff.secret, newPassword: 'Granite-Orchard-Piano-58' },
            ip: '10.95.0.1',
          }),
        ];
        for (const r of refused) {
          assert.equal(r.status, 503, JSON.stringify(r.body));
          assert.equal(r.body.code, 'hashing_busy');
        }
        assert.equal(
          hashingGate.lineCounts('ordinary').queued,
          hashingGate.queueLimit,
          'the ordinary line is as full',
        );
      } finally {
        await gate.release();
      }
      const [known, facility, unlocked] = await waiting!;
      assert.equal(known.status, 200, JSON.stringify(known.body));
      assert.equal(facility.status, 200, JSON.stringify(facility.body));
      assert.equal(unlocked.status, 200, JSON.stringify(unlocked.body));
      assert.deepEqual([hashingGate.running, hashingGate.queued, hashingGate.reserved], [0, 0, 0]);
    } finally {
      await t.deps.sql`delete from ip_ranges where id = ${range.id}`;
    }
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
  },
});
