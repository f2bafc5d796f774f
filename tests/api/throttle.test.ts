import assert from 'node:assert/strict';
import { call, createTestApp, DB_TEST, type TestApp } from '../support/app.ts';
import { makeUser } from '../support/factories.ts';

let t: TestApp;
const GENERIC = 'Please check your login credentials.';

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
  name: 'after 5 consecutive failures the right PIN is refused while locked, with the generic answer',
  ...DB_TEST,
  fn: async () => {
    const offender = await makeUser(t, { role: 'offender', secret: '424242' });
    for (let i = 0; i < 5; i++) {
      const r = await attempt(offender.username, '000000', '10.1.0.1');
      assert.equal(r.status, 401);
    }
    const locked = await attempt(offender.username, '424242', '10.1.0.2');
    assert.equal(locked.status, 401);
    assert.equal(locked.body.message, GENERIC);
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
  name: 'unknown usernames lock the same way, so locking tells nothing',
  ...DB_TEST,
  fn: async () => {
    for (let i = 0; i < 6; i++) {
      const r = await attempt('999999', '123456', '10.3.0.1');
      assert.equal(r.status, 401);
      assert.equal(r.body.message, GENERIC);
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
