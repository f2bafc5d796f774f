/**
 * What the audit log must hold: a wrong-role refusal, a document 404 for a signed-in user, a session's
 * idle and absolute expiry (each once), an admin reading the audit log, exporting it and viewing a user's
 * activity each write their event.
 */
import assert from 'node:assert/strict';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { makeUser } from '../support/factories.ts';

let t: TestApp;
let admin: string;
let adminId: string;

/** The events of one type, oldest first. */
async function events(type: string) {
  return await t.deps.sql<
    {
      user_id: string | null;
      resource_type: string;
      resource_id: string | null;
      ip_address: string;
      event_data: any;
    }[]
  >`select user_id, resource_type, resource_id, ip_address, event_data from audit_logs
    where event_type = ${type} order by id`;
}

/** The session id of a token: the newest session of the user. */
async function newestSession(userId: string): Promise<string> {
  const [row] = await t.deps.sql<{ id: string }[]>`
    select id from sessions where user_id = ${userId} order by created_at desc limit 1`;
  return row.id;
}

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
  name: 'a wrong-role refusal (403) is audited as access_denied with the method, path and role',
  ...DB_TEST,
  fn: async () => {
    const offender = await signIn(t, ...DEMO.offender);
    const before = (await events('access_denied')).length;
    const r = await call(t, 'GET', '/api/admin/audit-logs', { token: offender, ip: '10.9.8.7' });
    assert.equal(r.status, 403);
    const after = await events('access_denied');
    assert.equal(after.length, before + 1);
    const [event] = after.slice(-1);
    assert.deepEqual(event.event_data, { method: 'GET', path: '/api/admin/audit-logs', role: 'offender' });
    assert.equal(event.ip_address, '10.9.8.7');
    const [offenderRow] = await t.deps.sql<
      { id: string }[]
    >`select id from users where doc_number = '100001'`;
    assert.equal(event.user_id, offenderRow.id);
    // No token at all is a 401, not a refusal of a known user: nothing to attribute.
    assert.equal((await call(t, 'GET', '/api/admin/audit-logs')).status, 401);
    assert.equal((await events('access_denied')).length, before + 1);
  },
});

Deno.test({
  name: "a signed-in user's document 404 is audited with the id asked for; the answer stays the same",
  ...DB_TEST,
  fn: async () => {
    const offender = await signIn(t, ...DEMO.offender);
    const missing = '00000000-0000-4000-8000-000000000001';
    const answers = [];
    for (
      const path of [
        `/api/documents/view/${missing}`,
        `/api/documents/print/not-a-uuid`,
        `/api/documents/${missing}/info`,
      ]
    ) {
      answers.push(await call(t, 'GET', path, { token: offender }));
    }
    assert.ok(answers.every((a) => a.status === 404));
    assert.equal(new Set(answers.map((a) => JSON.stringify(a.body))).size, 1, 'one answer for every cause');
    const audited = (await events('document_not_found')).slice(-3);
    assert.deepEqual(audited.map((e) => [e.resource_id, e.event_data.kind]), [
      [missing, 'view'],
      ['not-a-uuid', 'print'],
      [missing, 'info'],
    ]);
    // From outside (no session) it is the guard's 401, and nothing is written.
    const before = (await events('document_not_found')).length;
    assert.equal((await call(t, 'GET', `/api/documents/view/${missing}`)).status, 401);
    assert.equal((await events('document_not_found')).length, before);
  },
});

Deno.test({
  name: 'an idle session is refused (401) and audited as session_expired (idle) once',
  ...DB_TEST,
  fn: async () => {
    const user = await makeUser(t);
    const token = await signIn(t, user.username, user.secret);
    const sessionId = await newestSession(user.id);
    await t.deps
      .sql`update sessions set last_seen_at = now() - interval '31 minutes' where id = ${sessionId}`;
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => call(t, 'GET', '/api/documents/attorney', { token })),
    );
    assert.ok(answers.every((a) => a.status === 401));
    assert.equal((await call(t, 'GET', '/api/documents/attorney', { token })).status, 401);
    const audited = (await events('session_expired')).filter((e) => e.resource_id === sessionId);
    assert.equal(audited.length, 1, 'once per session, however many requests find it lapsed');
    assert.equal(audited[0].user_id, user.id);
    assert.equal(audited[0].event_data.reason, 'idle');
    const [row] = await t.deps.sql<{ revoked_at: Date | null; end_reason: string | null }[]>`
      select revoked_at, end_reason from sessions where id = ${sessionId}`;
    assert.ok(row.revoked_at);
    assert.equal(row.end_reason, 'idle');
  },
});

Deno.test({
  name: 'a session past its absolute expiry is audited as session_expired (absolute) once',
  ...DB_TEST,
  fn: async () => {
    const user = await makeUser(t);
    const token = await signIn(t, user.username, user.secret);
    const sessionId = await newestSession(user.id);
    // Active a moment ago, but past its absolute lifetime.
    await t.deps.sql`update sessions set expires_at = now() - interval '1 second' where id = ${sessionId}`;
    assert.equal((await call(t, 'GET', '/api/documents/attorney', { token })).status, 401);
    assert.equal((await call(t, 'GET', '/api/documents/attorney', { token })).status, 401);
    const audited = (await events('session_expired')).filter((e) => e.resource_id === sessionId);
    assert.equal(audited.length, 1);
    assert.equal(audited[0].event_data.reason, 'absolute');
  },
});

Deno.test({
  name: 'a signed-out session is refused without a session_expired event',
  ...DB_TEST,
  fn: async () => {
    const user = await makeUser(t);
    const token = await signIn(t, user.username, user.secret);
    const sessionId = await newestSession(user.id);
    assert.equal((await call(t, 'POST', '/api/auth/logout', { token })).status, 200);
    assert.equal((await call(t, 'GET', '/api/documents/attorney', { token })).status, 401);
    assert.equal((await events('session_expired')).filter((e) => e.resource_id === sessionId).length, 0);
  },
});

Deno.test({
  name: 'reading the audit log is audited with its filters, one event per page',
  ...DB_TEST,
  fn: async () => {
    const before = (await events('audit_logs_viewed')).length;
    const first = await call(t, 'GET', '/api/admin/audit-logs?eventType=user_login&limit=1', {
      token: admin,
    });
    assert.equal(first.status, 200);
    // The page shows the log as it stood: this read's own event is not on it.
    assert.ok(!first.body.data.logs.some((l: any) => l.event_type === 'audit_logs_viewed'));
    const cursor = first.body.data.nextCursor;
    await call(t, 'GET', `/api/admin/audit-logs?eventType=user_login&limit=1&cursor=${cursor}`, {
      token: admin,
    });
    const audited = (await events('audit_logs_viewed')).slice(before);
    assert.equal(audited.length, 2);
    assert.equal(audited[0].user_id, adminId);
    assert.deepEqual(audited[0].event_data.filters, { eventType: 'user_login' });
    assert.equal(audited[0].event_data.limit, 1);
    assert.equal(audited[0].event_data.cursor, null);
    assert.equal(audited[1].event_data.cursor, cursor);
  },
});

Deno.test({
  name: 'exporting the audit log is audited with its filters',
  ...DB_TEST,
  fn: async () => {
    const before = (await events('audit_logs_exported')).length;
    const r = await t.app.request('/api/admin/audit-logs/export.csv?eventType=user_login', {
      headers: { authorization: `Bearer ${admin}` },
    }, { remoteAddr: { hostname: '127.0.0.1', port: 40000, transport: 'tcp' } });
    assert.equal(r.status, 200);
    await r.text();
    const audited = (await events('audit_logs_exported')).slice(before);
    assert.equal(audited.length, 1);
    assert.equal(audited[0].user_id, adminId);
    assert.deepEqual(audited[0].event_data.filters, { eventType: 'user_login' });
  },
});

Deno.test({
  name: "viewing a user's activity is audited with the user viewed",
  ...DB_TEST,
  fn: async () => {
    const user = await makeUser(t);
    const r = await call(t, 'GET', `/api/admin/users/${user.id}/activity`, { token: admin });
    assert.equal(r.status, 200);
    const audited = (await events('user_activity_viewed')).filter((e) => e.resource_id === user.id);
    assert.equal(audited.length, 1);
    assert.equal(audited[0].user_id, adminId);
    assert.equal(audited[0].resource_type, 'user');
    // A missing user is the same 404 as before, and no event names them.
    const ghost = '00000000-0000-4000-8000-0000000000ff';
    assert.equal((await call(t, 'GET', `/api/admin/users/${ghost}/activity`, { token: admin })).status, 404);
    assert.equal((await events('user_activity_viewed')).filter((e) => e.resource_id === ghost).length, 0);
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
  },
});
