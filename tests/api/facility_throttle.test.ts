/**
 * The sign-in throttle at a facility's shared address: only the entity whose whitelist admits the address treats it
 * as a facility, and only for DOC numbers; there, one burst or one person's failures never shut the others out
 * (what is refused in flight counts nowhere, and each account is slowed on its own), while staff sign-ins from it,
 * and every sign-in from an ordinary address, keep the address's budget.
 */
import assert from 'node:assert/strict';
import { call, type CallResult, createTestApp, DB_TEST, type TestApp } from '../support/app.ts';
import { makeUser } from '../support/factories.ts';

let t: TestApp;

const attempt = (username: string, password: string, ip: string, entity = 'default') =>
  call(t, 'POST', '/api/auth/login', { body: { username, password, entity }, ip });

/** A new entity with its admin signed in and `ranges` on its whitelist; its slug, id and admin token. */
async function facility(ranges: string[]) {
  const slug = `facility-${crypto.randomUUID().slice(0, 8)}`;
  const [{ id: entityId }] = await t.deps.sql<{ id: string }[]>`
    insert into entities (name, slug, status) values ('Facility', ${slug}, 'active') returning id`;
  const admin = await makeUser(t, { entityId, role: 'admin' });
  const login = await attempt(admin.username, admin.secret, '198.51.100.250', slug);
  assert.equal(login.status, 200, JSON.stringify(login.body));
  for (const ipRange of ranges) {
    const added = await call(t, 'POST', '/api/admin/ip-whitelist', {
      token: login.body.token,
      body: { ipRange, description: 'Facility NAT' },
    });
    assert.equal(added.status, 201, JSON.stringify(added.body));
  }
  return { slug, entityId };
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
    "another entity's whitelist lifts nothing: its 0.0.0.0/0 leaves the default entity's sign-ins at 10 per address",
  ...DB_TEST,
  fn: async () => {
    await facility(['0.0.0.0/0']);
    const ip = '203.0.113.77';
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push((await attempt(`nobody-${i}@example.test`, 'Wrong-Pass-1!', ip)).status);
    }
    assert.deepEqual(statuses, [...Array(10).fill(401), 429, 429]);
  },
});

Deno.test({
  name:
    'a burst of bad sign-ins at a facility address leaves it open: what was refused in flight counts nowhere, and the right PIN gets in',
  ...DB_TEST,
  fn: async () => {
    const { slug, entityId } = await facility(['10.90.0.1']);
    const nat = '10.90.0.1';
    const offender = await makeUser(t, { role: 'offender', entityId, secret: '482913' });
    const burst = await Promise.all(
      Array.from({ length: 60 }, (_, i) => attempt(String(70000000 + i), '000000', nat, slug)),
    );
    const tally = (status: number) => burst.filter((r: CallResult) => r.status === status).length;
    assert.equal(tally(401) + tally(429), 60);
    assert.ok(tally(429) > 0, 'some were refused in flight');
    const [{ n }] = await t.deps.sql<{ n: number }[]>`
      select count(*)::int as n from login_failures where ip_address = ${nat}`;
    assert.equal(n, tally(401), 'only the attempts that were checked are counted');
    // One after another too: no address-wide budget at the facility, each username is its own.
    for (let i = 0; i < 25; i++) {
      assert.equal((await attempt(String(71000000 + i), '000000', nat, slug)).status, 401);
    }
    const right = await attempt(offender.username, offender.secret, nat, slug);
    assert.equal(right.status, 200, JSON.stringify(right.body));
  },
});

Deno.test({
  name:
    "at a facility address one offender's failures slow that account only, with a wait that says so; a success starts it again",
  ...DB_TEST,
  fn: async () => {
    const { slug, entityId } = await facility(['10.91.0.0/24']);
    const nat = '10.91.0.9';
    const guessed = await makeUser(t, { role: 'offender', entityId, secret: '615243' });
    const neighbour = await makeUser(t, { role: 'offender', entityId, secret: '615243' });
    for (let i = 0; i < 3; i++) {
      assert.equal((await attempt(guessed.username, `00000${i}`, nat, slug)).status, 401);
    }
    const waited = await attempt(guessed.username, guessed.secret, nat, slug);
    assert.equal(waited.status, 429, JSON.stringify(waited.body));
    assert.equal(waited.body.code, 'sign_in_wait');
    assert.ok(Number(waited.headers.get('retry-after')) > 0);
    // Refused before hashing and not counted: the account is not one failure closer to its lock.
    const [{ failures }] = await t.deps.sql<{ failures: number }[]>`
      select consecutive_failures as failures from login_lockouts where username = ${guessed.username}`;
    assert.equal(failures, 3);
    // Everyone else at the facility signs in as usual.
    assert.equal((await attempt(neighbour.username, neighbour.secret, nat, slug)).status, 200);
    // Once the wait has passed (moved back rather than waited for), the right PIN gets in and clears the delays.
    await t.deps.sql`update login_lockouts set last_failure_at = last_failure_at - interval '1 minute'
                     where username = ${guessed.username}`;
    assert.equal((await attempt(guessed.username, guessed.secret, nat, slug)).status, 200);
    const left = await t.deps.sql`select 1 from login_lockouts where username = ${guessed.username}`;
    assert.equal(left.length, 0);
  },
});

Deno.test({
  name:
    'staff e-mails sprayed with one password from a facility address get 429 after the ordinary budget, as from anywhere',
  ...DB_TEST,
  fn: async () => {
    const { slug, entityId } = await facility(['10.92.0.1']);
    const nat = '10.92.0.1';
    const common = 'Spring-Harvest-2026!';
    const attorney = await makeUser(t, { entityId, role: 'attorney', secret: common });
    const statuses: number[] = [];
    for (let i = 0; i < 39; i++) {
      statuses.push((await attempt(`counsel-${i}@bar.example.test`, common, nat, slug)).status);
    }
    const last = await attempt(attorney.username, common, nat, slug);
    statuses.push(last.status);
    assert.deepEqual(statuses, [...Array(10).fill(401), ...Array(30).fill(429)]);
    assert.equal(last.body.code, 'throttled');
    assert.equal(
      last.body.message,
      'Too many failed sign-in attempts from this device. Please try again in 30 minutes.',
    );
    // The facility's allowance stays the offenders': DOC numbers at the same address are not refused by it.
    const offender = await makeUser(t, { role: 'offender', entityId, secret: '274810' });
    assert.equal((await attempt('60000001', '000000', nat, slug)).status, 401);
    assert.equal((await attempt(offender.username, offender.secret, nat, slug)).status, 200);
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
  },
});
