import assert from 'node:assert/strict';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { DEMO_ACCOUNTS } from '../../api/cli/demo_seed.ts';
import { makeUser } from '../support/factories.ts';
import { loadConfig } from '../../api/config.ts';
import { hashPin, hashSecret, isPeppered, loadPinPepper, verifySecret } from '../../api/domain/passwords.ts';

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
  name: 'me returns the signed-in user; logout revokes the token at once and clears the HTTP cache',
  ...DB_TEST,
  fn: async () => {
    const token = await signIn(t, ...DEMO.attorney);
    const me = await call(t, 'GET', '/api/auth/me', { token });
    assert.equal(me.status, 200);
    assert.equal(me.body.user.email, DEMO.attorney[0]);
    const out = await call(t, 'POST', '/api/auth/logout', { token });
    assert.equal(out.status, 200);
    // Not "storage": that would unregister the tablet's service worker (api/routes/auth.ts).
    assert.equal(out.headers.get('clear-site-data'), '"cache"');
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
  name: 'passwords are stored as slow salted hashes, PINs (once signed in with) as peppered ones',
  ...DB_TEST,
  fn: async () => {
    // The seed's own hashes (the test apps re-hash the demo accounts at a low work factor: tests/support/app.ts).
    for (const account of DEMO_ACCOUNTS) assert.match(account.hash, /^pbkdf2-sha256\$600000\$/);
    // The demo seed stores PINs without the pepper (it runs before the pepper is loaded); the first sign-in
    // above re-hashed this one under it.
    const [offender] = await t.deps.sql<{ password_hash: string }[]>`
    select password_hash from users where doc_number = ${DEMO.offender[0]}`;
    assert.match(offender.password_hash, /^pbkdf2-sha256-pepper\$[0-9a-f]{8}\$600000\$/);
  },
});

Deno.test({
  name: 'a wrong current password counts like a failed sign-in: audited, and the same lock after the limit',
  ...DB_TEST,
  fn: async () => {
    const user = await makeUser(t);
    const ip = '10.31.0.1';
    const token = await signIn(t, user.username, user.secret, ip);
    const change = (currentPassword: string) =>
      call(t, 'POST', '/api/auth/password', {
        token,
        body: { currentPassword, newPassword: 'Quiet-Harbor-Lantern-93' },
        ip,
      });
    for (let i = 0; i < 5; i++) {
      const r = await change('not-my-password');
      assert.equal(r.status, 400);
      assert.equal(r.body.message, 'The current password is not correct.');
    }
    // Locked: even the right current password is refused, and so is a sign-in with it.
    const locked = await change(user.secret);
    assert.equal(locked.status, 429);
    assert.equal(locked.body.message, 'Too many wrong passwords. Please try again in 10 minutes.');
    const login = await call(t, 'POST', '/api/auth/login', {
      body: { username: user.username, password: user.secret, entity: 'default' },
      ip: '10.31.0.2',
    });
    assert.equal(login.status, 401);
    const rows = await t.deps.sql<{ event_type: string; reason: string | null }[]>`
    select event_type, event_data->>'reason' as reason from audit_logs
    where user_id = ${user.id} and event_type in ('password_change_failed', 'account_locked') order by id`;
    assert.deepEqual(rows.map((r) => `${r.event_type}:${r.reason}`), [
      ...Array(4).fill('password_change_failed:bad_secret'),
      'account_locked:null',
      'password_change_failed:bad_secret',
      'password_change_failed:locked',
    ]);
  },
});

Deno.test({
  name: 'a right current password resets the count, so a mistyped one now and then never locks',
  ...DB_TEST,
  fn: async () => {
    const user = await makeUser(t);
    const ip = '10.32.0.1';
    let password = user.secret;
    let token = await signIn(t, user.username, password, ip);
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 3; i++) {
        const r = await call(t, 'POST', '/api/auth/password', {
          token,
          body: { currentPassword: 'not-my-password', newPassword: 'Quiet-Harbor-Lantern-93' },
          ip,
        });
        assert.equal(r.status, 400);
      }
      const next = `Quiet-Harbor-Lantern-9${round}x`;
      const ok = await call(t, 'POST', '/api/auth/password', {
        token,
        body: { currentPassword: password, newPassword: next },
        ip,
      });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      password = next;
      token = await signIn(t, user.username, password, ip);
    }
  },
});

Deno.test({
  name: 'a peppered PIN hash does not verify without the pepper, nor under another one',
  fn: async () => {
    const pepper = new TextEncoder().encode('p'.repeat(40));
    const stored = await hashPin('482913', { pepper, iterations: 1000 });
    assert.match(stored, /^pbkdf2-sha256-pepper\$[0-9a-f]{8}\$1000\$/);
    assert.equal(await verifySecret('482913', stored, { pepper }), true);
    assert.equal(await verifySecret('482914', stored, { pepper }), false);
    assert.equal(await verifySecret('482913', stored), false);
    assert.equal(
      await verifySecret('482913', stored, { pepper: new TextEncoder().encode('q'.repeat(40)) }),
      false,
    );
    // Read as an ordinary salted hash of the PIN, it does not match either.
    const [, , ...rest] = stored.split('$');
    assert.equal(await verifySecret('482913', `pbkdf2-sha256$${rest.join('$')}`), false);
  },
});

Deno.test({
  name: 'a PIN hashed before the pepper still signs in, and is re-hashed under the pepper',
  ...DB_TEST,
  fn: async () => {
    const offender = await makeUser(t, {
      role: 'offender',
      passwordHash: await hashSecret('551177', 1000),
      secret: '551177',
    });
    await signIn(t, offender.username, '551177', '10.33.0.1');
    const [row] = await t.deps.sql<{ password_hash: string }[]>`
    select password_hash from users where id = ${offender.id}`;
    assert.ok(isPeppered(row.password_hash));
    assert.equal(await verifySecret('551177', row.password_hash), false, 'useless without the pepper');
    await signIn(t, offender.username, '551177', '10.33.0.1');
  },
});

Deno.test({
  name: 'the PIN pepper is PIN_PEPPER, or generated once into DATA_DIR readable by the owner only',
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: 'lmp-pepper-' });
    try {
      const first = await loadPinPepper(undefined, dir);
      assert.deepEqual(await loadPinPepper(undefined, dir), first);
      assert.equal(first.length, 64);
      assert.equal((await Deno.stat(`${dir}/pin-pepper`)).mode! & 0o777, 0o600);
      const set = 'x'.repeat(32);
      assert.deepEqual(await loadPinPepper(set, dir), new TextEncoder().encode(set));
      assert.equal(loadConfig({ PIN_PEPPER: set }).pinPepper, set);
      assert.throws(() => loadConfig({ PIN_PEPPER: 'short' }), /PIN_PEPPER must be at least 32 characters/);
    } finally {
      await Deno.remove(dir, { recursive: true });
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
