/**
 * What an admin's PIN reset still allows, and what guards it (api/domain/pin_reset.ts): the one-time PIN works on
 * the facility's network only; every session that descends from the reset, and every read in it, names the admin;
 * the "Staff reset your PIN" notice stays until the offender dismisses it; the offender sees their own sign-ins.
 */
import assert from 'node:assert/strict';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { upload } from '../support/documents.ts';
import { makeUser } from '../support/factories.ts';
import { makePdf } from '../support/pdfs.ts';

let t: TestApp;
let admin: string;
let adminId: string;

/** An address inside the facility's range, added by the first test. */
const FACILITY = '10.20.0.5';
/** Headquarters: the admins' own network, outside the facility's range. */
const HEADQUARTERS = '192.0.2.10';

Deno.test({
  name: 'setup: app on a fresh database',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    admin = await signIn(t, ...DEMO.admin, HEADQUARTERS);
    const [row] = await t.deps.sql<{ id: string }[]>`select id from users where email = ${DEMO.admin[0]}`;
    adminId = row.id;
  },
});

const login = (username: string, password: string, ip = FACILITY) =>
  call(t, 'POST', '/api/auth/login', { body: { username, password, entity: 'default' }, ip });

async function resetPin(userId: string, pin: string): Promise<void> {
  const r = await call(t, 'PUT', `/api/admin/offenders/${userId}/pin`, {
    token: admin,
    body: { pin },
    ip: HEADQUARTERS,
  });
  assert.equal(r.status, 200, JSON.stringify(r.body));
}

/** Signs in with the one-time PIN at the facility and chooses `pin`; returns that session's token. */
async function chooseAfterReset(username: string, oneTime: string, pin: string): Promise<string> {
  const first = await login(username, oneTime);
  assert.equal(first.status, 200, JSON.stringify(first.body));
  assert.equal(first.body.user.mustChangePassword, true);
  const chosen = await call(t, 'POST', '/api/auth/password', {
    token: first.body.token,
    body: { currentPassword: oneTime, newPassword: pin },
    ip: FACILITY,
  });
  assert.equal(chosen.status, 200, JSON.stringify(chosen.body));
  return first.body.token;
}

/** An attorney's letter to the offender; returns its id. */
async function sendLetter(offender: { id: string; username: string }): Promise<string> {
  const attorney = await signIn(t, ...DEMO.attorney, HEADQUARTERS);
  const sent = await upload(t, attorney, {
    file: await makePdf({ title: 'Privileged' }),
    recipient: offender.username,
    title: 'Advice',
  });
  assert.equal(sent.status, 201, JSON.stringify(sent.body));
  const [row] = await t.deps.sql<
    { id: string }[]
  >`select id from documents where recipient_id = ${offender.id}`;
  return row.id;
}

async function readEvents(documentId: string): Promise<Record<string, unknown>[]> {
  const rows = await t.deps.sql<{ event_data: Record<string, unknown> }[]>`
    select event_data from audit_logs where event_type in ('document_viewed', 'document_printed')
      and resource_id = ${documentId} order by id`;
  return rows.map((r) => r.event_data);
}

Deno.test({
  name:
    "a PIN reset is refused while the entity has no active range; the one-time PIN works inside the facility's ranges only",
  ...DB_TEST,
  fn: async () => {
    const offender = await makeUser(t, { role: 'offender', secret: '314159' });
    // No range yet: no address is the facility's network, so the one-time PIN could open nothing.
    const refused = await call(t, 'PUT', `/api/admin/offenders/${offender.id}/pin`, {
      token: admin,
      body: { pin: '271828' },
      ip: HEADQUARTERS,
    });
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 'pin_reset_needs_facility_range');
    assert.match(refused.body.message, /only on the facility's network/);
    assert.match(refused.body.message, /IP range in IP Whitelist first/);
    // Nothing changed: the offender's own PIN still opens their mail (the entity admits any address yet).
    assert.equal((await login(offender.username, '314159', HEADQUARTERS)).status, 200);

    const range = await call(t, 'POST', '/api/admin/ip-whitelist', {
      token: admin,
      body: { ipRange: '10.20.0.0/16', description: 'Facility tablets' },
      ip: HEADQUARTERS,
    });
    assert.ok(range.status === 200 || range.status === 201, JSON.stringify(range.body));
    await resetPin(offender.id, '271828');
    assert.equal((await login(offender.username, '271828', HEADQUARTERS)).status, 403, 'headquarters');
    const inside = await login(offender.username, '271828', FACILITY);
    assert.equal(inside.status, 200, JSON.stringify(inside.body));
    assert.equal(inside.body.user.mustChangePassword, true);
  },
});

Deno.test({
  name:
    'a one-time PIN left while the entity has no active range is refused like a wrong PIN, from any address',
  ...DB_TEST,
  fn: async () => {
    const offender = await makeUser(t, { role: 'offender', secret: '314159' });
    await resetPin(offender.id, '271828');
    // The entity as before it ever had a range (a PIN reset before the upgrade that refuses one up front):
    // it admits offenders from any address, and none is the facility's network.
    const [entity] = await t.deps.sql<{ id: string; configured: Date | null }[]>`
      select id, ip_ranges_configured_at as configured from entities where slug = 'default'`;
    const ranges = await t.deps.sql<{ id: string }[]>`
      update ip_ranges set is_active = false where entity_id = ${entity.id} and is_active returning id`;
    await t.deps.sql`update entities set ip_ranges_configured_at = null where id = ${entity.id}`;
    try {
      const open = await login(offender.username, '271828', HEADQUARTERS);
      assert.equal(open.status, 401, JSON.stringify(open.body));
      assert.equal(
        open.body.code,
        'bad_credentials',
        'answered like a wrong PIN: nothing tells it was right',
      );
      const [refusal] = await t.deps.sql<{ event_data: Record<string, unknown> }[]>`
        select event_data from audit_logs where event_type = 'login_failed' and user_id = ${offender.id}
        order by id desc limit 1`;
      assert.equal(refusal.event_data.reason, 'one_time_pin_outside_facility');
    } finally {
      await t.deps
        .sql`update entities set ip_ranges_configured_at = ${entity.configured} where id = ${entity.id}`;
      for (const { id } of ranges) await t.deps.sql`update ip_ranges set is_active = true where id = ${id}`;
    }
    const inside = await login(offender.username, '271828', FACILITY);
    assert.equal(inside.status, 200, JSON.stringify(inside.body));
  },
});

Deno.test({
  name:
    'every session that descends from a reset, and every read and print in it, names the admin who reset it',
  ...DB_TEST,
  fn: async () => {
    const offender = await makeUser(t, { role: 'offender', secret: '314159' });
    const documentId = await sendLetter(offender);
    // Before any reset, reads name nobody.
    const before = await signIn(t, offender.username, '314159', FACILITY);
    assert.equal(
      (await call(t, 'GET', `/api/documents/view/${documentId}`, { token: before, ip: FACILITY })).status,
      200,
    );
    assert.equal((await readEvents(documentId))[0].pinResetBy, undefined);

    await resetPin(offender.id, '271828');
    await chooseAfterReset(offender.username, '271828', '161803');
    // Whoever chose 161803 (the admin could have), a sign-in with it descends from the reset.
    const second = await login(offender.username, '161803');
    assert.equal(second.status, 200);
    const token = second.body.token;
    assert.equal(
      (await call(t, 'GET', `/api/documents/view/${documentId}`, { token, ip: FACILITY })).status,
      200,
    );
    assert.equal(
      (await call(t, 'GET', `/api/documents/print/${documentId}`, { token, ip: FACILITY })).status,
      200,
    );
    const [, view, print] = await readEvents(documentId);
    assert.equal(view.pinResetBy, adminId, 'the view names the admin');
    assert.equal(print.pinResetBy, adminId, 'the print names the admin');

    // A PIN chosen in a descended session descends too: the chain does not end by changing the PIN again.
    const changed = await call(t, 'POST', '/api/auth/password', {
      token,
      body: { currentPassword: '161803', newPassword: '141421' },
      ip: FACILITY,
    });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    const third = await login(offender.username, '141421');
    assert.equal(third.status, 200);
    const view3 = await call(t, 'GET', `/api/documents/view/${documentId}`, {
      token: third.body.token,
      ip: FACILITY,
    });
    assert.equal(view3.status, 200);
    assert.equal((await readEvents(documentId)).at(-1)!.pinResetBy, adminId);
    const logins = await t.deps.sql<{ event_data: Record<string, unknown> }[]>`
      select event_data from audit_logs where event_type = 'user_login' and user_id = ${offender.id} order by id`;
    // Before the reset; the one-time PIN; the PIN chosen with it; the PIN chosen after that.
    assert.deepEqual(logins.map((l) => l.event_data.pinResetBy ?? null), [
      null,
      adminId,
      adminId,
      adminId,
    ]);
  },
});

Deno.test({
  name:
    'the "staff reset your PIN" notice survives every sign-in and goes only when the offender dismisses it',
  ...DB_TEST,
  fn: async () => {
    const offender = await makeUser(t, { role: 'offender', secret: '314159' });
    await resetPin(offender.id, '271828');
    const oneTime = await login(offender.username, '271828');
    assert.equal(typeof oneTime.body.user.pinResetAt, 'string');
    // The one-time PIN's session may not dismiss it: it may only choose a new PIN.
    const early = await call(t, 'POST', '/api/auth/pin-reset-notice/dismiss', {
      token: oneTime.body.token,
      ip: FACILITY,
    });
    assert.equal(early.status, 403);
    await call(t, 'POST', '/api/auth/password', {
      token: oneTime.body.token,
      body: { currentPassword: '271828', newPassword: '161803' },
      ip: FACILITY,
    });
    // The admin, who chose the PIN, signs in: the notice is still there for the offender's own sign-in after.
    const admins = await login(offender.username, '161803');
    assert.equal(admins.body.user.pinResetAt, oneTime.body.user.pinResetAt);
    const owners = await login(offender.username, '161803');
    assert.equal(owners.body.user.pinResetAt, oneTime.body.user.pinResetAt, 'still told');

    const dismissed = await call(t, 'POST', '/api/auth/pin-reset-notice/dismiss', {
      token: owners.body.token,
      ip: FACILITY,
    });
    assert.equal(dismissed.status, 200, JSON.stringify(dismissed.body));
    assert.deepEqual(dismissed.body, { success: true, message: 'Notice dismissed' });
    const [event] = await t.deps.sql<{ event_data: Record<string, unknown> }[]>`
      select event_data from audit_logs where event_type = 'pin_reset_notice_dismissed' and user_id = ${offender.id}`;
    assert.equal(event.event_data.pinResetBy, adminId);
    const after = await login(offender.username, '161803');
    assert.equal(after.body.user.pinResetAt, undefined);
    // Staff have no such notice to dismiss.
    assert.equal(
      (await call(t, 'POST', '/api/auth/pin-reset-notice/dismiss', { token: admin, ip: HEADQUARTERS }))
        .status,
      403,
    );
  },
});

Deno.test({
  name: "an offender's sign-ins list shows their sign-ins after a reset as such, and only their own",
  ...DB_TEST,
  fn: async () => {
    const offender = await makeUser(t, { role: 'offender', secret: '314159' });
    const other = await makeUser(t, { role: 'offender', secret: '926535' });
    const otherToken = await signIn(t, other.username, '926535', FACILITY);
    await signIn(t, offender.username, '314159', FACILITY);
    await resetPin(offender.id, '271828');
    await chooseAfterReset(offender.username, '271828', '161803');
    const token = (await login(offender.username, '161803')).body.token;

    const r = await call(t, 'GET', '/api/auth/sign-ins', { token, ip: FACILITY });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.success, true);
    const rows = r.body.data as {
      at: string;
      ipAddress: string;
      facilityNetwork: boolean;
      oneTimePin: boolean;
      afterPinReset: boolean;
    }[];
    assert.deepEqual(
      rows.map(({ ipAddress, facilityNetwork, oneTimePin, afterPinReset }) => ({
        ipAddress,
        facilityNetwork,
        oneTimePin,
        afterPinReset,
      })),
      [
        { ipAddress: FACILITY, facilityNetwork: true, oneTimePin: false, afterPinReset: true },
        { ipAddress: FACILITY, facilityNetwork: true, oneTimePin: true, afterPinReset: true },
        { ipAddress: FACILITY, facilityNetwork: true, oneTimePin: false, afterPinReset: false },
      ],
    );
    assert.ok(rows.every((row) => !Number.isNaN(Date.parse(row.at))));
    // The other offender's list has their one sign-in, never this one's.
    const theirs = await call(t, 'GET', '/api/auth/sign-ins', { token: otherToken, ip: FACILITY });
    assert.equal(theirs.status, 200);
    assert.equal(theirs.body.data.length, 1);
    assert.equal(theirs.body.data[0].afterPinReset, false);
    // Staff get no list here.
    assert.equal(
      (await call(t, 'GET', '/api/auth/sign-ins', { token: admin, ip: HEADQUARTERS })).status,
      403,
    );
  },
});

Deno.test({
  name:
    'a roster import that gives an existing offender a PIN is a PIN reset: one-time, facility only, told, audited',
  ...DB_TEST,
  fn: async () => {
    const offender = await makeUser(t, { role: 'offender', secret: '314159' });
    const documentId = await sendLetter(offender);
    const imported = await call(t, 'POST', '/api/admin/offenders/import', {
      token: admin,
      rawBody: `doc_number,first_name,last_name,pin\n${offender.username},Test,Person,271828\n`,
      headers: { 'content-type': 'text/csv' },
      ip: HEADQUARTERS,
    });
    assert.equal(imported.status, 200, JSON.stringify(imported.body));
    assert.equal((await login(offender.username, '314159')).status, 401, 'the PIN before it stops working');
    assert.equal(
      (await login(offender.username, '271828', HEADQUARTERS)).status,
      403,
      'not from headquarters',
    );
    const first = await login(offender.username, '271828');
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.user.mustChangePassword, true, 'it may only choose a new PIN');
    assert.equal(typeof first.body.user.pinResetAt, 'string', 'the offender is told');
    const list = await call(t, 'GET', '/api/documents/mine', { token: first.body.token, ip: FACILITY });
    assert.equal(list.status, 403);
    await call(t, 'POST', '/api/auth/password', {
      token: first.body.token,
      body: { currentPassword: '271828', newPassword: '161803' },
      ip: FACILITY,
    });
    const next = await login(offender.username, '161803');
    const view = await call(t, 'GET', `/api/documents/view/${documentId}`, {
      token: next.body.token,
      ip: FACILITY,
    });
    assert.equal(view.status, 200);
    assert.equal((await readEvents(documentId)).at(-1)!.pinResetBy, adminId);
    const [reset] = await t.deps.sql<{ user_id: string; event_data: Record<string, unknown> }[]>`
      select user_id, event_data from audit_logs
      where event_type = 'user_updated' and resource_id = ${offender.id} and event_data->>'change' = 'pin_reset'`;
    assert.equal(reset.user_id, adminId);
    assert.equal(reset.event_data.source, 'roster_api');
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
  },
});
