/**
 * The session check writes last_seen_at only when the recorded time is older than LAST_SEEN_WRITE_SECONDS
 * (api/db/sessions.ts): most requests only read their session. These tests show that the skipped write never
 * delays an ending: logout, deactivation of the user or the entity, a revocation by another process, and the
 * idle limit all act on the very next request while the recorded time is fresh.
 */
import assert from 'node:assert/strict';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { makeUser } from '../support/factories.ts';
import { LAST_SEEN_WRITE_SECONDS } from '../../api/db/sessions.ts';
import { signSessionToken } from '../../api/domain/tokens.ts';
import { verifiedSessionId } from '../../api/http/verified_tokens.ts';

let t: TestApp;

Deno.test({
  name: 'setup: app on a fresh database',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
  },
});

async function lastSeen(userId: string): Promise<Date> {
  const [row] = await t.deps.sql<{ last_seen_at: Date }[]>`
    select last_seen_at from sessions where user_id = ${userId} and revoked_at is null
    order by created_at desc limit 1`;
  return new Date(row.last_seen_at);
}

async function ageLastSeen(userId: string, seconds: number): Promise<void> {
  await t.deps.sql`update sessions set last_seen_at = now() - ${seconds} * interval '1 second'
                   where user_id = ${userId} and revoked_at is null`;
}

const me = async (token: string) => (await call(t, 'GET', '/api/auth/me', { token })).status;

Deno.test({
  name: 'a request within the write interval reads its session without writing last_seen_at',
  ...DB_TEST,
  fn: async () => {
    const user = await makeUser(t);
    const token = await signIn(t, user.username, user.secret);
    await ageLastSeen(user.id, 10);
    const before = await lastSeen(user.id);
    assert.equal(await me(token), 200);
    assert.equal(await me(token), 200);
    assert.equal(
      (await lastSeen(user.id)).getTime(),
      before.getTime(),
      'a fresh last-seen time is left alone',
    );
  },
});

Deno.test({
  name: 'a request after the write interval moves last_seen_at to now',
  ...DB_TEST,
  fn: async () => {
    const user = await makeUser(t);
    const token = await signIn(t, user.username, user.secret);
    await ageLastSeen(user.id, LAST_SEEN_WRITE_SECONDS + 1);
    const before = await lastSeen(user.id);
    assert.equal(await me(token), 200);
    const after = await lastSeen(user.id);
    assert.ok(after.getTime() - before.getTime() >= LAST_SEEN_WRITE_SECONDS * 1000, 'written');
  },
});

Deno.test({
  name: 'a session near its idle limit is kept alive by a request (the stale time is written, not trusted)',
  ...DB_TEST,
  fn: async () => {
    const user = await makeUser(t);
    const token = await signIn(t, user.username, user.secret);
    // 29 min 50 s of a 30-minute limit: alive, and the request resets the clock.
    await ageLastSeen(user.id, 30 * 60 - 10);
    assert.equal(await me(token), 200);
    const age = (Date.now() - (await lastSeen(user.id)).getTime()) / 1000;
    assert.ok(age < LAST_SEEN_WRITE_SECONDS, `last seen ${age} s ago`);
  },
});

Deno.test({
  name: 'the idle limit ends a session on the next request though the last requests wrote nothing',
  ...DB_TEST,
  fn: async () => {
    const user = await makeUser(t);
    const token = await signIn(t, user.username, user.secret);
    assert.equal(await me(token), 200);
    assert.equal(await me(token), 200);
    await ageLastSeen(user.id, 30 * 60 + 1);
    assert.equal(await me(token), 401);
    const [row] = await t.deps.sql<{ end_reason: string | null; revoked: boolean }[]>`
      select end_reason, revoked_at is not null as revoked from sessions where user_id = ${user.id}`;
    assert.deepEqual(row, { end_reason: 'idle', revoked: true });
  },
});

Deno.test({
  name: 'logout acts on the next request while last_seen_at is fresh',
  ...DB_TEST,
  fn: async () => {
    const user = await makeUser(t);
    const token = await signIn(t, user.username, user.secret);
    assert.equal(await me(token), 200);
    assert.equal((await call(t, 'POST', '/api/auth/logout', { token })).status, 200);
    assert.equal(await me(token), 401);
  },
});

Deno.test({
  name: "an admin's deactivation acts on the user's next request while last_seen_at is fresh",
  ...DB_TEST,
  fn: async () => {
    const user = await makeUser(t);
    const token = await signIn(t, user.username, user.secret);
    assert.equal(await me(token), 200);
    const admin = await signIn(t, ...DEMO.admin);
    const r = await call(t, 'PUT', `/api/admin/users/${user.id}/status`, {
      token: admin,
      body: { status: 'deactivated' },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(await me(token), 401);
  },
});

Deno.test({
  name: 'a revocation or deactivation written by another instance acts on the next request',
  ...DB_TEST,
  fn: async () => {
    // Another instance shares nothing with this one but the database: write the rows directly.
    const revoked = await makeUser(t);
    const revokedToken = await signIn(t, revoked.username, revoked.secret);
    const inactive = await makeUser(t);
    const inactiveToken = await signIn(t, inactive.username, inactive.secret);
    assert.equal(await me(revokedToken), 200);
    assert.equal(await me(inactiveToken), 200);
    await t.deps.sql`update sessions set revoked_at = now() where user_id = ${revoked.id}`;
    await t.deps.sql`update users set status = 'deactivated' where id = ${inactive.id}`;
    assert.equal(await me(revokedToken), 401);
    assert.equal(await me(inactiveToken), 401);
  },
});

Deno.test({
  name: "an entity's deactivation acts on its users' next request while last_seen_at is fresh",
  ...DB_TEST,
  fn: async () => {
    const [entity] = await t.deps.sql<{ id: string }[]>`
      insert into entities (name, slug) values ('Touch Test County', 'touch-test') returning id`;
    const user = await makeUser(t, { entityId: entity.id });
    const r = await call(t, 'POST', '/api/auth/login', {
      body: { username: user.username, password: user.secret, entity: 'touch-test' },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const token = r.body.token as string;
    assert.equal(await me(token), 200);
    await t.deps.sql`update entities set status = 'inactive' where id = ${entity.id}`;
    assert.equal(await me(token), 401);
  },
});

Deno.test({
  name: 'concurrent requests of one session all pass and leave one recent last-seen time',
  ...DB_TEST,
  fn: async () => {
    const user = await makeUser(t);
    const token = await signIn(t, user.username, user.secret);
    await ageLastSeen(user.id, LAST_SEEN_WRITE_SECONDS + 5);
    const statuses = await Promise.all(Array.from({ length: 20 }, () => me(token)));
    assert.deepEqual(new Set(statuses), new Set([200]));
    const age = (Date.now() - (await lastSeen(user.id)).getTime()) / 1000;
    assert.ok(age < LAST_SEEN_WRITE_SECONDS, `last seen ${age} s ago`);
  },
});

Deno.test({
  name: 'a remembered token is refused once its own expiry passes, and under another key',
  fn: async () => {
    const key = new TextEncoder().encode('memo-test-key-'.repeat(3));
    const token = await signSessionToken(key, {
      sessionId: 'session-1',
      userId: 'user-1',
      expiresAt: new Date(Date.now() + 1500),
    });
    assert.equal(await verifiedSessionId(key, token), 'session-1');
    assert.equal(await verifiedSessionId(key, token), 'session-1', 'remembered');
    assert.equal(
      await verifiedSessionId(new TextEncoder().encode('another-key-'.repeat(3)), token),
      undefined,
    );
    await new Promise((resolve) => setTimeout(resolve, 2100));
    assert.equal(await verifiedSessionId(key, token), undefined, 'expired');
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
  },
});
