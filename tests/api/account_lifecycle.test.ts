/**
 * The account lifecycle: an admin's PIN reset (a one-time PIN that may only choose a new PIN, told to the
 * offender, audited with the admin), an offender's PIN change under the PIN rule, the staff forgotten-password
 * link, an admin's reset of a staff password, and "Sign out of all sessions".
 */
import assert from 'node:assert/strict';
import { bodyForRelay } from '../../api/email/worker.ts';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { upload } from '../support/documents.ts';
import { makeUser } from '../support/factories.ts';
import { makePdf } from '../support/pdfs.ts';

let t: TestApp;
let admin: string;

Deno.test({
  name: 'setup: app on a fresh database',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp({ PORTAL_URL: 'https://mail.example.test/' });
    admin = await signIn(t, ...DEMO.admin);
    // The facility's network, where offenders sign in here: a one-time PIN from staff works only there.
    const r = await call(t, 'POST', '/api/admin/ip-whitelist', {
      token: admin,
      body: { ipRange: '127.0.0.1' },
    });
    assert.ok(r.status < 300, JSON.stringify(r.body));
  },
});

async function adminId(): Promise<string> {
  const [row] = await t.deps.sql<{ id: string }[]>`select id from users where email = ${DEMO.admin[0]}`;
  return row.id;
}

/** The newest message to `to` as the relay gets it (a set-password code opened from its seal). */
async function lastEmailTo(to: string): Promise<{ subject: string; body: string } | undefined> {
  const [row] = await t.deps.sql<
    { id: string; to_address: string; subject: string; body: string; sealed_secret: Uint8Array | null }[]
  >`
    select id::text as id, to_address, subject, body, sealed_secret from email_outbox
    where to_address = ${to} order by created_at desc, id desc limit 1`;
  return row && { subject: row.subject, body: await bodyForRelay({ ...row, attempts: 1 }, t.deps.mfaKey) };
}

async function emailsTo(to: string): Promise<number> {
  const [row] = await t.deps.sql<
    { n: number }[]
  >`select count(*)::int as n from email_outbox where to_address = ${to}`;
  return row.n;
}

const login = (username: string, password: string, ip = '127.0.0.1') =>
  call(t, 'POST', '/api/auth/login', { body: { username, password, entity: 'default' }, ip });

Deno.test({
  name: "an admin's reset PIN opens one session that may only choose a new PIN, and its reads name the admin",
  ...DB_TEST,
  fn: async () => {
    const offender = await makeUser(t, { role: 'offender', secret: '314159' });
    const attorney = await signIn(t, ...DEMO.attorney);
    const sent = await upload(t, attorney, {
      file: await makePdf({ title: 'Privileged' }),
      recipient: offender.username,
      title: 'Advice',
    });
    assert.equal(sent.status, 201, JSON.stringify(sent.body));
    const documentId = sent.body.data?.documentId ?? sent.body.data?.id ?? sent.body.data?.documents?.[0]?.id;

    const reset = await call(t, 'PUT', `/api/admin/offenders/${offender.id}/pin`, {
      token: admin,
      body: { pin: '271828' },
    });
    assert.equal(reset.status, 200);
    // The PIN before the reset no longer works.
    assert.equal((await login(offender.username, '314159')).status, 401);

    const first = await login(offender.username, '271828');
    assert.equal(first.status, 200);
    assert.equal(first.body.user.mustChangePassword, true);
    assert.equal(typeof first.body.user.pinResetAt, 'string', 'the new-PIN screen tells when staff reset it');
    const token = first.body.token;
    for (
      const [method, path] of [
        ['GET', '/api/documents/mine'],
        ['GET', `/api/documents/offender/${offender.username}`],
        ['GET', '/api/auth/offline-key'],
      ]
    ) {
      const r = await call(t, method, path, { token });
      assert.equal(r.status, 403, `${method} ${path}: ${r.status}`);
      assert.equal(r.body.code, 'pin_change_required');
      assert.equal(r.body.message, 'Please choose a new PIN before continuing.');
    }
    if (documentId) {
      const view = await call(t, 'GET', `/api/documents/view/${documentId}`, { token });
      assert.equal(view.status, 403);
    }
    // Good for one sign-in only.
    assert.equal((await login(offender.username, '271828')).status, 401);

    // The new PIN follows the PIN rule: a password is refused.
    const word = await call(t, 'POST', '/api/auth/password', {
      token,
      body: { currentPassword: '271828', newPassword: 'Zebra-Quartz-Lantern-88' },
    });
    assert.equal(word.status, 400);
    assert.equal(word.body.message, 'PIN must be 6 to 12 digits');
    const chosen = await call(t, 'POST', '/api/auth/password', {
      token,
      body: { currentPassword: '271828', newPassword: '161803' },
    });
    assert.equal(chosen.status, 200, JSON.stringify(chosen.body));

    // Reads in the session opened with the reset PIN are audited with the admin who reset it.
    const list = await call(t, 'GET', '/api/documents/mine', { token });
    assert.equal(list.status, 200);
    const id = documentId ?? list.body.data?.[0]?.id ?? list.body.documents?.[0]?.id;
    assert.ok(id, JSON.stringify(list.body).slice(0, 300));
    const view = await call(t, 'GET', `/api/documents/view/${id}`, { token });
    assert.equal(view.status, 200);
    const [read] = await t.deps.sql<{ event_data: Record<string, unknown> }[]>`
      select event_data from audit_logs where event_type = 'document_viewed' and resource_id = ${id}`;
    assert.equal(read.event_data.pinResetBy, await adminId());
    const [resetEvent] = await t.deps.sql<{ user_id: string; event_data: Record<string, unknown> }[]>`
      select user_id, event_data from audit_logs
      where event_type = 'user_updated' and resource_id = ${offender.id} and event_data->>'change' = 'pin_reset'`;
    assert.equal(resetEvent.user_id, await adminId());

    // At the next sign-ins with the PIN chosen the offender is told, until they dismiss it
    // (tests/api/pin_reset_descent.test.ts).
    const next = await login(offender.username, '161803');
    assert.equal(next.status, 200);
    assert.equal(next.body.user.pinResetAt, first.body.user.pinResetAt);
    assert.equal(next.body.user.mustChangePassword, false);
    const after = await login(offender.username, '161803');
    assert.equal(after.body.user.pinResetAt, first.body.user.pinResetAt);
  },
});

Deno.test({
  name: "an offender's PIN change applies the PIN rule, never the password rules",
  ...DB_TEST,
  fn: async () => {
    const offender = await makeUser(t, { role: 'offender', secret: '424242' });
    const token = await signIn(t, offender.username, offender.secret);
    for (const newPassword of ['Zebra-Quartz-Lantern-88', '12345', '1234567890123']) {
      const r = await call(t, 'POST', '/api/auth/password', {
        token,
        body: { currentPassword: '424242', newPassword },
      });
      assert.equal(r.status, 400, newPassword);
      assert.equal(r.body.code, 'invalid_input');
    }
    const ok = await call(t, 'POST', '/api/auth/password', {
      token,
      body: { currentPassword: '424242', newPassword: '975318' },
    });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal((await login(offender.username, '975318')).status, 200);
  },
});

Deno.test({
  name: 'a forgotten password: the same answer for any address, a single-use link by e-mail, throttled',
  ...DB_TEST,
  fn: async () => {
    const staff = await makeUser(t);
    const ask = (email: string, ip: string) =>
      call(t, 'POST', '/api/auth/forgot-password', { body: { email, entity: 'default' }, ip });
    const known = await ask(staff.username.toUpperCase(), '10.77.0.1');
    const unknown = await ask('nobody-here@example.test', '10.77.0.1');
    assert.equal(known.status, 200);
    assert.deepEqual(unknown.body, known.body);
    assert.equal(await emailsTo('nobody-here@example.test'), 0);
    const mail = await lastEmailTo(staff.username);
    assert.ok(mail);
    const link = /https:\/\/mail\.example\.test\/reset-password#([A-Za-z0-9_-]{20,})/.exec(mail.body);
    assert.ok(link, mail.body);
    // Offenders have no e-mail sign-in: the form sends them nothing.
    const token = link[1];

    const weak = await call(t, 'POST', '/api/auth/reset-password', {
      body: { token, newPassword: 'password123' },
    });
    assert.equal(weak.status, 400);
    const set = await call(t, 'POST', '/api/auth/reset-password', {
      body: { token, newPassword: 'Copper-Meadow-Violin-41' },
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal((await login(staff.username, staff.secret)).status, 401);
    assert.equal((await login(staff.username, 'Copper-Meadow-Violin-41')).status, 200);
    const again = await call(t, 'POST', '/api/auth/reset-password', {
      body: { token, newPassword: 'Another-Meadow-Violin-42' },
    });
    assert.equal(again.status, 400);
    assert.equal(again.body.code, 'reset_link_invalid');

    // Throttled per client address (a 429 that says nothing about an address), and per account (answered alike).
    for (let i = 0; i < 3; i++) assert.equal((await ask(`x${i}@example.test`, '10.77.0.1')).status, 200);
    const over = await ask(staff.username, '10.77.0.1');
    assert.equal(over.status, 429);
    assert.equal(over.body.code, 'password_reset_throttled');
    const before = await emailsTo(staff.username);
    for (let i = 0; i < 5; i++) assert.equal((await ask(staff.username, `10.78.0.${i}`)).status, 200);
    assert.equal(await emailsTo(staff.username) - before, 2, 'three links an hour to one account');
  },
});

Deno.test({
  name: 'an expired link sets nothing',
  ...DB_TEST,
  fn: async () => {
    const staff = await makeUser(t);
    await call(t, 'POST', '/api/auth/forgot-password', { body: { email: staff.username }, ip: '10.79.0.1' });
    const token = /#([A-Za-z0-9_-]{20,})/.exec((await lastEmailTo(staff.username))!.body)![1];
    await t.deps.sql`update password_reset_tokens set expires_at = now() - interval '1 second'
                     where user_id = ${staff.id}`;
    const r = await call(t, 'POST', '/api/auth/reset-password', {
      body: { token, newPassword: 'Copper-Meadow-Violin-41' },
    });
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 'reset_link_invalid');
  },
});

Deno.test({
  name:
    "an admin's reset of a staff password: audited, ends the owner's sessions, e-mails a link, own entity only",
  ...DB_TEST,
  fn: async () => {
    const staff = await makeUser(t);
    const session = await signIn(t, staff.username, staff.secret);
    const r = await call(t, 'POST', `/api/admin/users/${staff.id}/password-reset`, { token: admin });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal((await call(t, 'GET', '/api/auth/me', { token: session })).status, 401);
    assert.equal((await login(staff.username, staff.secret)).status, 401);
    const mail = await lastEmailTo(staff.username);
    assert.equal(mail?.subject, 'Your password was reset');
    const token = /#([A-Za-z0-9_-]{20,})/.exec(mail!.body)![1];
    const set = await call(t, 'POST', '/api/auth/reset-password', {
      body: { token, newPassword: 'Granite-Orchard-Piano-57' },
    });
    assert.equal(set.status, 200);
    assert.equal((await login(staff.username, 'Granite-Orchard-Piano-57')).status, 200);
    const [audit] = await t.deps.sql<{ user_id: string }[]>`
      select user_id from audit_logs
      where event_type = 'user_updated' and resource_id = ${staff.id} and event_data->>'change' = 'password_reset'`;
    assert.equal(audit.user_id, await adminId());

    // Another entity's staff member: not found, nothing sent.
    const [other] = await t.deps.sql<{ id: string }[]>`
      insert into entities (name, slug) values ('Elsewhere', 'elsewhere') returning id`;
    const foreign = await makeUser(t, { entityId: other.id });
    const refused = await call(t, 'POST', `/api/admin/users/${foreign.id}/password-reset`, { token: admin });
    assert.equal(refused.status, 404);
    assert.equal(await emailsTo(foreign.username), 0);
    // An offender's secret is a PIN, reset on the roster.
    const offender = await makeUser(t, { role: 'offender' });
    assert.equal(
      (await call(t, 'POST', `/api/admin/users/${offender.id}/password-reset`, { token: admin })).status,
      404,
    );
  },
});

Deno.test({
  name: 'Sign out of all sessions ends every session of the user, this one included',
  ...DB_TEST,
  fn: async () => {
    const staff = await makeUser(t);
    const a = await signIn(t, staff.username, staff.secret);
    const b = await signIn(t, staff.username, staff.secret);
    const other = await signIn(t, ...DEMO.approver);
    const r = await call(t, 'POST', '/api/auth/logout-all', { token: a });
    assert.equal(r.status, 200);
    assert.equal((await call(t, 'GET', '/api/auth/me', { token: a })).status, 401);
    assert.equal((await call(t, 'GET', '/api/auth/me', { token: b })).status, 401);
    assert.equal((await call(t, 'GET', '/api/auth/me', { token: other })).status, 200);
    const offender = await makeUser(t, { role: 'offender' });
    const o = await signIn(t, offender.username, offender.secret);
    assert.equal((await call(t, 'POST', '/api/auth/logout-all', { token: o })).status, 200);
    assert.equal((await call(t, 'GET', '/api/auth/me', { token: o })).status, 401);
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
  },
});
