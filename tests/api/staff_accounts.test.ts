/**
 * "Add Staff": a department-wide administrator staffs a new entity from Users, an entity's own admin staffs only
 * their own entity with approvers, and the new account's owner sets the password from the e-mailed link.
 */
import assert from 'node:assert/strict';
import { bodyForRelay } from '../../api/email/worker.ts';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { makeUser } from '../support/factories.ts';

let t: TestApp;
let departmentAdmin: string;
let newSlug: string;

/** The newest message to `to` as the relay gets it (its set-password code opened from its seal). */
async function lastEmailTo(to: string) {
  const [row] = await t.deps.sql<
    {
      id: string;
      kind: string;
      to_address: string;
      subject: string;
      body: string;
      sealed_secret: Uint8Array | null;
    }[]
  >`
    select id::text as id, kind, to_address, subject, body, sealed_secret from email_outbox
    where to_address = ${to} order by created_at desc, id desc limit 1`;
  return row &&
    { kind: row.kind, stored: row.body, body: await bodyForRelay({ ...row, attempts: 1 }, t.deps.mfaKey) };
}

const login = (username: string, password: string, entity: string) =>
  call(t, 'POST', '/api/auth/login', { body: { username, password, entity } });

const addStaff = (token: string, body: Record<string, unknown>) =>
  call(t, 'POST', '/api/admin/users/staff', { token, body });

Deno.test({
  name: 'setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    departmentAdmin = await signIn(t, ...DEMO.admin);
    const made = await call(t, 'POST', '/api/admin/entities', {
      token: departmentAdmin,
      body: { name: 'Northern Correctional Facility', status: 'active' },
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    newSlug = made.body.data.entity.slug;
  },
});

Deno.test({
  name:
    'a department-wide admin creates an approver for a new entity, who sets a password from the e-mailed link and signs in there',
  ...DB_TEST,
  fn: async () => {
    const email = 'new.approver@northern.example.test';
    const r = await addStaff(departmentAdmin, {
      email: ' New.Approver@Northern.example.test ',
      firstName: 'Nora',
      lastName: 'North',
      role: 'approver',
      entity: newSlug,
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assert.equal(r.body.data.entity, newSlug);
    const [user] = await t.deps.sql<{ role: string; status: string; slug: string }[]>`
      select u.role, u.status, e.slug from users u join entities e on e.id = u.entity_id
      where u.id = ${r.body.data.userId}`;
    assert.deepEqual({ ...user }, { role: 'approver', status: 'active', slug: newSlug });
    const mail = await lastEmailTo(email);
    assert.ok(mail, 'the set-password e-mail is in the outbox');
    assert.equal(mail.kind, 'staff_account_created');
    // Without PORTAL_URL the e-mail carries the link's code to type on the "Set a new password" page.
    const link = /^([A-Za-z0-9_-]{40,})$/m.exec(mail.body);
    assert.ok(link, mail.body);
    // Only the link's hash is stored, and the outbox keeps the code sealed.
    assert.ok(!mail.stored.includes(link[1]));
    const [{ n }] = await t.deps.sql<{ n: number }[]>`
      select count(*)::int as n from password_reset_tokens where token_hash = ${link[1]}`;
    assert.equal(n, 0);
    // Nothing signs in before the link is used.
    assert.equal((await login(email, 'Copper-Meadow-Violin-41', newSlug)).status, 401);
    const set = await call(t, 'POST', '/api/auth/reset-password', {
      body: { token: link[1], newPassword: 'Copper-Meadow-Violin-41' },
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    const signedIn = await login(email, 'Copper-Meadow-Violin-41', newSlug);
    assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
    assert.equal(signedIn.body.user.role, 'approver');
    const [audit] = await t.deps.sql<{ user_id: string; event_data: Record<string, unknown> }[]>`
      select user_id, event_data from audit_logs
      where event_type = 'user_created' and resource_id = ${r.body.data.userId}`;
    const [{ id: adminId }] = await t.deps.sql<{ id: string }[]>`select id from users where email = ${
      DEMO.admin[0]
    }`;
    assert.equal(audit.user_id, adminId);
    assert.deepEqual(audit.event_data, { via: 'add_staff', role: 'approver', email, entity: newSlug });
  },
});

Deno.test({
  name: 'a department-wide admin creates an admin for a new entity; a second account with the address is 409',
  ...DB_TEST,
  fn: async () => {
    const body = { email: 'north.admin@example.test', firstName: 'Ned', lastName: 'North', role: 'admin' };
    const r = await addStaff(departmentAdmin, { ...body, entity: newSlug });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const again = await addStaff(departmentAdmin, { ...body, role: 'approver', entity: newSlug });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'user_email_taken');
    const unknown = await addStaff(departmentAdmin, { ...body, entity: 'no-such-entity' });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.code, 'entity_not_found');
  },
});

Deno.test({
  name:
    "an entity's own admin creates approvers of their own entity only: another entity is 404, an admin is 403",
  ...DB_TEST,
  fn: async () => {
    const [{ id: entityId }] = await t.deps.sql<{ id: string }[]>`
      select id from entities where slug = ${newSlug}`;
    const northAdmin = await makeUser(t, { entityId, role: 'admin' });
    const signed = await login(northAdmin.username, northAdmin.secret, newSlug);
    assert.equal(signed.status, 200, JSON.stringify(signed.body));
    const token = signed.body.token;
    const person = { firstName: 'Ann', lastName: 'Other', role: 'approver' };
    const elsewhere = await addStaff(token, { ...person, email: 'ann@example.test', entity: 'default' });
    assert.equal(elsewhere.status, 404);
    assert.equal(elsewhere.body.code, 'entity_not_found');
    const admin = await addStaff(token, { ...person, email: 'ann@example.test', role: 'admin' });
    assert.equal(admin.status, 403);
    assert.equal(admin.body.code, 'department_admin_only');
    const [{ n }] = await t.deps.sql<{ n: number }[]>`
      select count(*)::int as n from users where email = 'ann@example.test'`;
    assert.equal(n, 0);
    const own = await addStaff(token, { ...person, email: 'ann@example.test' });
    assert.equal(own.status, 201, JSON.stringify(own.body));
    assert.equal(own.body.data.entity, newSlug);
  },
});

Deno.test({
  name: 'bad input is a 400 in plain words, and an approver or attorney cannot add staff',
  ...DB_TEST,
  fn: async () => {
    for (
      const body of [
        {},
        { email: 'not-an-address', firstName: 'A', lastName: 'B', role: 'approver' },
        { email: 'a@example.test', firstName: 'A\nURGENT', lastName: 'B', role: 'approver' },
        { email: 'a@example.test', firstName: 'A', lastName: 'B', role: 'offender' },
        { email: 'a@example.test', firstName: ' ', lastName: 'B', role: 'attorney' },
      ]
    ) {
      const r = await addStaff(departmentAdmin, body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.body.success, false);
    }
    for (const role of ['approver', 'attorney'] as const) {
      const token = await signIn(t, DEMO[role][0], DEMO[role][1]);
      const r = await addStaff(token, {
        email: 'x@example.test',
        firstName: 'A',
        lastName: 'B',
        role: 'approver',
      });
      assert.equal(r.status, 403);
    }
  },
});
