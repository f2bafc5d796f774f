import assert from 'node:assert/strict';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { makeUser } from '../support/factories.ts';

let t: TestApp;
const GENERIC = 'Please check your login credentials.';

Deno.test({
  name: 'setup: app on a fresh database',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
  },
});

Deno.test({
  name: 'every demo account signs in and gets its role and identity back',
  ...DB_TEST,
  fn: async () => {
    const expected = {
      admin: 'admin',
      approver: 'approver',
      attorney: 'attorney',
      representative: 'representative',
      offender: 'offender',
      offender2: 'offender',
    } as const;
    for (const [key, [username, secret]] of Object.entries(DEMO)) {
      const r = await call(t, 'POST', '/api/auth/login', {
        body: { username, password: secret, entity: 'default' },
      });
      assert.equal(r.status, 200, `${username}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.success, true);
      assert.equal(typeof r.body.token, 'string');
      assert.equal(r.body.user.role, expected[key as keyof typeof expected]);
      assert.equal(r.body.user.entity, 'default');
      if (r.body.user.role === 'offender') assert.equal(r.body.user.docNumber, username);
      else assert.equal(r.body.user.email, username);
      assert.equal(r.body.user.password_hash, undefined);
    }
  },
});

Deno.test({
  name: 'e-mail sign-in ignores letter case',
  ...DB_TEST,
  fn: async () => {
    await signIn(t, 'ADMIN@Demo.Test', DEMO.admin[1]);
  },
});

Deno.test({
  name: 'unknown user, wrong secret, deactivated and pending accounts get the same 401',
  ...DB_TEST,
  fn: async () => {
    const deactivated = await makeUser(t, { status: 'deactivated' });
    const pending = await makeUser(t, { status: 'pending' });
    const attempts = [
      ['nobody@demo.test', 'whatever-123'],
      [DEMO.attorney[0], 'wrong-password'],
      [deactivated.username, deactivated.secret],
      [pending.username, pending.secret],
    ];
    for (const [username, password] of attempts) {
      const r = await call(t, 'POST', '/api/auth/login', {
        body: { username, password, entity: 'default' },
        ip: '10.9.9.1',
      });
      assert.equal(r.status, 401);
      assert.deepEqual({ success: r.body.success, message: r.body.message }, {
        success: false,
        message: GENERIC,
      });
    }
  },
});

Deno.test({
  name: 'me returns the signed-in user; logout revokes the token at once and clears site storage',
  ...DB_TEST,
  fn: async () => {
    const token = await signIn(t, ...DEMO.attorney);
    const me = await call(t, 'GET', '/api/auth/me', { token });
    assert.equal(me.status, 200);
    assert.equal(me.body.user.email, DEMO.attorney[0]);
    const out = await call(t, 'POST', '/api/auth/logout', { token });
    assert.equal(out.status, 200);
    assert.equal(out.headers.get('clear-site-data'), '"storage"');
    assert.equal((await call(t, 'GET', '/api/auth/me', { token })).status, 401);
  },
});

Deno.test({
  name: 'a forged or garbled token is 401',
  ...DB_TEST,
  fn: async () => {
    const token = await signIn(t, ...DEMO.admin);
    const [h, p] = token.split('.');
    assert.equal((await call(t, 'GET', '/api/auth/me', { token: `${h}.${p}.AAAA` })).status, 401);
    assert.equal((await call(t, 'GET', '/api/auth/me', { token: 'not-a-jwt' })).status, 401);
    assert.equal(
      (await call(t, 'GET', '/api/auth/me', { headers: { authorization: 'Basic abc' } })).status,
      401,
    );
  },
});

Deno.test({
  name: 'a session idle past session_idle_minutes is over',
  ...DB_TEST,
  fn: async () => {
    const token = await signIn(t, ...DEMO.representative);
    assert.equal((await call(t, 'GET', '/api/auth/me', { token })).status, 200);
    const [user] = await t.deps.sql<{ id: string }[]>`select id from users where email = ${
      DEMO.representative[0]
    }`;
    await t.deps
      .sql`update sessions set last_seen_at = now() - interval '31 minutes' where user_id = ${user.id}`;
    assert.equal((await call(t, 'GET', '/api/auth/me', { token })).status, 401);
  },
});

Deno.test({
  name: 'the idle timeout follows the setting without a restart',
  ...DB_TEST,
  fn: async () => {
    const token = await signIn(t, ...DEMO.approver);
    const [user] = await t.deps.sql<{ id: string }[]>`select id from users where email = ${DEMO.approver[0]}`;
    await t.deps
      .sql`update sessions set last_seen_at = now() - interval '20 minutes' where user_id = ${user.id}`;
    assert.equal((await call(t, 'GET', '/api/auth/me', { token })).status, 200);
    await t.deps
      .sql`update settings set value = jsonb_set(value, '{value}', '15') where key = 'session_idle_minutes'`;
    await t.deps
      .sql`update sessions set last_seen_at = now() - interval '20 minutes' where user_id = ${user.id}`;
    try {
      assert.equal((await call(t, 'GET', '/api/auth/me', { token })).status, 401);
    } finally {
      await t.deps
        .sql`update settings set value = jsonb_set(value, '{value}', '30') where key = 'session_idle_minutes'`;
    }
  },
});

Deno.test({
  name: 'a session past its absolute lifetime is over even when active',
  ...DB_TEST,
  fn: async () => {
    const token = await signIn(t, ...DEMO.offender);
    await t.deps.sql`update sessions set expires_at = now() - interval '1 second'
                   where user_id = (select id from users where doc_number = ${DEMO.offender[0]})`;
    assert.equal((await call(t, 'GET', '/api/auth/me', { token })).status, 401);
  },
});

Deno.test({
  name: 'sessions last 12 hours by default',
  ...DB_TEST,
  fn: async () => {
    await signIn(t, ...DEMO.offender2);
    const [row] = await t.deps.sql<{ hours: number }[]>`
    select round(extract(epoch from (expires_at - created_at)) / 3600)::int as hours from sessions
    where user_id = (select id from users where doc_number = ${
      DEMO.offender2[0]
    }) order by created_at desc limit 1`;
    assert.equal(row.hours, 12);
  },
});

Deno.test({
  name: 'deactivating a user ends their live session on the next request',
  ...DB_TEST,
  fn: async () => {
    const user = await makeUser(t);
    const token = await signIn(t, user.username, user.secret);
    assert.equal((await call(t, 'GET', '/api/auth/me', { token })).status, 200);
    await t.deps.sql`update users set status = 'deactivated' where id = ${user.id}`;
    assert.equal((await call(t, 'GET', '/api/auth/me', { token })).status, 401);
  },
});

Deno.test({
  name: 'sign-in, failure and logout are audited with address and event data',
  ...DB_TEST,
  fn: async () => {
    const token = await signIn(t, DEMO.admin[0], DEMO.admin[1], '10.20.30.40');
    await call(t, 'POST', '/api/auth/login', {
      body: { username: 'ghost@demo.test', password: 'nope-nope', entity: 'default' },
      ip: '10.20.30.41',
    });
    await call(t, 'POST', '/api/auth/logout', { token, ip: '10.20.30.40' });
    const rows = await t.deps.sql<
      {
        event_type: string;
        ip_address: string;
        event_data: Record<string, unknown>;
        user_id: string | null;
      }[]
    >`
    select event_type, ip_address, event_data, user_id from audit_logs where ip_address like '10.20.30.%' order by id`;
    assert.deepEqual(rows.map((r) => r.event_type), ['user_login', 'login_failed', 'logout']);
    assert.equal(rows[1].event_data.username, 'ghost@demo.test');
    assert.equal(rows[1].event_data.reason, 'unknown_user');
    assert.equal(rows[1].user_id, null);
    assert.ok(rows[0].user_id);
  },
});

Deno.test({
  name: 'the audit log refuses UPDATE, DELETE and TRUNCATE',
  ...DB_TEST,
  fn: async () => {
    const [row] = await t.deps.sql<{ id: string }[]>`select id from audit_logs limit 1`;
    await assert.rejects(
      () => t.deps.sql`update audit_logs set event_type = 'x' where id = ${row.id}`,
      /append-only/,
    );
    await assert.rejects(() => t.deps.sql`delete from audit_logs where id = ${row.id}`, /append-only/);
    await assert.rejects(() => t.deps.sql`truncate audit_logs`, /append-only/);
  },
});

Deno.test({
  name: 'passwords and PINs are stored as slow salted hashes',
  ...DB_TEST,
  fn: async () => {
    const rows = await t.deps.sql<
      { password_hash: string }[]
    >`select password_hash from users where email = ${DEMO.admin[0]} or doc_number = ${DEMO.offender[0]}`;
    for (const r of rows) assert.match(r.password_hash, /^pbkdf2-sha256\$600000\$/);
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
  },
});
