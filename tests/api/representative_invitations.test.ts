/**
 * "Invite a representative": the attorney's invitation goes out through the outbox to a real SMTP relay, and its
 * single-use link registers a representative who, once approved, is supervised by that attorney.
 */
import assert from 'node:assert/strict';
import { deliverDueEmails } from '../../api/email/worker.ts';
import { INVITATIONS_PER_DAY } from '../../api/domain/representative_invitations.ts';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { makeUser, registrationBody } from '../support/factories.ts';
import { type AppRelay, startAppRelay } from '../support/smtp.ts';

let t: TestApp;
let attorney: string;
let attorneyId: string;
let approver: string;
let mail: AppRelay;

const invite = (token: string, email: string) =>
  call(t, 'POST', '/api/attorney/representatives/invitations', { token, body: { email } });

/** Delivers the outbox and answers the invitation's code from the message the relay received for `to`. */
async function deliveredCode(to: string): Promise<{ code: string; subject: string; body: string }> {
  await deliverDueEmails(t.deps.sql, mail.options);
  const message = mail.relay.received.filter((m) => m.to[0] === to).at(-1);
  assert.ok(message, `an e-mail reached the relay for ${to}`);
  const found = /\/register#invitation=([A-Za-z0-9_-]{40,})&email=/.exec(message.body);
  assert.ok(found, message.body);
  return { code: found[1], subject: message.subject, body: message.body };
}

async function approve(email: string) {
  const list = await call(t, 'GET', '/api/approver/registrations', { token: approver });
  const pending = list.body.registrations.find((r: { email: string }) => r.email === email);
  assert.ok(pending, `a pending registration for ${email}`);
  const r = await call(t, 'POST', `/api/approver/registrations/${pending.id}/approve`, { token: approver });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return pending;
}

Deno.test({
  name: 'setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    attorney = await signIn(t, ...DEMO.attorney);
    approver = await signIn(t, ...DEMO.approver);
    [{ id: attorneyId }] = await t.deps.sql<{ id: string }[]>`select id from users where email = ${
      DEMO.attorney[0]
    }`;
    mail = await startAppRelay(t);
  },
});

Deno.test({
  name:
    'an attorney invites a representative: the e-mail goes out, and its link registers a representative supervised by that attorney',
  ...DB_TEST,
  fn: async () => {
    const email = 'paula.paralegal@example.test';
    const r = await invite(attorney, ' Paula.Paralegal@example.test ');
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const { code, subject, body } = await deliveredCode(email);
    assert.equal(subject, 'You are invited to register as a representative');
    assert.match(body, /Atticus Counsel/);
    // Only the code's hash is stored, and the outbox keeps it sealed, never in its body.
    const [{ n }] = await t.deps.sql<{ n: number }[]>`
      select count(*)::int as n from representative_invitations where token_hash = ${code}`;
    assert.equal(n, 0);
    const [{ kept }] = await t.deps.sql<{ kept: number }[]>`
      select count(*)::int as kept from email_outbox where position(${code} in body) > 0`;
    assert.equal(kept, 0);
    const [audit] = await t.deps.sql<{ user_id: string; event_data: Record<string, unknown> }[]>`
      select user_id, event_data from audit_logs where event_type = 'representative_invited'
      order by created_at desc limit 1`;
    assert.equal(audit.user_id, attorneyId);
    assert.deepEqual(audit.event_data, { email, days: 7 });

    // The supervising fields are the invitation's, whatever the form sent.
    const registered = await call(t, 'POST', '/api/auth/register', {
      body: registrationBody({ email, firstName: 'Paula', lastName: 'Paralegal', invitation: code }),
    });
    assert.equal(registered.status, 201, JSON.stringify(registered.body));
    const pending = await approve(email);
    assert.equal(pending.is_representative, true);
    assert.equal(pending.supervisor_match?.id, attorneyId);
    const [user] = await t.deps.sql<
      { role: string; supervising_attorney_id: string; supervisor_accepted_at: Date | null }[]
    >`select role, supervising_attorney_id, supervisor_accepted_at from users where email = ${email}`;
    assert.equal(user.role, 'representative');
    assert.equal(user.supervising_attorney_id, attorneyId);
    assert.ok(user.supervisor_accepted_at, 'the invited link needs no separate acceptance');
    const list = await call(t, 'GET', '/api/attorney/representatives', { token: attorney });
    const row = list.body.representatives.find((p: { email: string }) => p.email === email);
    assert.equal(row?.link_status, 'accepted');

    // Single use: the same link registers nothing more.
    const again = await call(t, 'POST', '/api/auth/register', {
      body: registrationBody({ email, invitation: code }),
    });
    assert.equal(again.status, 400);
    assert.equal(again.body.code, 'invitation_invalid');
  },
});

Deno.test({
  name: 'an invitation works for its own address only, and not once expired',
  ...DB_TEST,
  fn: async () => {
    const email = 'only.me@example.test';
    assert.equal((await invite(attorney, email)).status, 201);
    const { code } = await deliveredCode(email);
    const other = await call(t, 'POST', '/api/auth/register', {
      body: registrationBody({ email: 'someone.else@example.test', invitation: code }),
    });
    assert.equal(other.status, 400);
    assert.equal(other.body.code, 'invitation_invalid');
    await t.deps.sql`update representative_invitations set expires_at = now() - interval '1 second'
                     where email = ${email}`;
    const late = await call(t, 'POST', '/api/auth/register', {
      body: registrationBody({ email, invitation: code }),
    });
    assert.equal(late.status, 400);
    assert.equal(late.body.code, 'invitation_invalid');
    const [{ n }] = await t.deps.sql<{ n: number }[]>`
      select count(*)::int as n from registrations where email in (${email}, 'someone.else@example.test')`;
    assert.equal(n, 0);
  },
});

Deno.test({
  name: 'invitations are limited per attorney a day, and only attorneys send them',
  ...DB_TEST,
  fn: async () => {
    const other = await makeUser(t);
    const token = await signIn(t, other.username, other.secret);
    for (let i = 0; i < INVITATIONS_PER_DAY; i++) {
      const r = await invite(token, `limit-${i}@example.test`);
      assert.equal(r.status, 201, JSON.stringify(r.body));
    }
    const over = await invite(token, 'one-too-many@example.test');
    assert.equal(over.status, 429);
    assert.equal(over.body.code, 'invitation_throttled');
    // Another attorney's budget is their own.
    assert.equal((await invite(attorney, 'still-fine@example.test')).status, 201);
    assert.equal((await invite(token, 'not an address')).status, 400);
    const representative = await signIn(t, ...DEMO.representative);
    assert.equal((await invite(representative, 'x@example.test')).status, 403);
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await mail?.close();
  },
});
