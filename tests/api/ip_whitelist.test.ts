/**
 * The IP whitelist: its admin API (CRUD, validation, duplicates, audit) and its enforcement on offender
 * sign-in and offender calls, with the client address taken from the socket, or from X-Forwarded-For only
 * behind a trusted proxy.
 */
import assert from 'node:assert/strict';
import { createApp } from '../../api/app.ts';
import { loadConfig } from '../../api/config.ts';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';

const BLOCKED = 'Access from this network is not allowed. Please use a facility tablet.';

let t: TestApp;
/** The same database behind a proxy: 10.9.0.0/16 (a CIDR block) and 192.0.2.7 (an exact address) are trusted. */
let proxied: TestApp;
let admin: string;
let adminId: string;

Deno.test({
  name: 'setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      DATA_DIR: '/nonexistent',
      TRUSTED_PROXIES: '10.9.0.0/16, 192.0.2.7',
    });
    proxied = { ...t, app: createApp({ ...t.deps, config }) };
    admin = await signIn(t, ...DEMO.admin);
    [{ id: adminId }] = await t.deps.sql<{ id: string }[]>`select id from users where email = ${
      DEMO.admin[0]
    }`;
  },
});

const add = (ipRange: unknown, description?: unknown) =>
  call(t, 'POST', '/api/admin/ip-whitelist', { token: admin, body: { ipRange, description } });
const put = (id: string, body: unknown) =>
  call(t, 'PUT', `/api/admin/ip-whitelist/${id}`, { token: admin, body });
const remove = (id: string) => call(t, 'DELETE', `/api/admin/ip-whitelist/${id}`, { token: admin });
const list = async () =>
  (await call(t, 'GET', '/api/admin/ip-whitelist', { token: admin })).body.data.ipRanges;

/** Runs `fn` with exactly these ranges in the whitelist (active unless listed in `inactive`), then empties it. */
async function withRanges(ranges: string[], fn: () => Promise<void>, inactive: string[] = []) {
  for (const range of [...ranges, ...inactive]) {
    const r = await add(range);
    assert.equal(r.status, 201, `${range}: ${JSON.stringify(r.body)}`);
    if (inactive.includes(range)) {
      assert.equal((await put(r.body.data.ipRange.id, { isActive: false })).status, 200);
    }
  }
  try {
    await fn();
  } finally {
    for (const range of await list()) assert.equal((await remove(range.id)).status, 200);
  }
}

const offenderLogin = (ip: string, app: TestApp = t, headers: Record<string, string> = {}) =>
  call(app, 'POST', '/api/auth/login', {
    body: { username: DEMO.offender[0], password: DEMO.offender[1], entity: 'default' },
    ip,
    headers,
  });

function assertBlocked(r: { status: number; body: any }, what: string) {
  assert.equal(r.status, 403, `${what}: ${JSON.stringify(r.body)}`);
  assert.deepEqual(r.body, { success: false, message: BLOCKED, code: 'ip_not_allowed' }, what);
}

function assertAdmitted(r: { status: number; body: any }, what: string) {
  assert.equal(r.status, 200, `${what}: ${JSON.stringify(r.body)}`);
  assert.equal(r.body.success, true, what);
}

/** Admitted and refused sign-in addresses for one range. */
async function enforces(range: string, inside: string[], outside: string[]) {
  await withRanges([range], async () => {
    for (const ip of inside) assertAdmitted(await offenderLogin(ip), `${ip} is inside ${range}`);
    for (const ip of outside) assertBlocked(await offenderLogin(ip), `${ip} is outside ${range}`);
  });
}

// ---------------------------------------------------------------- the admin API

Deno.test({
  name: 'an admin adds, lists, edits, toggles and deletes a range, each audited',
  ...DB_TEST,
  fn: async () => {
    const created = await add(' 10.20.30.40 ', 'Housing unit B tablets');
    assert.equal(created.status, 201);
    assert.equal(created.body.success, true);
    assert.equal(created.body.message, 'IP range added successfully');
    const range = created.body.data.ipRange;
    assert.equal(range.ipRange, '10.20.30.40');
    assert.equal(range.description, 'Housing unit B tablets');
    assert.equal(range.isActive, true);
    assert.ok(!Number.isNaN(Date.parse(range.createdAt)));
    assert.deepEqual(Object.keys(range).sort(), ['createdAt', 'description', 'id', 'ipRange', 'isActive']);
    assert.deepEqual((await list()).map((r: any) => r.ipRange), ['10.20.30.40']);

    const edited = await put(range.id, { ipRange: '10.20.30.0/24', description: 'Unit B', isActive: true });
    assert.equal(edited.status, 200);
    assert.equal(edited.body.message, 'IP range updated successfully');
    assert.equal(edited.body.data.ipRange.ipRange, '10.20.30.0/24');
    assert.equal(edited.body.data.ipRange.description, 'Unit B');

    const off = await put(range.id, { isActive: false });
    assert.equal(off.body.message, 'IP range deactivated');
    assert.equal(off.body.data.ipRange.isActive, false);
    // An edit without isActive keeps the current state.
    const kept = await put(range.id, { ipRange: '10.20.30.0/24', description: '' });
    assert.equal(kept.body.message, 'IP range updated successfully');
    assert.equal(kept.body.data.ipRange.isActive, false);
    assert.equal(kept.body.data.ipRange.description, null);
    const on = await put(range.id, { isActive: true });
    assert.equal(on.body.message, 'IP range activated');
    assert.equal(on.body.data.ipRange.isActive, true);

    const deleted = await remove(range.id);
    assert.equal(deleted.status, 200);
    assert.deepEqual(deleted.body, { success: true, message: 'IP range deleted successfully' });
    assert.deepEqual(await list(), []);
    assert.equal((await remove(range.id)).status, 404);
    assert.equal((await put(range.id, { isActive: true })).status, 404);

    const events = await t.deps.sql<{ event_type: string; user_id: string; event_data: any }[]>`
    select event_type, user_id, event_data from audit_logs where resource_type = 'ip_range' and resource_id = ${range.id}
    order by id`;
    assert.deepEqual(events.map((e) => e.event_type), [
      'ip_range_created',
      'ip_range_updated',
      'ip_range_updated',
      'ip_range_updated',
      'ip_range_updated',
      'ip_range_deleted',
    ]);
    assert.ok(events.every((e) => e.user_id === adminId));
    assert.equal(events[0].event_data.ipRange, '10.20.30.40');
    assert.deepEqual(events[2].event_data.before.isActive, true);
    assert.deepEqual(events[2].event_data.after.isActive, false);
    assert.equal(events[5].event_data.ipRange, '10.20.30.0/24');
  },
});

Deno.test({
  name: 'a blank range is required; anything but the supported forms is an invalid format (400)',
  ...DB_TEST,
  fn: async () => {
    for (const blank of ['', '   ', undefined, null]) {
      const r = await add(blank);
      assert.equal(r.status, 400, JSON.stringify(blank));
      assert.equal(r.body.success, false);
      assert.equal(r.body.message, 'IP range is required');
    }
    for (
      const bad of [
        '10.1',
        '010.0.0.1',
        '256.1.1.1',
        '1.2.3',
        '1::2::3',
        '10.0.0.0/33',
        '2001:db8::/129',
        'fe80::1%eth0',
        '192.*.1.*',
        '*',
        'localhost',
        42,
        'x'.repeat(300),
      ]
    ) {
      const r = await add(bad);
      assert.equal(r.status, 400, JSON.stringify(bad));
      assert.equal(r.body.message, 'Invalid IP range format', JSON.stringify(bad));
    }
    const first = await add('192.168.50.0/24');
    const id = first.body.data.ipRange.id;
    assert.equal((await put(id, { ipRange: '' })).body.message, 'IP range is required');
    assert.equal((await put(id, {})).body.message, 'IP range is required');
    assert.equal((await put(id, { ipRange: '192.168.50' })).body.message, 'Invalid IP range format');
    assert.equal((await put(id, { isActive: 'yes' })).status, 400);
    assert.equal((await add('10.0.0.1', 'd'.repeat(501))).status, 400);
    const notUuid = await put('not-a-uuid', { isActive: true });
    assert.equal(notUuid.status, 400);
    assert.equal(notUuid.body.message, 'IP range not found.');
    assert.equal((await remove(crypto.randomUUID())).status, 404);
    assert.equal((await remove(id)).status, 200);
    assert.deepEqual(await list(), []);
  },
});

Deno.test({
  name: 'ranges are stored in canonical form, and a range already listed in any spelling is a 409',
  ...DB_TEST,
  fn: async () => {
    const cidr = await add('10.1.2.3/8');
    assert.equal(cidr.body.data.ipRange.ipRange, '10.0.0.0/8', 'host bits are cleared');
    const v6 = await add('2001:0DB8:0000::0001');
    assert.equal(v6.body.data.ipRange.ipRange, '2001:db8::1');
    for (
      const same of [
        '10.0.0.0/8',
        '10.*',
        '10.*.*.*',
        '::ffff:10.0.0.0/104',
        '2001:db8::1',
        '2001:db8:0:0:0:0:0:1/128',
      ]
    ) {
      const r = await add(same);
      assert.equal(r.status, 409, same);
      assert.equal(r.body.success, false);
      assert.match(r.body.message, /already in the whitelist/);
    }
    // Editing one range into another's addresses is refused too; editing it into itself is fine.
    assert.equal((await put(v6.body.data.ipRange.id, { ipRange: '10.*' })).status, 409);
    assert.equal(
      (await put(v6.body.data.ipRange.id, { ipRange: '2001:db8::1', description: 'same' })).status,
      200,
    );
    for (const range of await list()) await remove(range.id);
  },
});

// ---------------------------------------------------------------- enforcement at sign-in

Deno.test({
  name: 'with no ranges, offenders sign in from anywhere (the empty whitelist restricts nothing)',
  ...DB_TEST,
  fn: async () => {
    assert.deepEqual(await list(), []);
    for (const ip of ['203.0.113.50', '2001:db8:ffff::1', '127.0.0.1']) {
      assertAdmitted(await offenderLogin(ip), ip);
    }
  },
});

Deno.test({
  name: 'an exact IPv4 range admits that address only',
  ...DB_TEST,
  fn: async () => {
    await enforces('203.0.113.7', ['203.0.113.7'], ['203.0.113.8', '203.0.113.70', '127.0.0.1']);
  },
});

Deno.test({
  name: 'an exact IPv6 range admits that address in any spelling',
  ...DB_TEST,
  fn: async () => {
    await enforces('2001:db8::7', ['2001:db8::7', '2001:DB8:0:0:0:0:0:7'], ['2001:db8::8', '203.0.113.7']);
  },
});

Deno.test({
  name: 'a wildcard range admits its trailing octets',
  ...DB_TEST,
  fn: async () => {
    await enforces('198.51.*', ['198.51.0.1', '198.51.100.200'], ['198.52.0.1', '19.85.1.1']);
  },
});

Deno.test({
  name: 'an IPv4 CIDR range admits exactly its block',
  ...DB_TEST,
  fn: async () => {
    await enforces('192.0.2.0/25', ['192.0.2.0', '192.0.2.127'], ['192.0.2.128', '192.0.3.1']);
  },
});

Deno.test({
  name: 'an IPv6 CIDR range admits exactly its block',
  ...DB_TEST,
  fn: async () => {
    await enforces('2001:db8:aa::/48', ['2001:db8:aa::1', '2001:db8:aa:ffff::9'], [
      '2001:db8:ab::1',
      '2001:db8::1',
    ]);
  },
});

Deno.test({
  name: 'an IPv4 client on a dual-stack socket (::ffff:a.b.c.d) matches IPv4 ranges',
  ...DB_TEST,
  fn: async () => {
    await enforces('203.0.113.0/24', ['::ffff:203.0.113.9', '::FFFF:203.0.113.10'], [
      '::ffff:198.51.100.1',
      '::203.0.113.9',
    ]);
  },
});

Deno.test({
  name: 'an inactive range counts for nothing',
  ...DB_TEST,
  fn: async () => {
    // Only an inactive range: no restriction at all.
    await withRanges([], async () => {
      assertAdmitted(await offenderLogin('198.51.100.1'), 'no active range');
    }, ['203.0.113.0/24']);
    // An active and an inactive range: the inactive one admits nobody.
    await withRanges(['192.0.2.0/24'], async () => {
      assertAdmitted(await offenderLogin('192.0.2.1'), 'inside the active range');
      assertBlocked(await offenderLogin('203.0.113.1'), 'inside the inactive range only');
    }, ['203.0.113.0/24']);
  },
});

Deno.test({
  name: 'a refused sign-in reveals nothing without the PIN, and is audited when the PIN was right',
  ...DB_TEST,
  fn: async () => {
    await withRanges(['192.0.2.0/24'], async () => {
      const wrongPin = await call(t, 'POST', '/api/auth/login', {
        body: { username: DEMO.offender[0], password: '000000', entity: 'default' },
        ip: '203.0.113.60',
      });
      const unknown = await call(t, 'POST', '/api/auth/login', {
        body: { username: '999999', password: '000000', entity: 'default' },
        ip: '203.0.113.60',
      });
      for (const r of [wrongPin, unknown]) {
        assert.equal(r.status, 401);
        assert.equal(r.body.message, 'Please check your login credentials.');
      }
      assertBlocked(await offenderLogin('203.0.113.61'), 'the right PIN from outside');
      const [event] = await t.deps.sql<{ user_id: string; ip_address: string }[]>`
      select user_id, ip_address from audit_logs where event_type = 'login_blocked_ip' order by id desc limit 1`;
      assert.equal(event.ip_address, '203.0.113.61');
      const [offender] = await t.deps.sql<{ id: string }[]>`select id from users where doc_number = ${
        DEMO.offender[0]
      }`;
      assert.equal(event.user_id, offender.id);
      const sessions = await t.deps.sql`select 1 from sessions where ip_address = '203.0.113.61'`;
      assert.equal(sessions.length, 0, 'no session is opened');
    });
  },
});

Deno.test({
  name: 'staff sign in and work from outside every range',
  ...DB_TEST,
  fn: async () => {
    await withRanges(['192.0.2.0/24'], async () => {
      for (const role of ['admin', 'approver', 'attorney', 'representative'] as const) {
        const token = await signIn(t, DEMO[role][0], DEMO[role][1], '203.0.113.70');
        assertAdmitted(await call(t, 'GET', '/api/auth/me', { token, ip: '203.0.113.70' }), role);
      }
      assert.equal(
        (await call(t, 'GET', '/api/admin/ip-whitelist', { token: admin, ip: '203.0.113.70' })).status,
        200,
      );
    });
  },
});

// ---------------------------------------------------------------- enforcement on every offender call

/** The concrete API routes of the app ('GET /api/auth/me'), as the authorization matrix lists them. */
function apiRoutes(): string[] {
  const seen = new Set<string>();
  for (const r of t.app.routes) {
    if (!r.path.startsWith('/api/') || r.method === 'ALL' || r.path.endsWith('*')) continue;
    seen.add(`${r.method} ${r.path}`);
  }
  return [...seen].sort();
}

Deno.test({
  name:
    'a signed-in offender is refused on the next call once a range excludes them, and admitted again when it goes',
  ...DB_TEST,
  fn: async () => {
    const outside = '203.0.113.80';
    const token = await signIn(t, DEMO.offender[0], DEMO.offender[1], outside);
    assertAdmitted(await call(t, 'GET', '/api/auth/me', { token, ip: outside }), 'no range yet');
    await withRanges(['192.0.2.0/24'], async () => {
      assertBlocked(await call(t, 'GET', '/api/auth/me', { token, ip: outside }), 'the next call');
      // Every route behind the guard, whatever its role list, refuses the offender before doing anything.
      for (const route of apiRoutes()) {
        if (route === 'POST /api/auth/logout') continue; // allowed from anywhere: checked below
        const [method, pattern] = route.split(' ');
        const path = pattern.replace(/:docNumber/g, DEMO.offender[0]).replace(
          /:[A-Za-z_]+/g,
          crypto.randomUUID(),
        );
        const body = method === 'GET' ? undefined : {};
        if ((await call(t, method, path, { body, ip: outside })).status !== 401) continue; // public
        assertBlocked(await call(t, method, path, { body, token, ip: outside }), route);
      }
      // The same session from inside the range works: it is the address that is refused, not the session.
      assertAdmitted(await call(t, 'GET', '/api/auth/me', { token, ip: '192.0.2.9' }), 'from inside');
      assertBlocked(await call(t, 'GET', '/api/auth/me', { token, ip: outside }), 'once more from outside');
      const [event] = await t.deps.sql<{ ip_address: string; event_data: any }[]>`
      select ip_address, event_data from audit_logs where event_type = 'request_blocked_ip' order by id desc limit 1`;
      assert.equal(event.ip_address, outside);
      assert.deepEqual(event.event_data, { method: 'GET', path: '/api/auth/me' });

      // Deactivating the only range lifts the restriction at once.
      const [range] = await list();
      assert.equal((await put(range.id, { isActive: false })).status, 200);
      assertAdmitted(await call(t, 'GET', '/api/auth/me', { token, ip: outside }), 'range deactivated');
      assert.equal((await put(range.id, { isActive: true })).status, 200);
      assertBlocked(await call(t, 'GET', '/api/auth/me', { token, ip: outside }), 'range active again');

      // Signing out is the one call allowed from anywhere: it only ever reduces access.
      const other = await signIn(t, DEMO.offender[0], DEMO.offender[1], '192.0.2.9');
      assert.equal((await call(t, 'POST', '/api/auth/logout', { token: other, ip: outside })).status, 200);
      assert.equal((await call(t, 'GET', '/api/auth/me', { token: other, ip: '192.0.2.9' })).status, 401);
    });
    assertAdmitted(await call(t, 'GET', '/api/auth/me', { token, ip: outside }), 'range deleted');
  },
});

// ---------------------------------------------------------------- the client address

Deno.test({
  name: 'X-Forwarded-For from an untrusted peer is ignored: a spoofed facility address does not get in',
  ...DB_TEST,
  fn: async () => {
    await withRanges(['192.0.2.0/25'], async () => {
      for (const app of [t, proxied]) {
        assertBlocked(
          await offenderLogin('203.0.113.90', app, { 'x-forwarded-for': '192.0.2.10' }),
          'spoofed header',
        );
      }
    });
  },
});

Deno.test({
  name:
    'behind a trusted proxy (exact or CIDR entry), the right-most untrusted X-Forwarded-For address is the client',
  ...DB_TEST,
  fn: async () => {
    await withRanges(['192.0.2.0/25'], async () => {
      // A peer inside the trusted CIDR block, and the trusted exact address.
      assertAdmitted(
        await offenderLogin('10.9.1.1', proxied, { 'x-forwarded-for': '192.0.2.10' }),
        'CIDR proxy',
      );
      assertAdmitted(
        await offenderLogin('192.0.2.7', proxied, { 'x-forwarded-for': '192.0.2.11' }),
        'exact proxy',
      );
      // Through two trusted proxies.
      assertAdmitted(
        await offenderLogin('10.9.1.1', proxied, { 'x-forwarded-for': '192.0.2.12, 10.9.2.2' }),
        'two proxies',
      );
      // A client that sends its own header: the proxy appends the real address, which is the one believed.
      assertBlocked(
        await offenderLogin('10.9.1.1', proxied, { 'x-forwarded-for': '192.0.2.10, 203.0.113.91' }),
        'spoof in front of the real address',
      );
      assertBlocked(
        await offenderLogin('10.9.1.1', proxied, { 'x-forwarded-for': '203.0.113.92' }),
        'outside client',
      );
      // A proxy peer outside the trusted block is just a client.
      assertBlocked(
        await offenderLogin('10.10.0.1', proxied, { 'x-forwarded-for': '192.0.2.10' }),
        'untrusted proxy',
      );
      // The trusted app still uses the socket when no header came.
      assertAdmitted(await offenderLogin('192.0.2.20', proxied), 'direct client');
      const [event] = await t.deps.sql<{ ip_address: string }[]>`
      select ip_address from audit_logs where event_type = 'login_blocked_ip' order by id desc limit 1`;
      assert.equal(event.ip_address, '10.10.0.1', 'the audit log records the resolved client');
    });
  },
});

Deno.test({
  name: 'an invalid TRUSTED_PROXIES entry stops the app from starting',
  ...DB_TEST,
  fn: () => {
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      DATA_DIR: '/nonexistent',
      TRUSTED_PROXIES: '10.9.0.0/16, 10.1',
    });
    assert.throws(() => createApp({ ...t.deps, config }), /Invalid TRUSTED_PROXIES entry: "10\.1"/);
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
  },
});
