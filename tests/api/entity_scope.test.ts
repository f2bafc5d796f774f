/**
 * An admin manages their own entity only: another entity's users, offenders, audit rows and entity answer 404 (or
 * are left out of a list) as for any other role. Entities, the installation-wide settings and the outbox are the
 * department's administrators' (the admins of the installation's first entity).
 */
import assert from 'node:assert/strict';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { makeUser } from '../support/factories.ts';

let t: TestApp;
/** The default entity's admin: a department administrator. */
let departmentAdmin: string;
/** The second entity's admin, its id and its slug. */
let north: { admin: string; entityId: string; slug: string; offenderId: string };
let defaultAdminId: string;
let defaultEntityId: string;
let offender100001: string;

Deno.test({
  name: 'setup: the installation and a second entity with its own admin and offender',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    departmentAdmin = await signIn(t, DEMO.admin[0], DEMO.admin[1]);
    const slug = `north-${crypto.randomUUID().slice(0, 8)}`;
    const [{ id: entityId }] = await t.deps.sql<{ id: string }[]>`
      insert into entities (name, slug, status) values ('North facility', ${slug}, 'active') returning id`;
    const adminUser = await makeUser(t, { entityId, role: 'admin' });
    const offender = await makeUser(t, { entityId, role: 'offender' });
    const r = await call(t, 'POST', '/api/auth/login', {
      body: { username: adminUser.username, password: adminUser.secret, entity: slug },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    north = { admin: r.body.token, entityId, slug, offenderId: offender.id };
    [{ id: defaultAdminId, entity_id: defaultEntityId }] = await t.deps.sql<
      { id: string; entity_id: string }[]
    >`select id, entity_id from users where email = ${DEMO.admin[0]}`;
    [{ id: offender100001 }] = await t.deps.sql<{ id: string }[]>`
      select id from users where doc_number = '100001'`;
  },
});

Deno.test({
  name: "a second entity's admin lists only their own entity's users, in both forms of the list",
  ...DB_TEST,
  fn: async () => {
    const all = await call(t, 'GET', '/api/admin/users', { token: north.admin });
    assert.equal(all.status, 200);
    assert.ok(all.body.users.length >= 2);
    assert.ok(all.body.users.every((u: { entity_id?: string; id: string }) => u.id !== offender100001));
    assert.ok(all.body.users.some((u: { id: string }) => u.id === north.offenderId));
    const page = await call(t, 'GET', '/api/admin/users?q=100001', { token: north.admin });
    assert.equal(page.status, 200);
    assert.deepEqual(page.body.users, []);
    assert.equal(page.body.total, 0);
    // The installation's admin still sees their own entity's users.
    const own = await call(t, 'GET', '/api/admin/users?q=100001', { token: departmentAdmin });
    assert.equal(own.body.users.length, 1);
  },
});

Deno.test({
  name: "another entity's user is a 404 to an admin: activity, status, PIN reset",
  ...DB_TEST,
  fn: async () => {
    const activity = await call(t, 'GET', `/api/admin/users/${offender100001}/activity`, {
      token: north.admin,
    });
    assert.equal(activity.status, 404);
    assert.equal(activity.body.code, 'user_not_found');
    const deactivate = await call(t, 'PUT', `/api/admin/users/${defaultAdminId}/status`, {
      token: north.admin,
      body: { status: 'deactivated' },
    });
    assert.equal(deactivate.status, 404);
    assert.equal(deactivate.body.code, 'user_not_found');
    const reset = await call(t, 'PUT', `/api/admin/offenders/${offender100001}/pin`, {
      token: north.admin,
      body: { pin: '987654' },
    });
    assert.equal(reset.status, 404);
    assert.equal(reset.body.code, 'offender_not_found');
    // Nothing changed: the admin is active and 100001 still signs in with their own PIN.
    const [{ status }] = await t.deps.sql<
      { status: string }[]
    >`select status from users where id = ${defaultAdminId}`;
    assert.equal(status, 'active');
    await signIn(t, DEMO.offender[0], DEMO.offender[1]);
    // The department's own admin reaches the other entity's users no more than anyone: each admin their own.
    const across = await call(t, 'GET', `/api/admin/users/${north.offenderId}/activity`, {
      token: departmentAdmin,
    });
    assert.equal(across.status, 404);
  },
});

Deno.test({
  name: "a second entity's admin reads only their own entity's audit rows, on screen and in the export",
  ...DB_TEST,
  fn: async () => {
    const page = await call(t, 'GET', '/api/admin/audit-logs?limit=200', { token: north.admin });
    assert.equal(page.status, 200);
    const [{ ids }] = await t.deps.sql<{ ids: string[] }[]>`
      select coalesce(array_agg(id::text), '{}') as ids from users where entity_id = ${north.entityId}`;
    assert.ok(page.body.data.logs.length > 0);
    for (const log of page.body.data.logs) assert.ok(ids.includes(log.user_id), JSON.stringify(log));
    const other = await call(t, 'GET', `/api/admin/audit-logs?userId=${offender100001}`, {
      token: north.admin,
    });
    assert.deepEqual(other.body.data.logs, []);
    const csv = await call(t, 'GET', '/api/admin/audit-logs/export.csv', { token: north.admin });
    assert.equal(csv.status, 200);
    const rows = String(csv.body).trim().split('\n').slice(1);
    assert.ok(rows.length > 0);
    // Each row's second column is its user: the entity's own users only.
    for (const row of rows) assert.ok(ids.includes(row.split(',')[1]), row);
    // The installation's admin sees their entity's rows.
    const own = await call(t, 'GET', `/api/admin/audit-logs?userId=${offender100001}`, {
      token: departmentAdmin,
    });
    assert.ok(own.body.data.logs.length > 0);
  },
});

Deno.test({
  name:
    "entities: a second entity's admin sees and edits only their own, creates none, and cannot touch the default",
  ...DB_TEST,
  fn: async () => {
    const list = await call(t, 'GET', '/api/admin/entities', { token: north.admin });
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.entities.map((e: { id: string }) => e.id), [north.entityId]);
    const body = { name: 'Default', slug: 'default', status: 'inactive' };
    const deactivate = await call(t, 'PUT', `/api/admin/entities/${defaultEntityId}`, {
      token: north.admin,
      body,
    });
    assert.equal(deactivate.status, 404);
    assert.equal(deactivate.body.code, 'entity_not_found');
    const [{ status }] = await t.deps.sql<{ status: string }[]>`
      select status from entities where id = ${defaultEntityId}`;
    assert.equal(status, 'active');
    const create = await call(t, 'POST', '/api/admin/entities', {
      token: north.admin,
      body: { name: 'South', status: 'active' },
    });
    assert.equal(create.status, 403);
    assert.equal(create.body.code, 'department_admin_only');
    const own = await call(t, 'PUT', `/api/admin/entities/${north.entityId}`, {
      token: north.admin,
      body: { name: 'North facility (renamed)', slug: north.slug, status: 'active' },
    });
    assert.equal(own.status, 200, JSON.stringify(own.body));
    // The department's administrator lists every entity and may create one.
    const all = await call(t, 'GET', '/api/admin/entities', { token: departmentAdmin });
    assert.ok(all.body.entities.length >= 2);
    const made = await call(t, 'POST', '/api/admin/entities', {
      token: departmentAdmin,
      body: { name: `South ${crypto.randomUUID().slice(0, 6)}`, status: 'active' },
    });
    assert.equal(made.status, 201);
  },
});

Deno.test({
  name:
    "the installation's settings and outbox are the department administrator's: a second entity's admin gets 403",
  ...DB_TEST,
  fn: async () => {
    const change = await call(t, 'PUT', '/api/admin/settings/failed_login_limit', {
      token: north.admin,
      body: { value: { type: 'number', value: 3 } },
    });
    assert.equal(change.status, 403);
    assert.equal(change.body.code, 'department_admin_only');
    assert.equal((await call(t, 'GET', '/api/admin/settings', { token: north.admin })).status, 403);
    assert.equal((await call(t, 'GET', '/api/admin/email-outbox', { token: north.admin })).status, 403);
    const [{ value }] = await t.deps.sql<{ value: { value: number } }[]>`
      select value from settings where key = 'failed_login_limit'`;
    assert.equal(value.value, 5);
    const [{ n }] = await t.deps.sql<{ n: number }[]>`
      select count(*)::int as n from audit_logs where event_type = 'access_denied'
        and event_data->>'path' = '/api/admin/settings/failed_login_limit'`;
    assert.equal(n, 1, 'the refusal is audited');
    assert.equal((await call(t, 'GET', '/api/admin/settings', { token: departmentAdmin })).status, 200);
    assert.equal((await call(t, 'GET', '/api/admin/email-outbox', { token: departmentAdmin })).status, 200);
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
  },
});
