/**
 * The sign-in throttle under attack: bursts sent at
 * once, PINs sprayed across DOC numbers, a facility's shared NAT address, unknown entities, the temporary
 * password after the owner's own sign-in, an address outside the IP whitelist, an inactive entity.
 */
import assert from 'node:assert/strict';
import { call, type CallResult, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { makeUser, TEST_ITERATIONS } from '../support/factories.ts';
import { hashPin, hashSecret, isPepperedUnder } from '../../api/domain/passwords.ts';
import { SIGN_INS_IN_FLIGHT_PER_ADDRESS } from '../../api/domain/sign_in_throttle.ts';

let t: TestApp;
const GENERIC = { success: false, code: 'bad_credentials', message: 'Please check your login credentials.' };
/** The answer once the lock is in force (minutes left, rounded up). */
const LOCKED = {
  success: false,
  code: 'account_locked',
  message:
    'Too many failed sign-ins: this account is locked for 10 minutes. Please sign in again after that.',
  detail: '10',
};

const attempt = (username: string, password: string, ip: string, entity = 'default') =>
  call(t, 'POST', '/api/auth/login', { body: { username, password, entity }, ip });

/** The sign-in audit rows of one username or address, by event and reason. */
async function auditReasons(where: { username?: string; ip?: string }) {
  const rows = await t.deps.sql<{ event_type: string; reason: string | null }[]>`
    select event_type, event_data->>'reason' as reason from audit_logs
    where resource_type = 'auth'
      and (${where.username ?? null}::text is null or event_data->>'username' = ${where.username ?? null})
      and (${where.ip ?? null}::text is null or ip_address = ${where.ip ?? null})`;
  const count = (event: string, reason?: string) =>
    rows.filter((r) => r.event_type === event && (reason === undefined || r.reason === reason)).length;
  return { rows, count };
}

async function makeEntity(slug: string, status: 'active' | 'inactive' = 'active'): Promise<string> {
  const [row] = await t.deps.sql<{ id: string }[]>`
    insert into entities (name, slug, status) values (${`Entity ${slug}`}, ${slug}, ${status}) returning id`;
  return row.id;
}

Deno.test({
  name: 'setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
  },
});

Deno.test({
  name:
    'bursts of 20 wrong passwords at once for one staff account: at most the limit are checked, the account locks, the right password is refused until the lock ends, and what is refused in flight counts nowhere',
  ...DB_TEST,
  fn: async () => {
    // The full work factor, as in production: every check takes long enough for the burst to overlap.
    const staff = await makeUser(t, {
      passwordHash: await hashSecret('Right-Pass-582046!'),
      secret: 'Right-Pass-582046!',
    });
    const ip = '10.61.0.1';
    const burst: CallResult[] = [];
    for (let wave = 0; wave < 3; wave++) {
      burst.push(
        ...await Promise.all(
          Array.from(
            { length: 20 },
            (_, i) => attempt(staff.username, `Wrong-Pass-${wave * 20 + i}!`, ip),
          ),
        ),
      );
    }
    for (const r of burst) assert.ok(r.status === 401 || r.status === 429, `${r.status}`);
    assert.ok(burst.some((r) => r.status === 429), 'some of each burst is refused with 429 at once');

    const audit = await auditReasons({ username: staff.username });
    const checked = audit.count('login_failed', 'bad_secret');
    const tally = (status: number) => burst.filter((r) => r.status === status).length;
    console.log(
      `  3 bursts of 20: ${checked} checked against the hash; ${tally(401)} x 401, ${tally(429)} x 429`,
    );
    assert.ok(checked <= 5, `${checked} passwords were checked; the limit is 5`);
    assert.equal(audit.count('account_locked'), 1);
    // Only the attempts that were not refused in flight are counted against the address.
    const [{ n }] = await t.deps.sql<{ n: number }[]>`
      select count(*)::int as n from login_failures where ip_address = ${ip}`;
    assert.equal(n, tally(401));

    const [lock] = await t.deps.sql<{ locked: boolean }[]>`
      select locked_until > now() as locked from login_lockouts where username = ${staff.username}`;
    assert.equal(lock.locked, true);

    // The right password, from the same address and from another: refused (the same address may have used its
    // budget on the attempts refused as locked, which were counted), elsewhere with the wrong one's answer.
    const same = await attempt(staff.username, staff.secret, ip);
    assert.equal(same.status, n >= 10 ? 429 : 401);
    const elsewhere = await attempt(staff.username, staff.secret, '10.61.0.2');
    assert.equal(elsewhere.status, 401);
    assert.deepEqual(elsewhere.body, LOCKED);
    assert.ok((await auditReasons({ username: staff.username })).count('login_failed', 'locked') >= 1);

    // When the lock ends, the right password works again.
    await t.deps.sql`update login_lockouts set locked_until = now() - interval '1 second'
                     where username = ${staff.username}`;
    assert.equal((await attempt(staff.username, staff.secret, '10.61.0.3')).status, 200);
  },
});

Deno.test({
  name:
    '20 wrong passwords at once for one staff account from 20 addresses: still at most the limit are checked',
  ...DB_TEST,
  fn: async () => {
    // No address is over anything here: only the per-account counter, taken before hashing, holds the line.
    const staff = await makeUser(t, {
      passwordHash: await hashSecret('Right-Pass-318274!'),
      secret: 'Right-Pass-318274!',
    });
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, i) => attempt(staff.username, `Wrong-Pass-${i}!`, `10.60.${i}.1`)),
    );
    // Each is refused alike: the wrong password's answer, or the lock's once it is in force; past the process's
    // hashing line (api/domain/passwords.ts: 9 places on a 2-core machine) a sign-in is refused before it counts.
    const busy = burst.filter((r) => r.status === 503 && r.body.code === 'hashing_busy').length;
    for (const r of burst.filter((r) => r.status !== 503)) {
      assert.equal(r.status, 401);
      assert.ok([GENERIC.code, LOCKED.code].includes(r.body.code), JSON.stringify(r.body));
    }
    assert.ok(burst.some((r) => r.body.code === LOCKED.code));
    const audit = await auditReasons({ username: staff.username });
    const checked = audit.count('login_failed', 'bad_secret');
    console.log(`  burst from 20 addresses: ${checked} checked against the hash, ${busy} refused uncounted`);
    assert.ok(checked <= 5, `${checked} passwords were checked; the limit is 5`);
    assert.equal(audit.count('login_failed', 'locked'), 20 - busy - checked);
    assert.equal(audit.count('account_locked'), 1);
    assert.equal((await attempt(staff.username, staff.secret, '10.60.99.1')).status, 401);
  },
});

Deno.test({
  name:
    "20 wrong PINs at once for one DOC number from 20 addresses: only the account's free tries are checked, the rest are told to wait, and the right PIN gets in once the wait has passed",
  ...DB_TEST,
  fn: async () => {
    const offender = await makeUser(t, {
      role: 'offender',
      passwordHash: await hashPin('318275', { pepper: t.deps.pinPepper }),
      secret: '318275',
    });
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, i) => attempt(offender.username, String(200000 + i), `10.59.${i}.1`)),
    );
    const waited = burst.filter((r) => r.status === 429);
    for (const r of waited) assert.equal(r.body.code, 'sign_in_wait');
    // Past the process's hashing line (9 places on a 2-core machine) a sign-in is refused before it counts.
    const busy = burst.filter((r) => r.status === 503 && r.body.code === 'hashing_busy').length;
    const audit = await auditReasons({ username: offender.username });
    const checked = audit.count('login_failed', 'bad_secret');
    console.log(`  burst for one DOC number from 20 addresses: ${checked} checked against the hash`);
    // The account's reservations are serialised: only the two free tries and the one that starts the wait.
    assert.ok(checked <= 3, `${checked} PINs were checked; the free tries are 3`);
    assert.equal(waited.length, 20 - busy - checked);
    assert.equal(audit.count('account_locked'), 0);
    await t.deps.sql`update login_lockouts set last_failure_at = now() - interval '1 minute'
                     where username = ${offender.username}`;
    assert.equal((await attempt(offender.username, offender.secret, '10.59.99.1')).status, 200);
  },
});

Deno.test({
  name: 'a right password while the lock is in force neither signs in nor lifts the lock',
  ...DB_TEST,
  fn: async () => {
    const staff = await makeUser(t, { secret: 'Right-Pass-604215!' });
    for (let i = 0; i < 5; i++) await attempt(staff.username, 'Wrong-Pass-1!', `10.62.0.${i + 1}`);
    for (let i = 0; i < 3; i++) {
      const r = await attempt(staff.username, staff.secret, '10.62.1.1');
      assert.equal(r.status, 401);
      assert.deepEqual(r.body, LOCKED);
    }
    const [lock] = await t.deps.sql<{ locked: boolean }[]>`
      select locked_until > now() as locked from login_lockouts where username = ${staff.username}`;
    assert.equal(lock.locked, true, 'the lock is still in force');
  },
});

Deno.test({
  name:
    'the same burst spread over 20 DOC numbers from one address: only what was checked counts; 429 after 10',
  ...DB_TEST,
  fn: async () => {
    const offenders = await Promise.all(
      Array.from({ length: 20 }, () => makeUser(t, { role: 'offender', secret: '731902' })),
    );
    // At once: at most SIGN_INS_IN_FLIGHT_PER_ADDRESS checked and counted, the rest 429.
    const ip = '10.63.0.1';
    const burst = await Promise.all(offenders.map((o) => attempt(o.username, '111111', ip)));
    const refused = burst.filter((r) => r.status === 429).length;
    assert.ok(refused >= 10, `${refused} of 20 got 429`);
    const audit = await auditReasons({ ip });
    assert.ok(audit.count('login_failed', 'bad_secret') <= SIGN_INS_IN_FLIGHT_PER_ADDRESS);
    // What was refused in flight checked nothing and counts nowhere: the address keeps its budget for others.
    const [{ n }] = await t.deps.sql<{ n: number }[]>`
      select count(*)::int as n from login_failures where ip_address = ${ip}`;
    assert.equal(n, burst.filter((r) => r.status === 401).length);
    assert.ok(n <= SIGN_INS_IN_FLIGHT_PER_ADDRESS);
    assert.equal((await attempt(offenders[0].username, offenders[0].secret, ip)).status, 200);

    // One after another: ten 401s, then 429 (the eleventh never reaches the hash).
    const slow = '10.63.0.2';
    const statuses: number[] = [];
    for (const o of offenders.slice(0, 11)) statuses.push((await attempt(o.username, '222222', slow)).status);
    assert.deepEqual(statuses, [...Array(10).fill(401), 429]);
    const busy = burst.find((r) => r.status === 429 && r.headers.get('retry-after'));
    if (busy) assert.match(busy.body.message, /at once/);
  },
});

Deno.test({
  name: 'sign-ins naming an unknown entity count against the address and are throttled',
  ...DB_TEST,
  fn: async () => {
    const ip = '10.64.0.1';
    for (let i = 0; i < 10; i++) {
      const r = await attempt(`88800${i}`, '123456', ip, 'no-such-entity');
      assert.equal(r.status, 401);
      assert.deepEqual(r.body, GENERIC);
    }
    assert.equal((await attempt('888010', '123456', ip, 'no-such-entity')).status, 429);
    // And the budget is the address's, whatever entity comes next.
    assert.equal((await attempt(DEMO.offender[0], DEMO.offender[1], ip)).status, 429);
    const audit = await auditReasons({ ip });
    assert.equal(audit.count('login_failed', 'unknown_entity'), 10);
    assert.equal(audit.count('login_throttled', 'address_budget'), 2);
  },
});

Deno.test({
  name: 'more sign-ins at once from one address than the limit get 429 with Retry-After, before any hashing',
  ...DB_TEST,
  fn: async () => {
    const users = await Promise.all(Array.from({ length: 8 }, () => makeUser(t, { role: 'offender' })));
    const ip = '10.65.0.1';
    const burst = await Promise.all(users.map((u) => attempt(u.username, u.secret, ip)));
    const ok = burst.filter((r) => r.status === 200).length;
    const busy = burst.filter((r) => r.status === 429);
    assert.ok(ok >= 1 && ok <= SIGN_INS_IN_FLIGHT_PER_ADDRESS, `${ok} signed in at once`);
    assert.equal(ok + busy.length, 8);
    for (const r of busy) {
      assert.equal(r.headers.get('retry-after'), '2');
      assert.match(r.body.message, /at once/);
    }
    assert.equal((await auditReasons({ ip })).count('login_throttled', 'in_flight'), busy.length);
    // A moment later each of them gets in.
    for (const u of users) assert.equal((await attempt(u.username, u.secret, ip)).status, 200);
  },
});

Deno.test({
  name: 'the temporary password is refused once the owner has signed in with their own password',
  ...DB_TEST,
  fn: async () => {
    const user = await makeUser(t, {
      tempPasswordHash: await hashSecret('Temp-4k9Q-z7Xp', 1000),
      tempPasswordExpiresAt: new Date(Date.now() + 86_400_000),
    });
    // Whoever saw the temporary password (the approver) signs in with it first: a must-change session.
    const other = await attempt(user.username, 'Temp-4k9Q-z7Xp', '10.66.0.1');
    assert.equal(other.status, 200);
    assert.equal(other.body.user.mustChangePassword, true);
    // The owner signs in with their own password.
    const own = await attempt(user.username, user.secret, '10.66.0.2');
    assert.equal(own.status, 200);
    assert.equal(own.body.user.mustChangePassword, false);
    // The temporary password neither signs in again nor sets a new password in the other session.
    assert.equal((await attempt(user.username, 'Temp-4k9Q-z7Xp', '10.66.0.1')).status, 401);
    const takeover = await call(t, 'POST', '/api/auth/password', {
      token: other.body.token,
      body: { currentPassword: 'Temp-4k9Q-z7Xp', newPassword: 'Quiet-Harbor-Lantern-93' },
      ip: '10.66.0.1',
    });
    assert.equal(takeover.status, 400);
    assert.equal((await attempt(user.username, user.secret, '10.66.0.2')).status, 200);
    const [row] = await t.deps.sql`select temp_password_hash from users where id = ${user.id}`;
    assert.equal(row.temp_password_hash, null);
  },
});

Deno.test({
  name: 'the temporary password is refused after the owner signs in, also when nobody used it before',
  ...DB_TEST,
  fn: async () => {
    const user = await makeUser(t, {
      tempPasswordHash: await hashSecret('Temp-8mRt-w2Lc', 1000),
      tempPasswordExpiresAt: new Date(Date.now() + 86_400_000),
    });
    assert.equal((await attempt(user.username, user.secret, '10.66.1.1')).status, 200);
    assert.equal((await attempt(user.username, 'Temp-8mRt-w2Lc', '10.66.1.1')).status, 401);
    const { count } = await auditReasons({ username: user.username });
    assert.equal(count('login_failed', 'bad_secret'), 1);
  },
});

Deno.test({
  name: 'an inactive entity: a right secret gets the generic 401, audited as entity_inactive',
  ...DB_TEST,
  fn: async () => {
    const entityId = await makeEntity('closed-facility', 'inactive');
    const user = await makeUser(t, { entityId });
    const offender = await makeUser(t, { role: 'offender', entityId });
    for (const u of [user, offender]) {
      const r = await attempt(u.username, u.secret, '10.67.0.1', 'closed-facility');
      assert.equal(r.status, 401);
      assert.deepEqual(r.body, GENERIC);
      assert.equal(
        (await auditReasons({ username: u.username })).count('login_failed', 'entity_inactive'),
        1,
      );
    }
  },
});

Deno.test({
  name:
    'a DOC number from outside the IP whitelist is refused saying why, the same for a right and a wrong PIN, and never locks the account',
  ...DB_TEST,
  fn: async () => {
    const entityId = await makeEntity('walled-facility');
    const admin = await makeUser(t, { role: 'admin', entityId });
    const offender = await makeUser(t, { role: 'offender', entityId, secret: '904418' });
    const login = await attempt(admin.username, admin.secret, '10.68.0.1', 'walled-facility');
    assert.equal(login.status, 200);
    const added = await call(t, 'POST', '/api/admin/ip-whitelist', {
      token: login.body.token,
      body: { ipRange: '10.68.10.0/24', description: 'Unit A' },
      ip: '10.68.0.1',
    });
    assert.equal(added.status, 201);

    const right = await attempt(offender.username, '904418', '198.51.100.7', 'walled-facility');
    const wrong = await attempt(offender.username, '000000', '198.51.100.8', 'walled-facility');
    const unknown = await attempt('99999999', '000000', '198.51.100.8', 'walled-facility');
    assert.equal(right.status, 403);
    assert.equal(right.body.code, 'sign_in_network_not_allowed');
    for (const other of [wrong, unknown]) {
      assert.deepEqual(
        { status: right.status, body: right.body, type: right.headers.get('content-type') },
        { status: other.status, body: other.body, type: other.headers.get('content-type') },
      );
    }
    const { count } = await auditReasons({ username: offender.username });
    assert.equal(count('login_blocked_ip', 'ip_not_allowed'), 2);
    assert.equal(count('login_failed'), 0, 'nothing was looked up or checked');

    // Five right PINs from a network the whitelist does not admit yet: the account is not locked, so once the
    // admin adds the network the offender gets in at once.
    for (let i = 0; i < 5; i++) {
      const r = await attempt(offender.username, '904418', '198.51.100.9', 'walled-facility');
      assert.equal(r.body.code, 'sign_in_network_not_allowed');
    }
    assert.equal((await auditReasons({ username: offender.username })).count('account_locked'), 0);
    const admitted = await call(t, 'POST', '/api/admin/ip-whitelist', {
      token: login.body.token,
      body: { ipRange: '198.51.100.9', description: 'Unit B' },
      ip: '10.68.0.1',
    });
    assert.equal(admitted.status, 201);
    assert.equal((await attempt(offender.username, '904418', '198.51.100.9', 'walled-facility')).status, 200);
    // Staff sign in from anywhere, as before.
    assert.equal(
      (await attempt(admin.username, admin.secret, '198.51.100.7', 'walled-facility')).status,
      200,
    );
    // From inside the first range the PIN works too.
    assert.equal((await attempt(offender.username, '904418', '10.68.10.5', 'walled-facility')).status, 200);
  },
});

Deno.test({
  name: '30 offenders on one whitelisted facility address each mistype once, then all get in',
  ...DB_TEST,
  fn: async () => {
    const entityId = await makeEntity('shared-nat-facility');
    const admin = await makeUser(t, { role: 'admin', entityId });
    const login = await attempt(admin.username, admin.secret, '10.69.0.1', 'shared-nat-facility');
    const added = await call(t, 'POST', '/api/admin/ip-whitelist', {
      token: login.body.token,
      body: { ipRange: '10.69.20.1', description: 'Housing unit NAT' },
      ip: '10.69.0.1',
    });
    assert.equal(added.status, 201);
    const offenders = await Promise.all(
      Array.from({ length: 30 }, () => makeUser(t, { role: 'offender', entityId, secret: '650321' })),
    );
    const nat = '10.69.20.1';
    // Tablets at shift change: a few at a time, each mistyping once and then typing the PIN right.
    for (let i = 0; i < offenders.length; i += SIGN_INS_IN_FLIGHT_PER_ADDRESS) {
      const wave = offenders.slice(i, i + SIGN_INS_IN_FLIGHT_PER_ADDRESS);
      const results = await Promise.all(wave.map(async (o) => {
        const typo = await attempt(o.username, '650312', nat, 'shared-nat-facility');
        const right = await attempt(o.username, o.secret, nat, 'shared-nat-facility');
        return [typo, right] as [CallResult, CallResult];
      }));
      for (const [typo, right] of results) {
        assert.equal(typo.status, 401);
        assert.equal(right.status, 200, JSON.stringify(right.body));
      }
    }
    // The same pattern from an address outside every range: refused as outside the whitelist, and stopped at the
    // ordinary budget.
    const outside = '10.70.0.1';
    const statuses: number[] = [];
    for (const o of offenders.slice(0, 11)) {
      statuses.push((await attempt(o.username, '650312', outside, 'shared-nat-facility')).status);
    }
    assert.deepEqual(statuses, [...Array(10).fill(403), 429]);
  },
});

Deno.test({
  name: 'a success does not count against the address budget',
  ...DB_TEST,
  fn: async () => {
    const ip = '10.71.0.1';
    for (let i = 0; i < 15; i++) await signIn(t, DEMO.attorney[0], DEMO.attorney[1], ip);
    const [{ n }] = await t.deps.sql<{ n: number }[]>`
      select count(*)::int as n from login_failures where ip_address = ${ip}`;
    assert.equal(n, 0);
  },
});

Deno.test({
  name: 'a sign-in racing a PIN reset never outlives it, nor writes the old PIN back over it',
  ...DB_TEST,
  fn: async () => {
    // A sign-in with the old PIN, hashing while an admin resets it, must not open a session that outlives the
    // reset; with a PIN stored before the pepper, its re-hash must not write the old PIN back over the new one.
    const admin = await signIn(t, ...DEMO.admin);
    // The one-time PIN of a reset works on the facility's network only: this test's addresses are that network,
    // for this test alone (the other tests' offenders sign in from addresses the entity's empty list admits).
    const [range] = await t.deps.sql<{ id: string }[]>`
      insert into ip_ranges (entity_id, ip_range, is_active)
      select id, '10.77.0.0/16', true from entities where slug = 'default' returning id`;
    try {
      for (const delay of [20, 80, 160]) {
        const offender = await makeUser(t, {
          role: 'offender',
          secret: '424242',
          passwordHash: await hashSecret('424242'),
        });
        const signingIn = attempt(offender.username, '424242', '10.77.0.1');
        await new Promise((resolve) => setTimeout(resolve, delay));
        const reset = await call(t, 'PUT', `/api/admin/offenders/${offender.id}/pin`, {
          token: admin,
          body: { pin: '582914' },
        });
        assert.equal(reset.status, 200, JSON.stringify(reset.body));
        const raced = await signingIn;
        if (raced.status === 200) {
          const me = await call(t, 'GET', '/api/auth/me', { token: raced.body.token });
          assert.equal(me.status, 401, `${delay} ms: the old PIN's session ends with the reset`);
        }
        assert.equal(
          (await attempt(offender.username, '582914', '10.77.0.2')).status,
          200,
          `${delay} ms: new PIN`,
        );
        assert.equal(
          (await attempt(offender.username, '424242', '10.77.0.3')).status,
          401,
          `${delay} ms: old PIN`,
        );
      }
    } finally {
      await t.deps.sql`delete from ip_ranges where id = ${range.id}`;
    }
  },
});

Deno.test({
  name: 'a one-time temporary password opens one session, however many sign-ins race with it',
  ...DB_TEST,
  fn: async () => {
    const user = await makeUser(t);
    await t.deps.sql`update users set temp_password_hash = ${await hashSecret('Temp-Once-2026!')},
      temp_password_expires_at = now() + interval '1 hour' where id = ${user.id}`;
    const answers = await Promise.all(
      ['10.78.0.1', '10.78.0.2', '10.78.0.3'].map((ip) => attempt(user.username, 'Temp-Once-2026!', ip)),
    );
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 401, 401]);
  },
});

Deno.test({
  name:
    'two first sign-ins at once of an offender whose PIN predates the pepper: both get in, and the PIN rests peppered',
  ...DB_TEST,
  fn: async () => {
    const offender = await makeUser(t, {
      role: 'offender',
      secret: '418207',
      passwordHash: await hashSecret('418207', TEST_ITERATIONS),
    });
    const answers = await Promise.all(
      ['10.79.0.1', '10.79.0.2'].map((ip) => attempt(offender.username, '418207', ip)),
    );
    // The right PIN is never refused as a wrong one. The account's wait may answer one of the two first (an
    // attempt in flight counts until it is proven right, and PostgreSQL can show it to the other): that one gets
    // in once the wait is over.
    const outcomes = answers.map((a) => a.status === 200 ? 'in' : a.body.code);
    assert.ok(outcomes.includes('in'), JSON.stringify(answers.map((a) => a.body)));
    for (const [i, outcome] of outcomes.entries()) {
      if (outcome === 'in') continue;
      assert.equal(outcome, 'sign_in_wait', JSON.stringify(answers.map((a) => a.body)));
      await new Promise((resolve) => setTimeout(resolve, Number(answers[i].body.detail) * 1000 + 100));
      assert.equal((await attempt(offender.username, '418207', `10.79.0.${i + 1}`)).status, 200);
    }
    const [row] = await t.deps.sql<{ password_hash: string }[]>`
      select password_hash from users where id = ${offender.id}`;
    assert.ok(await isPepperedUnder(row.password_hash, t.deps.pinPepper));
    assert.equal((await attempt(offender.username, '418207', '10.79.0.3')).status, 200);
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
  },
});
