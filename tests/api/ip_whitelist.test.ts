/**
 * The IP whitelist: its admin API (CRUD, validation, duplicates, audit, one entity's ranges per admin), its
 * empty-list policy, and its enforcement on offender sign-in and offender calls against the offender's own
 * entity's ranges, with the client address taken from the socket, or from X-Forwarded-For only behind a
 * trusted proxy.
 */
import assert from 'node:assert/strict';
import { createApp } from '../../api/app.ts';
import { loadConfig } from '../../api/config.ts';
import { migrate, readMigrations } from '../../api/db/migrate.ts';
import { addressInEntityRanges, offenderAddressAllowed } from '../../api/domain/ip_whitelist.ts';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { createTestDatabase } from '../support/db.ts';
import { makeUser } from '../support/factories.ts';

const BLOCKED = 'Access from this network is not allowed. Please use a facility tablet.';
const NETWORK_REFUSED =
  'Signing in with a DOC number is not allowed from this network. Please use a facility tablet, or ask staff to check the IP whitelist.';

let t: TestApp;
/** The same database behind a proxy: 10.9.0.0/16 (a CIDR block) and 192.0.2.7 (an exact address) are trusted. */
let proxied: TestApp;
let admin: string;
let adminId: string;
let defaultEntityId: string;

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
    [{ id: defaultEntityId }] = await t.deps.sql<
      { id: string }[]
    >`select id from entities where slug = 'default'`;
  },
});

const add = (ipRange: unknown, description?: unknown) =>
  call(t, 'POST', '/api/admin/ip-whitelist', { token: admin, body: { ipRange, description } });
const put = (id: string, body: unknown) =>
  call(t, 'PUT', `/api/admin/ip-whitelist/${id}`, { token: admin, body });
const remove = (id: string) => call(t, 'DELETE', `/api/admin/ip-whitelist/${id}`, { token: admin });
const list = async () =>
  (await call(t, 'GET', '/api/admin/ip-whitelist', { token: admin })).body.data.ipRanges;

/**
 * Puts the default entity back to "never had a range" (only a test may: the API never clears it), so each test
 * starts from the fresh-install state.
 */
async function forgetRanges() {
  for (const range of await list()) assert.equal((await remove(range.id)).status, 200);
  await t.deps.sql`update entities set ip_ranges_configured_at = null where id = ${defaultEntityId}`;
}

/** Sets the empty-list policy through the admin's settings API. */
async function setWhenEmpty(value: 'allow' | 'deny') {
  const r = await call(t, 'PUT', '/api/admin/settings/ip_whitelist_when_empty', {
    token: admin,
    body: { value: { type: 'text', value } },
  });
  assert.equal(r.status, 200, JSON.stringify(r.body));
}

/**
 * Runs `fn` with exactly these ranges in the whitelist (active unless listed in `inactive`), then empties it and
 * forgets it was ever configured.
 */
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
    await forgetRanges();
  }
}

const offenderLogin = (ip: string, app: TestApp = t, headers: Record<string, string> = {}) =>
  call(app, 'POST', '/api/auth/login', {
    body: { username: DEMO.offender[0], password: DEMO.offender[1], entity: 'default' },
    ip,
    headers,
  });

/** A live offender session used from an address its entity does not admit (the role guard's answer). */
function assertBlocked(r: { status: number; body: any }, what: string) {
  assert.equal(r.status, 403, `${what}: ${JSON.stringify(r.body)}`);
  assert.deepEqual(r.body, { success: false, message: BLOCKED, code: 'ip_not_allowed' }, what);
}

/**
 * A sign-in refused for its address: 403 saying so, the same whoever the DOC number is and whatever the PIN (it is
 * refused before any look-up or hashing), so an outsider learns nothing about the account and the person in front
 * of the screen, or the admin fixing the whitelist, sees why; audited as login_blocked_ip.
 */
function assertRefused(r: { status: number; body: any }, what: string) {
  assert.equal(r.status, 403, `${what}: ${JSON.stringify(r.body)}`);
  assert.deepEqual(
    r.body,
    { success: false, message: NETWORK_REFUSED, code: 'sign_in_network_not_allowed' },
    what,
  );
}

function assertAdmitted(r: { status: number; body: any }, what: string) {
  assert.equal(r.status, 200, `${what}: ${JSON.stringify(r.body)}`);
  assert.equal(r.body.success, true, what);
}

/** Admitted and refused sign-in addresses for one range. */
async function enforces(range: string, inside: string[], outside: string[]) {
  await withRanges([range], async () => {
    for (const ip of inside) assertAdmitted(await offenderLogin(ip), `${ip} is inside ${range}`);
    for (const ip of outside) assertRefused(await offenderLogin(ip), `${ip} is outside ${range}`);
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
    await forgetRanges();

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
    await forgetRanges();
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
    await forgetRanges();
  },
});

// ---------------------------------------------------------------- enforcement at sign-in

Deno.test({
  name: 'an entity that never had a range: its offenders sign in from anywhere (a fresh install works)',
  ...DB_TEST,
  fn: async () => {
    assert.deepEqual(await list(), []);
    const listed = await call(t, 'GET', '/api/admin/ip-whitelist', { token: admin });
    assert.deepEqual(listed.body.data.policy, { configured: false, whenEmpty: 'deny', effect: 'open' });
    for (const ip of ['203.0.113.50', '2001:db8:ffff::1', '127.0.0.1']) {
      assertAdmitted(await offenderLogin(ip), ip);
    }
  },
});

Deno.test({
  name: 'once a range was configured, deleting every range refuses offenders everywhere (default deny)',
  ...DB_TEST,
  fn: async () => {
    const created = await add('192.0.2.0/24');
    assert.equal(created.status, 201);
    assert.equal((await remove(created.body.data.ipRange.id)).status, 200);
    assert.deepEqual(await list(), []);
    const listed = await call(t, 'GET', '/api/admin/ip-whitelist', { token: admin });
    assert.deepEqual(listed.body.data.policy, { configured: true, whenEmpty: 'deny', effect: 'closed' });
    // Not from the deleted range, not from anywhere: removing the list does not reopen the gate.
    for (const ip of ['192.0.2.1', '203.0.113.50', '127.0.0.1']) assertRefused(await offenderLogin(ip), ip);
    assert.equal(
      await offenderAddressAllowed(t.deps.sql, defaultEntityId, '192.0.2.1'),
      false,
      'the domain answer',
    );
    // Staff are not affected.
    assert.ok(await signIn(t, ...DEMO.attorney, '203.0.113.50'));
    await forgetRanges();
  },
});

Deno.test({
  name: "the department's 'allow' setting opens an emptied whitelist; 'deny' closes it again",
  ...DB_TEST,
  fn: async () => {
    const created = await add('192.0.2.0/24');
    assert.equal((await put(created.body.data.ipRange.id, { isActive: false })).status, 200);
    assertRefused(await offenderLogin('203.0.113.51'), 'only an inactive range: closed');
    try {
      await setWhenEmpty('allow');
      const listed = await call(t, 'GET', '/api/admin/ip-whitelist', { token: admin });
      assert.deepEqual(listed.body.data.policy, { configured: true, whenEmpty: 'allow', effect: 'open' });
      assertAdmitted(await offenderLogin('203.0.113.51'), "'allow'");
      // The setting speaks only for an empty list: an active range still restricts.
      assert.equal((await put(created.body.data.ipRange.id, { isActive: true })).status, 200);
      assertRefused(await offenderLogin('203.0.113.52'), "'allow' with an active range");
      assertAdmitted(await offenderLogin('192.0.2.52'), 'inside the active range');
      assert.equal((await put(created.body.data.ipRange.id, { isActive: false })).status, 200);
    } finally {
      await setWhenEmpty('deny');
    }
    assertRefused(await offenderLogin('203.0.113.53'), "'deny' again");
    // Anything but 'allow' or 'deny' is refused with the choices named.
    const bad = await call(t, 'PUT', '/api/admin/settings/ip_whitelist_when_empty', {
      token: admin,
      body: { value: { type: 'text', value: 'open' } },
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.message, "IP whitelist when empty must be one of: 'deny', 'allow'.");
    await forgetRanges();
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
    // Only an inactive range: the entity has had a range, so an empty active list refuses everyone.
    await withRanges([], async () => {
      assertRefused(await offenderLogin('198.51.100.1'), 'no active range');
      assertRefused(await offenderLogin('203.0.113.1'), 'inside the inactive range');
    }, ['203.0.113.0/24']);
    // An active and an inactive range: the inactive one admits nobody.
    await withRanges(['192.0.2.0/24'], async () => {
      assertAdmitted(await offenderLogin('192.0.2.1'), 'inside the active range');
      assertRefused(await offenderLogin('203.0.113.1'), 'inside the inactive range only');
    }, ['203.0.113.0/24']);
  },
});

Deno.test({
  name:
    'a sign-in from outside reveals nothing about the account: a wrong PIN, an unknown number and the right PIN alike',
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
      assertRefused(wrongPin, 'a wrong PIN from outside');
      assertRefused(unknown, 'an unknown DOC number from outside');
      assertRefused(await offenderLogin('203.0.113.61'), 'the right PIN from outside');
      const [event] = await t.deps.sql<{ user_id: string | null; ip_address: string; username: string }[]>`
      select user_id, ip_address, event_data->>'username' as username from audit_logs
      where event_type = 'login_blocked_ip' order by id desc limit 1`;
      assert.equal(event.ip_address, '203.0.113.61');
      assert.equal(event.username, DEMO.offender[0]);
      assert.equal(event.user_id, null, 'refused before the DOC number was looked up');
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
        // Signing out, here or everywhere, is allowed from anywhere (it only reduces access): checked below.
        if (route === 'POST /api/auth/logout' || route === 'POST /api/auth/logout-all') continue;
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

      // Deactivating the only range closes the whitelist at once (default deny), even from the old range.
      const [range] = await list();
      assert.equal((await put(range.id, { isActive: false })).status, 200);
      assertBlocked(await call(t, 'GET', '/api/auth/me', { token, ip: outside }), 'range deactivated');
      assertBlocked(await call(t, 'GET', '/api/auth/me', { token, ip: '192.0.2.9' }), 'range deactivated');
      assert.equal((await put(range.id, { isActive: true })).status, 200);
      assertBlocked(await call(t, 'GET', '/api/auth/me', { token, ip: outside }), 'range active again');

      // Signing out is the one call allowed from anywhere: it only ever reduces access.
      const other = await signIn(t, DEMO.offender[0], DEMO.offender[1], '192.0.2.9');
      assert.equal((await call(t, 'POST', '/api/auth/logout', { token: other, ip: outside })).status, 200);
      assert.equal((await call(t, 'GET', '/api/auth/me', { token: other, ip: '192.0.2.9' })).status, 401);
    });
    assertAdmitted(await call(t, 'GET', '/api/auth/me', { token, ip: outside }), 'never configured again');
  },
});

// ---------------------------------------------------------------- one entity's ranges

/** A second entity with its own admin and offender, signed in; their sessions' tokens. */
async function otherEntity() {
  const slug = `north-${crypto.randomUUID().slice(0, 8)}`;
  const [{ id: entityId }] = await t.deps.sql<{ id: string }[]>`
    insert into entities (name, slug, status) values ('North facility', ${slug}, 'active') returning id`;
  const signInTo = async (user: { username: string; secret: string }, ip: string) => {
    const r = await call(t, 'POST', '/api/auth/login', {
      body: { username: user.username, password: user.secret, entity: slug },
      ip,
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.token as string;
  };
  const adminUser = await makeUser(t, { entityId, role: 'admin' });
  const offender = await makeUser(t, { entityId, role: 'offender' });
  return { slug, entityId, offender, signInTo, admin: await signInTo(adminUser, '198.51.100.200') };
}

Deno.test({
  name: "an admin sees and changes only their own entity's ranges: another entity's range is a 404",
  ...DB_TEST,
  fn: async () => {
    const north = await otherEntity();
    const northAdd = (ipRange: string) =>
      call(t, 'POST', '/api/admin/ip-whitelist', { token: north.admin, body: { ipRange } });
    const northList = async () =>
      (await call(t, 'GET', '/api/admin/ip-whitelist', { token: north.admin })).body.data.ipRanges;

    const theirs = (await northAdd('198.51.100.0/24')).body.data.ipRange;
    const ours = (await add('192.0.2.0/24')).body.data.ipRange;
    // The same network in two entities is two ranges, not a duplicate.
    assert.equal((await northAdd('192.0.2.0/24')).status, 201);
    assert.deepEqual((await list()).map((r: any) => r.ipRange), ['192.0.2.0/24']);
    assert.deepEqual((await northList()).map((r: any) => r.ipRange), ['198.51.100.0/24', '192.0.2.0/24']);

    // The default entity's admin cannot edit, toggle or delete north's range: the same 404 as a missing one.
    for (
      const r of [
        await put(theirs.id, { ipRange: '10.0.0.0/8' }),
        await put(theirs.id, { isActive: false }),
        await remove(theirs.id),
      ]
    ) {
      assert.equal(r.status, 404, JSON.stringify(r.body));
      assert.deepEqual(r.body, {
        success: false,
        message: 'IP range not found.',
        code: 'ip_range_not_found',
      });
    }
    // Nor the other way round.
    const back = await call(t, 'DELETE', `/api/admin/ip-whitelist/${ours.id}`, { token: north.admin });
    assert.equal(back.status, 404);
    const [stored] = await t.deps.sql<{ ip_range: string; is_active: boolean }[]>`
      select ip_range, is_active from ip_ranges where id = ${theirs.id}`;
    assert.deepEqual({ ...stored }, { ip_range: '198.51.100.0/24', is_active: true }, 'unchanged');
    const [owner] = await t.deps.sql<
      { entity_id: string }[]
    >`select entity_id from ip_ranges where id = ${ours.id}`;
    assert.equal(owner.entity_id, defaultEntityId);

    await t.deps.sql`delete from ip_ranges where entity_id = ${north.entityId}`;
    await forgetRanges();
  },
});

Deno.test({
  name: "offenders are checked against their own entity's ranges only: another entity's ranges do not count",
  ...DB_TEST,
  fn: async () => {
    const north = await otherEntity();
    // North's offender signs in from anywhere while north has never had a range, whatever default's ranges.
    await withRanges(['192.0.2.0/24'], async () => {
      const northToken = await north.signInTo(north.offender, '203.0.113.100');
      assertAdmitted(
        await call(t, 'GET', '/api/auth/me', { token: northToken, ip: '203.0.113.100' }),
        'north',
      );

      assert.equal(
        (await call(t, 'POST', '/api/admin/ip-whitelist', {
          token: north.admin,
          body: { ipRange: '198.51.100.0/24' },
        })).status,
        201,
      );
      // Default's offender, from north's facility: refused by the guard on a live session and at sign-in.
      const token = await signIn(t, DEMO.offender[0], DEMO.offender[1], '192.0.2.30');
      assertAdmitted(await call(t, 'GET', '/api/auth/me', { token, ip: '192.0.2.30' }), 'own facility');
      assertBlocked(await call(t, 'GET', '/api/auth/me', { token, ip: '198.51.100.30' }), "north's facility");
      assertRefused(await offenderLogin('198.51.100.31'), "sign-in from north's facility");
      // North's offender, from default's facility: refused; from north's own: admitted.
      assertBlocked(
        await call(t, 'GET', '/api/auth/me', { token: northToken, ip: '192.0.2.32' }),
        "default's facility",
      );
      assertAdmitted(await call(t, 'GET', '/api/auth/me', { token: northToken, ip: '198.51.100.32' }), 'own');
      const [event] = await t.deps.sql<{ ip_address: string; user_id: string }[]>`
        select ip_address, user_id from audit_logs where event_type = 'request_blocked_ip' order by id desc limit 1`;
      assert.deepEqual({ ...event }, { ip_address: '192.0.2.32', user_id: north.offender.id });

      assert.equal(await offenderAddressAllowed(t.deps.sql, north.entityId, '198.51.100.1'), true);
      assert.equal(await offenderAddressAllowed(t.deps.sql, north.entityId, '192.0.2.1'), false);
      assert.equal(await offenderAddressAllowed(t.deps.sql, defaultEntityId, '192.0.2.1'), true);
      assert.equal(await offenderAddressAllowed(t.deps.sql, defaultEntityId, '198.51.100.1'), false);
    });
    await t.deps.sql`delete from ip_ranges where entity_id = ${north.entityId}`;
  },
});

Deno.test({
  name:
    "addressInEntityRanges: inside an active range of that entity only, never another's or an inactive one",
  ...DB_TEST,
  fn: async () => {
    const north = await otherEntity();
    assert.equal(
      await addressInEntityRanges(t.deps.sql, north.entityId, '192.0.2.1'),
      false,
      'no range at all',
    );
    await withRanges(['192.0.2.0/24'], async () => {
      await call(t, 'POST', '/api/admin/ip-whitelist', {
        token: north.admin,
        body: { ipRange: '2001:db8::/32' },
      });
      const inactive = await call(t, 'POST', '/api/admin/ip-whitelist', {
        token: north.admin,
        body: { ipRange: '198.51.100.0/24' },
      });
      await call(t, 'PUT', `/api/admin/ip-whitelist/${inactive.body.data.ipRange.id}`, {
        token: north.admin,
        body: { isActive: false },
      });
      for (const ip of ['2001:db8::5', '2001:db8::ffff']) {
        assert.equal(await addressInEntityRanges(t.deps.sql, north.entityId, ip), true, ip);
      }
      // 192.0.2.0/24 is the default entity's range: it makes nothing a facility address of north.
      for (const ip of ['192.0.2.1', '198.51.100.1', '203.0.113.1', '2001:db9::1', 'unknown', '']) {
        assert.equal(await addressInEntityRanges(t.deps.sql, north.entityId, ip), false, ip);
      }
    });
    await t.deps.sql`delete from ip_ranges where entity_id = ${north.entityId}`;
  },
});

Deno.test({
  name: "migration 0012 gives each existing range to its creator's entity, else the default entity",
  ...DB_TEST,
  fn: async () => {
    const db = await createTestDatabase({ migrate: false });
    const before = await Deno.makeTempDir({ prefix: 'lmp-migrations-' });
    try {
      for (const m of await readMigrations()) {
        if (m.version < '0012') await Deno.writeTextFile(`${before}/${m.version}_${m.name}.sql`, m.sql);
      }
      await migrate(db.sql, new URL(`file://${before}/`));
      const [north] = await db.sql<{ id: string }[]>`
        insert into entities (name, slug) values ('North', 'north') returning id`;
      const [main] = await db.sql<{ id: string }[]>`
        insert into entities (name, slug) values ('Department', 'default') returning id`;
      const [northAdmin] = await db.sql<{ id: string }[]>`
        insert into users (entity_id, role, email, first_name, last_name, password_hash)
        values (${north.id}, 'admin', 'a@north.test', 'A', 'B', 'x') returning id`;
      await db.sql`insert into ip_ranges (ip_range, created_by, created_at)
        values ('198.51.100.0/24', ${northAdmin.id}, '2024-01-02T00:00:00Z'),
               ('192.0.2.0/24', null, '2024-03-04T00:00:00Z')`;
      await migrate(db.sql);
      const rows = await db.sql<{ ip_range: string; entity_id: string }[]>`
        select ip_range, entity_id from ip_ranges order by ip_range`;
      assert.deepEqual(rows.map((r) => [r.ip_range, r.entity_id]), [
        ['192.0.2.0/24', main.id],
        ['198.51.100.0/24', north.id],
      ]);
      // Both had ranges, so both are configured from their first range on: emptying them now denies.
      const configured = await db.sql<{ slug: string; at: Date | null }[]>`
        select slug, ip_ranges_configured_at as at from entities order by slug`;
      assert.deepEqual(configured.map((e) => [e.slug, e.at?.toISOString()]), [
        ['default', '2024-03-04T00:00:00.000Z'],
        ['north', '2024-01-02T00:00:00.000Z'],
      ]);
    } finally {
      await db.drop();
      await Deno.remove(before, { recursive: true });
    }
  },
});

// ---------------------------------------------------------------- the client address

Deno.test({
  name: 'X-Forwarded-For from an untrusted peer is ignored: a spoofed facility address does not get in',
  ...DB_TEST,
  fn: async () => {
    await withRanges(['192.0.2.0/25'], async () => {
      for (const app of [t, proxied]) {
        assertRefused(
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
      assertRefused(
        await offenderLogin('10.9.1.1', proxied, { 'x-forwarded-for': '192.0.2.10, 203.0.113.91' }),
        'spoof in front of the real address',
      );
      assertRefused(
        await offenderLogin('10.9.1.1', proxied, { 'x-forwarded-for': '203.0.113.92' }),
        'outside client',
      );
      // A proxy peer outside the trusted block is just a client.
      assertRefused(
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
  name: 'two spellings of one range sent at once: one is stored, the other is the 409',
  ...DB_TEST,
  fn: async () => {
    // Both could be stored (each finds no match, and the unique index knows only the canonical text).
    const before = (await list()).length;
    for (let round = 0; round < 8; round++) {
      const answers = await Promise.all([add('10.*', 'first'), add('10.0.0.0/8', 'second')]);
      assert.deepEqual(answers.map((a) => a.status).sort(), [201, 409], `round ${round}`);
      assert.equal((await list()).length, before + 1);
      for (const a of answers) if (a.status === 201) await remove(a.body.data.ipRange.id);
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
