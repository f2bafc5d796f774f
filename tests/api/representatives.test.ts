/**
 * A representative's supervising attorney: linked only when bar number, bar state and e-mail all match
 * one active attorney, shared with only after that attorney accepts, and recorded on each document when it is
 * sent, so a later change of supervisor never changes who reads mail already sent.
 */
import assert from 'node:assert/strict';
import { proposeSupervisor } from '../../api/domain/representatives.ts';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { upload } from '../support/documents.ts';
import { makeUser, registrationBody } from '../support/factories.ts';
import { makePdf } from '../support/pdfs.ts';

let t: TestApp;
let approver: string;
let offender: string;
const X = { barNumber: 'XB-100', barState: 'MO', email: '', id: '', token: '' };
const Y = { barNumber: 'YB-200', barState: 'MO', email: '', id: '', token: '' };
let ipCounter = 1;
const PASSWORD = 'Quartz-Lantern-Harbor-719';

async function makeAttorney(a: typeof X) {
  const made = await makeUser(t, { role: 'attorney', barNumber: a.barNumber, barState: a.barState });
  a.id = made.id;
  a.email = made.username;
  a.token = await signIn(t, made.username, made.secret);
}

/** Registers a representative naming a supervisor, approves it and signs them in. */
async function approvedRepresentative(
  fields: { barState: string; supervisingAttorneyBar: string; supervisingAttorneyEmail: string },
) {
  const body = registrationBody({
    userType: 'representative',
    isRepresentative: true,
    password: PASSWORD,
    confirmPassword: PASSWORD,
    supervisingAttorneyName: 'Named Supervisor',
    ...fields,
  });
  // A client address per registration: the registration throttle is not what this file tests.
  const ip = `198.51.100.${ipCounter++}`;
  const submitted = await call(t, 'POST', '/api/auth/register', { body, ip });
  assert.equal(submitted.status, 201, JSON.stringify(submitted.body));
  const pending = await call(t, 'GET', '/api/approver/registrations', { token: approver });
  const row = pending.body.registrations.find((r: { email: string }) => r.email === body.email);
  const approved = await call(t, 'POST', `/api/approver/registrations/${row.id}/approve`, {
    token: approver,
  });
  assert.equal(approved.status, 200, JSON.stringify(approved.body));
  const [user] = await t.deps.sql<{ id: string }[]>`select id from users where email = ${body.email}`;
  return {
    id: user.id,
    registrationId: row.id as string,
    listed: row,
    approved: approved.body,
    token: await signIn(t, body.email, PASSWORD),
  };
}

async function send(token: string, title: string): Promise<string> {
  const r = await upload(
    t,
    token,
    { file: await makePdf(), recipient: '100001', title },
    '/api/representative/upload',
  );
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body.document.documentid;
}

/** The status each read path answers this token for the document (view, print, info must agree). */
async function readStatus(token: string, id: string): Promise<number> {
  const statuses = new Set<number>();
  for (
    const path of [`/api/documents/view/${id}`, `/api/documents/print/${id}`, `/api/documents/${id}/info`]
  ) {
    statuses.add((await call(t, 'GET', path, { token })).status);
  }
  assert.equal(statuses.size, 1, `read paths disagree: ${[...statuses]}`);
  return [...statuses][0];
}

async function listed(token: string, id: string): Promise<boolean> {
  const attorney = await call(t, 'GET', '/api/documents/attorney', { token });
  const mine = await call(t, 'GET', '/api/documents/mine', { token });
  const inAttorney = attorney.body.documents.some((d: { documentid: string }) => d.documentid === id);
  const inMine = mine.body.documents.some((d: { documentid: string }) => d.documentid === id);
  assert.equal(inAttorney, inMine, 'the two lists agree');
  return inAttorney;
}

async function audited(type: string, representativeId: string): Promise<Record<string, unknown>[]> {
  const rows = await t.deps.sql<{ event_data: Record<string, unknown> }[]>`
    select event_data from audit_logs where event_type = ${type} and resource_id = ${representativeId}
    order by id`;
  return rows.map((r) => r.event_data);
}

Deno.test({
  name: 'setup: attorneys X and Y (same bar state), the approver and offender 100001',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    approver = await signIn(t, DEMO.approver[0], DEMO.approver[1]);
    offender = await signIn(t, DEMO.offender[0], DEMO.offender[1]);
    await makeAttorney(X);
    await makeAttorney(Y);
  },
});

Deno.test({
  name:
    "a representative who typed X's bar number with another e-mail or state is linked to nobody; X reads nothing",
  ...DB_TEST,
  fn: async () => {
    const otherEmail = await approvedRepresentative({
      barState: X.barState,
      supervisingAttorneyBar: X.barNumber.toLowerCase(),
      supervisingAttorneyEmail: 'partner@another-firm.test',
    });
    const otherState = await approvedRepresentative({
      barState: 'KS',
      supervisingAttorneyBar: X.barNumber,
      supervisingAttorneyEmail: X.email,
    });
    for (const rep of [otherEmail, otherState]) {
      assert.equal(rep.listed.supervisor_match, null, 'the approver was shown that nobody matches');
      assert.equal(rep.approved.data.supervisingAttorney, null);
      const [row] = await t.deps.sql`select supervising_attorney_id from users where id = ${rep.id}`;
      assert.equal(row.supervising_attorney_id, null);
      assert.deepEqual(await audited('representative_link_proposed', rep.id), []);

      const doc = await send(rep.token, 'Working alone');
      assert.equal(await readStatus(X.token, doc), 404);
      assert.equal(await listed(X.token, doc), false);
      assert.equal(await readStatus(rep.token, doc), 200, 'the sender reads it');
      assert.equal(await readStatus(offender, doc), 200, 'the recipient reads it');
    }
    const list = await call(t, 'GET', '/api/attorney/representatives', { token: X.token });
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.representatives, []);
  },
});

let rep: Awaited<ReturnType<typeof approvedRepresentative>>;
let sentWhilePending: string;
let sharedWithX: string;

Deno.test({
  name:
    'with bar number, state and e-mail all matching, X is proposed, reads nothing until accepting, then reads',
  ...DB_TEST,
  fn: async () => {
    rep = await approvedRepresentative({
      barState: 'mo',
      supervisingAttorneyBar: X.barNumber.toLowerCase(),
      supervisingAttorneyEmail: X.email.toUpperCase(),
    });
    // The approver's modal showed which account would be linked.
    assert.deepEqual(
      { id: rep.listed.supervisor_match.id, email: rep.listed.supervisor_match.email },
      { id: X.id, email: X.email },
    );
    assert.equal(rep.listed.supervisor_match.bar_number, X.barNumber);
    assert.equal(rep.approved.data.supervisingAttorney.id, X.id);
    assert.equal((await audited('representative_link_proposed', rep.id))[0].attorneyId, X.id);

    const pending = await call(t, 'GET', '/api/attorney/representatives', { token: X.token });
    assert.equal(pending.status, 200);
    assert.equal(pending.body.representatives.length, 1);
    const row = pending.body.representatives[0];
    assert.equal(row.id, rep.id);
    assert.equal(row.link_status, 'pending');
    assert.equal(row.accepted_at, null);
    assert.ok(row.proposed_at);
    assert.deepEqual((await call(t, 'GET', '/api/attorney/representatives', { token: Y.token })).body, {
      success: true,
      representatives: [],
    });

    sentWhilePending = await send(rep.token, 'Sent while pending');
    assert.equal(await readStatus(X.token, sentWhilePending), 404, 'pending shares nothing');
    assert.equal(await listed(X.token, sentWhilePending), false);

    // Only X may accept: Y, a malformed id and an unknown id are the same 404.
    for (const id of [rep.id, 'not-a-uuid', crypto.randomUUID()]) {
      const r = await call(t, 'POST', `/api/attorney/representatives/${id}/accept`, { token: Y.token });
      assert.equal(r.status, 404, id);
      assert.equal(r.body.message, 'Representative not found.');
    }
    assert.equal(
      (await call(t, 'POST', `/api/attorney/representatives/${rep.id}/remove`, { token: Y.token })).status,
      404,
    );
    const accepted = await call(t, 'POST', `/api/attorney/representatives/${rep.id}/accept`, {
      token: X.token,
    });
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    assert.equal(accepted.body.representative.link_status, 'accepted');
    assert.equal((await audited('representative_link_accepted', rep.id)).length, 1);
    const again = await call(t, 'POST', `/api/attorney/representatives/${rep.id}/accept`, { token: X.token });
    assert.equal(again.status, 200);
    assert.equal(
      (await audited('representative_link_accepted', rep.id)).length,
      1,
      'accepting twice is one event',
    );

    assert.equal(
      await readStatus(X.token, sentWhilePending),
      404,
      'what was sent before acceptance stays unshared',
    );
    sharedWithX = await send(rep.token, 'Sent after acceptance');
    assert.equal(await readStatus(X.token, sharedWithX), 200);
    assert.equal(await listed(X.token, sharedWithX), true);
    assert.equal(await readStatus(Y.token, sharedWithX), 404);
  },
});

Deno.test({
  name: "an existing document's readers are unchanged when the supervisor changes (X removed, Y linked)",
  ...DB_TEST,
  fn: async () => {
    const removed = await call(t, 'POST', `/api/attorney/representatives/${rep.id}/remove`, {
      token: X.token,
    });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.equal((await audited('representative_link_removed', rep.id))[0].wasAccepted, true);
    assert.deepEqual(
      (await call(t, 'GET', '/api/attorney/representatives', { token: X.token })).body
        .representatives,
      [],
    );
    assert.equal(
      (await call(t, 'POST', `/api/attorney/representatives/${rep.id}/accept`, { token: X.token })).status,
      404,
      'a removed link cannot be accepted again',
    );
    const alone = await send(rep.token, 'Sent alone');
    assert.equal(await readStatus(X.token, alone), 404);

    // A new link to Y (proposed as approval would), accepted by Y.
    await t.deps.sql.begin((tx) =>
      proposeSupervisor(tx, { representativeId: rep.id, attorneyId: Y.id }, {
        userId: Y.id,
        ipAddress: 'test',
      })
    );
    assert.equal(
      (await call(t, 'POST', `/api/attorney/representatives/${rep.id}/accept`, { token: Y.token })).status,
      200,
    );
    for (const old of [sharedWithX, sentWhilePending, alone]) {
      assert.equal(await readStatus(Y.token, old), 404, 'Y cannot read what was sent before');
      assert.equal(await listed(Y.token, old), false);
    }
    assert.equal(await readStatus(X.token, sharedWithX), 200, 'X keeps what was shared with X');
    assert.equal(await listed(X.token, sharedWithX), true);
    const sharedWithY = await send(rep.token, 'Sent under Y');
    assert.equal(await readStatus(Y.token, sharedWithY), 200);
    assert.equal(await readStatus(X.token, sharedWithY), 404);
  },
});

Deno.test({
  name: 'only attorneys reach the Representatives list',
  ...DB_TEST,
  fn: async () => {
    for (const token of [offender, rep.token, approver]) {
      assert.equal((await call(t, 'GET', '/api/attorney/representatives', { token })).status, 403);
    }
    assert.equal((await call(t, 'GET', '/api/attorney/representatives')).status, 401);
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
  },
});
