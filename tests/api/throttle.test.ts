import assert from 'node:assert/strict';
import { call, createTestApp, DB_TEST, type TestApp } from '../support/app.ts';
import { makeUser } from '../support/factories.ts';

let t: TestApp;
const GENERIC = 'Please check your login credentials.';
/** The answer while the lock is in force: how long it lasts, never whether the secret was right. */
const LOCKED = (minutes: number) => ({
  success: false,
  code: 'account_locked',
  message:
    `Too many failed sign-ins: this account is locked for ${minutes} minutes. Please sign in again after that.`,
  detail: String(minutes),
});

const attempt = (username: string, password: string, ip: string) =>
  call(t, 'POST', '/api/auth/login', { body: { username, password, entity: 'default' }, ip });

Deno.test({
  name: 'setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
  },
});

Deno.test({
  name:
    'after 5 consecutive failures the account is locked for the lock time, and the right PIN is told so, not that it is wrong',
  ...DB_TEST,
  fn: async () => {
    const offender = await makeUser(t, { role: 'offender', secret: '424242' });
    for (let i = 0; i < 4; i++) {
      const r = await attempt(offender.username, '000000', '10.1.0.1');
      assert.equal(r.status, 401);
      assert.equal(r.body.message, GENERIC);
    }
    const fifth = await attempt(offender.username, '000000', '10.1.0.1');
    assert.deepEqual({ status: fifth.status, body: fifth.body }, { status: 401, body: LOCKED(10) });
    const locked = await attempt(offender.username, '424242', '10.1.0.2');
    assert.deepEqual({ status: locked.status, body: locked.body }, { status: 401, body: LOCKED(10) });
    // Minutes left, rounded up: a lock ending in 61 seconds is 2 minutes away.
    await t.deps.sql`update login_lockouts set locked_until = now() + interval '61 seconds'
                     where username = ${offender.username}`;
    assert.deepEqual((await attempt(offender.username, '424242', '10.1.0.2')).body, {
      ...LOCKED(2),
    });
    await t.deps.sql`update login_lockouts set locked_until = now() + interval '20 seconds'
                     where username = ${offender.username}`;
    assert.equal(
      (await attempt(offender.username, '424242', '10.1.0.2')).body.message,
      'Too many failed sign-ins: this account is locked for 1 minute. Please sign in again after that.',
    );
    const events = await t.deps.sql<{ event_type: string }[]>`
    select event_type from audit_logs where event_data->>'username' = ${offender.username} order by id`;
    assert.ok(events.some((e) => e.event_type === 'account_locked'));
    assert.equal(events.at(-1)?.event_type, 'login_failed');

    // Ten minutes later the lock is gone and the right PIN works.
    await t.deps
      .sql`update login_lockouts set locked_until = now() - interval '1 second' where username = ${offender.username}`;
    assert.equal((await attempt(offender.username, '424242', '10.1.0.3')).status, 200);
  },
});

Deno.test({
  name: 'a success resets the count of consecutive failures',
  ...DB_TEST,
  fn: async () => {
    const user = await makeUser(t);
    for (let i = 0; i < 4; i++) await attempt(user.username, 'wrong-password', '10.2.0.1');
    assert.equal((await attempt(user.username, user.secret, '10.2.0.1')).status, 200);
    for (let i = 0; i < 4; i++) await attempt(user.username, 'wrong-password', '10.2.0.2');
    assert.equal((await attempt(user.username, user.secret, '10.2.0.2')).status, 200);
  },
});

Deno.test({
  name: 'unknown usernames lock the same way, with the same answers, so locking tells nothing',
  ...DB_TEST,
  fn: async () => {
    for (let i = 0; i < 6; i++) {
      const r = await attempt('999999', '123456', '10.3.0.1');
      assert.equal(r.status, 401);
      assert.deepEqual(
        r.body,
        i < 4 ? { success: false, code: 'bad_credentials', message: GENERIC } : LOCKED(10),
      );
    }
    const [row] = await t.deps.sql`select locked_until from login_lockouts where username = '999999'`;
    assert.ok(row.locked_until);
  },
});

Deno.test({
  name: 'one address gets 429 after 10 failures in 30 minutes, even with a right PIN elsewhere',
  ...DB_TEST,
  fn: async () => {
    const target = await makeUser(t, { role: 'offender', secret: '777777' });
    // Spraying one PIN across many DOC numbers: never 5 failures on one username.
    for (let i = 0; i < 10; i++) {
      const r = await attempt(`55500${i}`, '123456', '10.4.0.1');
      assert.equal(r.status, 401);
    }
    const blocked = await attempt(target.username, '777777', '10.4.0.1');
    assert.equal(blocked.status, 429);
    assert.equal(blocked.body.success, false);
    // Another address is not affected.
    assert.equal((await attempt(target.username, '777777', '10.4.0.2')).status, 200);
    // When the window passes, the address may try again.
    await t.deps.sql`delete from login_failures where ip_address = '10.4.0.1'`;
    assert.equal((await attempt(target.username, '777777', '10.4.0.1')).status, 200);
    const [audited] = await t.deps
      .sql`select 1 from audit_logs where event_type = 'login_throttled' and ip_address = '10.4.0.1'`;
    assert.ok(audited);
  },
});

Deno.test({
  name: 'the failed-login limit and lock minutes follow the settings without a restart',
  ...DB_TEST,
  fn: async () => {
    await t.deps
      .sql`update settings set value = jsonb_set(value, '{value}', '3') where key = 'failed_login_limit'`;
    await t.deps
      .sql`update settings set value = jsonb_set(value, '{value}', '60') where key = 'lockout_minutes'`;
    try {
      const user = await makeUser(t);
      for (let i = 0; i < 3; i++) await attempt(user.username, 'wrong-password', '10.5.0.1');
      assert.equal((await attempt(user.username, user.secret, '10.5.0.2')).status, 401);
      const [row] = await t.deps.sql<{ minutes: number }[]>`
      select round(extract(epoch from locked_until - now()) / 60)::int as minutes from login_lockouts
      where username = ${user.username}`;
      assert.equal(row.minutes, 60);
    } finally {
      await t.deps
        .sql`update settings set value = jsonb_set(value, '{value}', '5') where key = 'failed_login_limit'`;
      await t.deps
        .sql`update settings set value = jsonb_set(value, '{value}', '10') where key = 'lockout_minutes'`;
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
