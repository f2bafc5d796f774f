import assert from 'node:assert/strict';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { makeUser } from '../support/factories.ts';
import { OFFENDER_LIMITS } from '../../api/domain/sign_in_throttle.ts';

let t: TestApp;
let admin: string;
let adminId: string;

const auditEvents = (type: string, resourceId: string) =>
  t.deps.sql<{ user_id: string; event_data: any; ip_address: string }[]>`
    select user_id, event_data, ip_address from audit_logs where event_type = ${type} and resource_id = ${resourceId}`;

Deno.test({
  name: 'setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    admin = await signIn(t, ...DEMO.admin);
    [{ id: adminId }] = await t.deps.sql<{ id: string }[]>`select id from users where email = ${
      DEMO.admin[0]
    }`;
  },
});

Deno.test({
  name:
    "the user list has every user of the admin's own entity and none of another's, newest first, without secrets",
  ...DB_TEST,
  fn: async () => {
    const [other] = await t.deps.sql<{ id: string }[]>`
    insert into entities (name, slug) values ('Other Facility', 'other-facility') returning id`;
    const elsewhere = await makeUser(t, { entityId: other.id, firstName: 'Eve', lastName: 'Elsewhere' });
    const newest = await makeUser(t, { role: 'offender', lastName: 'Newest' });
    // Explicitly the newest: two rows made in the same millisecond would otherwise tie.
    await t.deps.sql`update users set created_at = now() + interval '1 minute' where id = ${newest.id}`;
    const r = await call(t, 'GET', '/api/admin/users', { token: admin });
    assert.equal(r.status, 200);
    assert.equal(r.body.success, true);
    const users = r.body.users as any[];
    assert.equal(users[0].id, newest.id);
    // An admin manages their own entity: another entity's user is not listed.
    assert.equal(users.find((u) => u.id === elsewhere.id), undefined);
    const [own] = await t.deps.sql<{ name: string }[]>`select name from entities where slug = 'default'`;
    assert.ok(users.every((u) => u.entity_name === own.name));
    assert.deepEqual(Object.keys(users[0]).sort(), [
      'created_at',
      'doc_number',
      'email',
      'entity_name',
      'first_name',
      'id',
      'language',
      'last_name',
      'locked_until',
      'role',
      'status',
    ]);
    assert.ok(users.some((u) => u.email === DEMO.admin[0] && u.role === 'admin'));
    const dates = users.map((u) => Date.parse(u.created_at));
    assert.deepEqual(dates, [...dates].sort((a, b) => b - a));
  },
});

Deno.test({
  name: 'deactivating a user ends their live session at once; activating lets them sign in again',
  ...DB_TEST,
  fn: async () => {
    const user = await makeUser(t);
    const token = await signIn(t, user.username, user.secret);
    assert.equal((await call(t, 'GET', '/api/auth/me', { token })).status, 200);

    const off = await call(t, 'PUT', `/api/admin/users/${user.id}/status`, {
      token: admin,
      body: { status: 'deactivated' },
    });
    assert.equal(off.status, 200);
    assert.deepEqual(off.body, { success: true, message: 'User deactivated successfully' });
    assert.equal((await call(t, 'GET', '/api/auth/me', { token })).status, 401);
    const [{ open }] = await t.deps.sql<{ open: number }[]>`
    select count(*)::int as open from sessions where user_id = ${user.id} and revoked_at is null`;
    assert.equal(open, 0, 'the session rows are revoked, not only hidden by the status');
    await assert.rejects(signIn(t, user.username, user.secret));

    const on = await call(t, 'PUT', `/api/admin/users/${user.id}/status`, {
      token: admin,
      body: { status: 'active' },
    });
    assert.deepEqual(on.body, { success: true, message: 'User activated successfully' });
    assert.equal((await call(t, 'GET', '/api/auth/me', { token })).status, 401, 'the old token stays dead');
    const fresh = await signIn(t, user.username, user.secret);
    assert.equal((await call(t, 'GET', '/api/auth/me', { token: fresh })).status, 200);

    const events = await auditEvents('user_status_updated', user.id);
    assert.deepEqual(events.map((e) => [e.event_data.from, e.event_data.to]), [['active', 'deactivated'], [
      'deactivated',
      'active',
    ]]);
    assert.ok(events.every((e) => e.user_id === adminId && e.ip_address === '127.0.0.1'));
  },
});

Deno.test({
  name: 'deactivating an offender ends their session too',
  ...DB_TEST,
  fn: async () => {
    const offender = await makeUser(t, { role: 'offender' });
    const token = await signIn(t, offender.username, offender.secret);
    await call(t, 'PUT', `/api/admin/users/${offender.id}/status`, {
      token: admin,
      body: { status: 'deactivated' },
    });
    assert.equal((await call(t, 'GET', '/api/auth/me', { token })).status, 401);
  },
});

Deno.test({
  name: 'an admin cannot deactivate their own account (400), however their id is written',
  ...DB_TEST,
  fn: async () => {
    // The upper-case id names the same row to PostgreSQL, so the check must catch it too.
    for (const id of [adminId, adminId.toUpperCase()]) {
      const r = await call(t, 'PUT', `/api/admin/users/${id}/status`, {
        token: admin,
        body: { status: 'deactivated' },
      });
      assert.equal(r.status, 400, id);
      assert.equal(r.body.message, 'You cannot deactivate your own account.');
    }
    assert.equal((await call(t, 'GET', '/api/auth/me', { token: admin })).status, 200);
  },
});

Deno.test({
  name: 'a pending user has no status action (409); unknown and malformed ids are refused',
  ...DB_TEST,
  fn: async () => {
    const pending = await makeUser(t, { status: 'pending' });
    const r = await call(t, 'PUT', `/api/admin/users/${pending.id}/status`, {
      token: admin,
      body: { status: 'active' },
    });
    assert.equal(r.status, 409);
    const [{ status }] = await t.deps.sql<
      { status: string }[]
    >`select status from users where id = ${pending.id}`;
    assert.equal(status, 'pending');
    const unknown = await call(t, 'PUT', `/api/admin/users/${crypto.randomUUID()}/status`, {
      token: admin,
      body: { status: 'active' },
    });
    assert.equal(unknown.status, 404);
    assert.equal(
      (await call(t, 'PUT', '/api/admin/users/not-a-uuid/status', {
        token: admin,
        body: { status: 'active' },
      })).status,
      400,
    );
    const badStatus = await call(t, 'PUT', `/api/admin/users/${pending.id}/status`, {
      token: admin,
      body: { status: 'pending' },
    });
    assert.equal(badStatus.status, 400);
    assert.equal(
      badStatus.body.message,
      "Status must be 'active', 'deactivated', 'released' or 'transferred'.",
    );
  },
});

Deno.test({
  name: "a user's activity is their last 10 real audit events, newest first",
  ...DB_TEST,
  fn: async () => {
    const user = await makeUser(t);
    for (let i = 0; i < 12; i++) {
      await t.deps
        .sql`insert into audit_logs (created_at, user_id, event_type, resource_type, ip_address, event_data)
                     values (now() - make_interval(mins => ${
        60 - i
      }), ${user.id}, 'test_event', 'test', '10.0.0.1',
                             ${t.deps.sql.json({ n: i })})`;
    }
    await t.deps
      .sql`insert into audit_logs (user_id, event_type, resource_type) values (${adminId}, 'other_user', 'test')`;
    const r = await call(t, 'GET', `/api/admin/users/${user.id}/activity`, { token: admin });
    assert.equal(r.status, 200);
    const events = r.body.data.events as any[];
    assert.equal(events.length, 10);
    assert.deepEqual(events.map((e) => e.event_data.n), [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
    assert.deepEqual(Object.keys(events[0]).sort(), [
      'created_at',
      'event_data',
      'event_type',
      'id',
      'ip_address',
      'resource_type',
    ]);
    assert.equal(
      (await call(t, 'GET', `/api/admin/users/${crypto.randomUUID()}/activity`, { token: admin })).status,
      404,
    );
  },
});

Deno.test({
  name: "a sign-in shows up in that user's activity",
  ...DB_TEST,
  fn: async () => {
    const user = await makeUser(t);
    await signIn(t, user.username, user.secret, '10.1.2.3');
    const r = await call(t, 'GET', `/api/admin/users/${user.id}/activity`, { token: admin });
    assert.equal(r.body.data.events[0].event_type, 'user_login');
    assert.equal(r.body.data.events[0].ip_address, '10.1.2.3');
  },
});

Deno.test({
  name: 'every back-office write with an empty or wrong body is a readable 4xx, never a 500',
  ...DB_TEST,
  fn: async () => {
    const id = crypto.randomUUID();
    const routes = [
      ['PUT', `/api/admin/users/${id}/status`],
      ['POST', '/api/admin/offenders'],
      ['PUT', `/api/admin/offenders/${id}/pin`],
      ['POST', '/api/admin/offenders/import'],
      ['POST', '/api/admin/entities'],
      ['PUT', `/api/admin/entities/${id}`],
      ['PUT', '/api/admin/settings/failed_login_limit'],
    ];
    for (const [method, path] of routes) {
      for (
        const options of [{ body: {} }, { body: [] }, { body: null }, { rawBody: '{"a":' }, {
          body: { status: 5, pin: [] },
        }]
      ) {
        const r = await call(t, method, path, { token: admin, ...options });
        assert.ok(
          r.status >= 400 && r.status < 500 && ![401, 403].includes(r.status),
          `${method} ${path} ${JSON.stringify(options)}: ${r.status}`,
        );
        assert.equal(r.body.success, false);
        assert.equal(typeof r.body.message, 'string');
      }
    }
  },
});

/**
 * Wrong secrets until the account locks: a staff account at the demo's `failed_login_limit` (5); an offender's
 * at its 100th consecutive failure (the 99 before it written down rather than waited through).
 */
async function lockOut(username: string, ip: string) {
  if (!username.includes('@')) {
    await t.deps.sql`insert into login_lockouts (entity_id, username, consecutive_failures, last_failure_at)
      values ((select id from entities where slug = 'default'), ${username}, 99, now() - interval '1 minute')`;
  }
  for (let i = 0; i < (username.includes('@') ? 5 : 1); i++) {
    const r = await call(t, 'POST', '/api/auth/login', {
      body: { username, password: '000000', entity: 'default' },
      ip,
    });
    assert.notEqual(r.status, 200);
  }
}

Deno.test({
  name:
    "an offender locked by failed sign-ins shows the lock's end in Users; the admin's unlock lets the right PIN in at once, audited",
  ...DB_TEST,
  fn: async () => {
    const offender = await makeUser(t, { role: 'offender' });
    const ip = '10.20.0.1';
    const before = Date.now();
    await lockOut(offender.username, ip);
    await assert.rejects(
      signIn(t, offender.username, offender.secret, ip),
      'the right PIN is refused while locked',
    );

    const listed = await call(t, 'GET', `/api/admin/users?q=${offender.username}&limit=10`, { token: admin });
    assert.equal(listed.body.users.length, 1);
    const lockedUntil = Date.parse(listed.body.users[0].locked_until);
    const minutes = OFFENDER_LIMITS.lockMinutes;
    assert.ok(
      lockedUntil >= before + (minutes * 60 - 5) * 1000 && lockedUntil <= Date.now() + minutes * 60_000,
      `locked_until ${listed.body.users[0].locked_until} is about ${minutes} minutes from now`,
    );
    const all = await call(t, 'GET', '/api/admin/users', { token: admin });
    assert.equal(
      all.body.users.find((u: any) => u.id === offender.id).locked_until,
      listed.body.users[0].locked_until,
    );
    assert.ok(
      all.body.users.filter((u: any) => u.id !== offender.id).every((u: any) => u.locked_until === null),
      'no one else is shown locked',
    );

    const r = await call(t, 'POST', `/api/admin/users/${offender.id}/unlock`, { token: admin });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { success: true, message: 'Account unlocked. The user can sign in again now.' });
    const after = await call(t, 'GET', `/api/admin/users?q=${offender.username}&limit=10`, { token: admin });
    assert.equal(after.body.users[0].locked_until, null);
    const token = await signIn(t, offender.username, offender.secret, ip);
    assert.equal((await call(t, 'GET', '/api/auth/me', { token })).status, 200);

    const events = await auditEvents('account_unlocked', offender.id);
    assert.equal(events.length, 1);
    assert.equal(events[0].user_id, adminId);
    assert.equal(events[0].ip_address, '127.0.0.1');
    assert.equal(Date.parse(events[0].event_data.lockedUntil), lockedUntil);
    assert.equal(events[0].event_data.docNumber, offender.username);
  },
});

Deno.test({
  name: 'a staff account locked by wrong passwords is unlocked alike (its lock is kept under the e-mail)',
  ...DB_TEST,
  fn: async () => {
    const staff = await makeUser(t, { email: `Mixed.Case-${Date.now()}@Example.test` });
    await lockOut(staff.username.toUpperCase(), '10.20.0.2');
    const listed = await call(t, 'GET', `/api/admin/users?q=${encodeURIComponent(staff.username)}&limit=10`, {
      token: admin,
    });
    assert.notEqual(listed.body.users[0].locked_until, null);
    assert.equal(
      (await call(t, 'POST', `/api/admin/users/${staff.id}/unlock`, { token: admin })).status,
      200,
    );
    await signIn(t, staff.username, staff.secret, '10.20.0.2');
  },
});

Deno.test({
  name:
    "unlocking is for admins and their own entity: another entity's user is 404 and keeps its lock; others get 403",
  ...DB_TEST,
  fn: async () => {
    const [other] = await t.deps.sql<{ id: string }[]>`
      insert into entities (name, slug) values ('Third Facility', 'third-facility') returning id`;
    const elsewhere = await makeUser(t, { entityId: other.id, role: 'offender' });
    await t.deps.sql`insert into login_lockouts (entity_id, username, consecutive_failures, locked_until)
      values (${other.id}, ${elsewhere.username}, 5, now() + interval '10 minutes')`;
    const r = await call(t, 'POST', `/api/admin/users/${elsewhere.id}/unlock`, { token: admin });
    assert.equal(r.status, 404);
    assert.equal(r.body.code, 'user_not_found');
    const [lock] = await t.deps.sql<{ locked: boolean }[]>`
      select locked_until > now() as locked from login_lockouts where entity_id = ${other.id}`;
    assert.equal(lock.locked, true);
    assert.equal((await auditEvents('account_unlocked', elsewhere.id)).length, 0);

    assert.equal(
      (await call(t, 'POST', `/api/admin/users/${crypto.randomUUID()}/unlock`, { token: admin })).status,
      404,
    );
    assert.equal((await call(t, 'POST', '/api/admin/users/not-a-uuid/unlock', { token: admin })).status, 400);
    const offender = await makeUser(t, { role: 'offender' });
    for (const who of [DEMO.attorney, DEMO.approver]) {
      const token = await signIn(t, who[0], who[1]);
      const refused = await call(t, 'POST', `/api/admin/users/${offender.id}/unlock`, { token });
      assert.equal(refused.status, 403, who[0]);
    }
    assert.equal((await call(t, 'POST', `/api/admin/users/${offender.id}/unlock`, {})).status, 401);
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
  },
});
