import assert from 'node:assert/strict';
import type { SmtpConfig } from '../../api/config.ts';
import { claim_due_emails, renew_email_claim } from '../../api/db/email_outbox.ts';
import { tlsMode } from '../../api/email/smtp_client.ts';
import { deliverDueEmails, type DeliveryOptions, startEmailWorker } from '../../api/email/worker.ts';
import {
  call,
  createTestApp,
  DB_TEST,
  DEMO,
  setSetting as setSettingOf,
  signIn,
  type TestApp,
} from '../support/app.ts';
import { registrationBody } from '../support/factories.ts';
import {
  type Certificate,
  RELAY_LOGIN,
  type SmtpRelay,
  startAppRelay,
  startSmtpRelay,
} from '../support/smtp.ts';

// The relay is Debian's aiosmtpd with STARTTLS required before AUTH, on a certificate made for this file.
const { user: USER, password: PASSWORD } = RELAY_LOGIN;

let t: TestApp;
let approver: string;
let admin: string;
let certificate: Certificate;
let relay: SmtpRelay;
let transport: SmtpConfig;
let options: DeliveryOptions;

const setSetting = (key: string, value: unknown) => setSettingOf(t, key, value);

async function outboxFor(email: string) {
  return await t.deps.sql<
    { kind: string; status: string; attempts: number; last_error: string | null; next_attempt_at: Date }[]
  >`
    select kind, status, attempts, last_error, next_attempt_at from email_outbox where to_address = ${email} order by id`;
}

async function pendingIdFor(email: string): Promise<string> {
  const list = await call(t, 'GET', '/api/approver/registrations', { token: approver });
  return list.body.registrations.find((r: { email: string }) => r.email === email).id;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test({
  name: 'setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    approver = await signIn(t, ...DEMO.approver);
    admin = await signIn(t, ...DEMO.admin);
    const mail = await startAppRelay(t);
    ({ relay, certificate } = mail);
    transport = mail.options.transport;
    options = { transport, smtpTimeoutMs: 5000 };
  },
});

Deno.test({
  name:
    'received, approved and rejected e-mails reach the relay over STARTTLS with AUTH; a 2,000-character reason arrives intact',
  ...DB_TEST,
  fn: async () => {
    const accepted = registrationBody({ firstName: 'Ada', lastName: 'Lovelace' });
    const refused = registrationBody({ firstName: 'Zoë', lastName: 'Builder' });
    assert.equal((await call(t, 'POST', '/api/auth/register', { body: accepted })).status, 201);
    assert.equal((await call(t, 'POST', '/api/auth/register', { body: refused })).status, 201);
    const approve = await call(
      t,
      'POST',
      `/api/approver/registrations/${await pendingIdFor(accepted.email)}/approve`,
      { token: approver },
    );
    assert.equal(approve.status, 200);
    // 2,000 characters (the most a reason may have): one unbroken line, then a line starting with a dot, UTF-8.
    const tail = '\n.A line starting with a dot, "quoted", Grüße — survives.';
    const long = Array.from(
      { length: 2000 - tail.length },
      (_, i) => 'Bar number could not be verified. '[i % 34],
    );
    const reason = `${long.join('')}${tail}`;
    assert.equal(reason.length, 2000);
    const reject = await call(
      t,
      'POST',
      `/api/approver/registrations/${await pendingIdFor(refused.email)}/reject`,
      {
        token: approver,
        body: { reason },
      },
    );
    assert.equal(reject.status, 200);

    assert.deepEqual(await deliverDueEmails(t.deps.sql, options), { sent: 4, failed: 0 });
    const to = (email: string) => relay.received.filter((m) => m.to[0] === email);
    const [received, approved] = to(accepted.email);
    assert.equal(received.subject, 'Your registration has been received');
    assert.equal(received.from, 'portal@doc.example');
    assert.match(received.body, /^Hello,\n/);
    assert.equal(approved.subject, 'Your registration has been approved');
    assert.ok(
      !approved.raw.includes(approve.body.data.temporaryPassword),
      'the temporary password is never e-mailed',
    );
    const [, rejected] = to(refused.email);
    assert.equal(rejected.subject, 'Your registration has been rejected');
    assert.match(rejected.body, /^Hello,\n/);
    assert.ok(rejected.body.includes(reason), 'the reason arrives intact, unfolded by the reader');
    for (const m of relay.received) {
      assert.ok(m.tls && m.authenticated, 'sent over TLS after AUTH');
      const longest = Math.max(...m.raw.split(/\r?\n/).map((l) => l.length));
      assert.ok(longest <= 78, `lines are folded (longest ${longest})`);
    }
    for (const row of [...await outboxFor(accepted.email), ...await outboxFor(refused.email)]) {
      assert.equal(row.status, 'sent');
      assert.equal(row.attempts, 1);
    }
  },
});

Deno.test({
  name: 'the e-mail is written in the same transaction: a refused registration queues nothing',
  ...DB_TEST,
  fn: async () => {
    const weak = registrationBody({ password: 'Password1', confirmPassword: 'Password1' });
    assert.equal((await call(t, 'POST', '/api/auth/register', { body: weak })).status, 400);
    assert.equal((await outboxFor(weak.email)).length, 0);
    // A second registration for the address stores nothing; its owner is told instead.
    const body = registrationBody();
    assert.equal((await call(t, 'POST', '/api/auth/register', { body })).status, 201);
    assert.equal((await call(t, 'POST', '/api/auth/register', { body })).status, 201);
    assert.deepEqual((await outboxFor(body.email)).map((r) => r.kind), [
      'registration_received',
      'registration_duplicate',
    ]);
    await deliverDueEmails(t.deps.sql, options);
  },
});

Deno.test({
  name: 'without SMTP settings messages wait in the outbox, visible to admins',
  ...DB_TEST,
  fn: async () => {
    await setSetting('smtp_enabled', false);
    const body = registrationBody();
    await call(t, 'POST', '/api/auth/register', { body });
    assert.deepEqual(await deliverDueEmails(t.deps.sql, options), { sent: 0, failed: 0 });
    await setSetting('smtp_enabled', true);
    await setSetting('smtp_host', '');
    assert.deepEqual(await deliverDueEmails(t.deps.sql, options), { sent: 0, failed: 0 });
    const [row] = await outboxFor(body.email);
    assert.equal(row.status, 'pending');
    assert.equal(row.attempts, 0);
    const list = await call(t, 'GET', '/api/admin/email-outbox?status=pending', { token: admin });
    assert.equal(list.status, 200);
    const listed = list.body.data.emails.find((e: { to_address: string }) => e.to_address === body.email);
    assert.equal(listed.status, 'pending');
    assert.equal(listed.subject, 'Your registration has been received');
    assert.ok(!('body' in listed), 'bodies stay out of the list');
    assert.equal(
      (await call(t, 'GET', '/api/admin/email-outbox?status=bogus', { token: admin })).status,
      400,
    );
    await setSetting('smtp_host', '127.0.0.1');
    assert.deepEqual(await deliverDueEmails(t.deps.sql, options), { sent: 1, failed: 0 });
  },
});

Deno.test({
  name:
    'a wrong relay password: the message waits with the reason in the outbox screen, and goes once it is fixed',
  ...DB_TEST,
  fn: async () => {
    const body = registrationBody();
    await call(t, 'POST', '/api/auth/register', { body });
    const wrong = {
      ...options,
      backoffBaseSeconds: 0.3,
      transport: { ...transport, password: 'not-the-password' },
    };
    assert.deepEqual(await deliverDueEmails(t.deps.sql, wrong), { sent: 0, failed: 1 });
    await sleep(400);
    assert.deepEqual(
      await deliverDueEmails(t.deps.sql, wrong),
      { sent: 0, failed: 1 },
      'retried, not given up',
    );
    const [row] = await outboxFor(body.email);
    assert.equal(row.status, 'pending');
    assert.equal(row.attempts, 2);
    assert.match(row.last_error ?? '', /refused the login \(SMTP_USER\/SMTP_PASSWORD\).*535/);
    const list = await call(t, 'GET', '/api/admin/email-outbox?status=pending', { token: admin });
    const listed = list.body.data.emails.find((e: { to_address: string }) => e.to_address === body.email);
    assert.match(listed.last_error, /refused the login/);
    assert.ok(!listed.last_error.includes('not-the-password'), 'the password is not in the reason');
    await sleep(700);
    assert.deepEqual(await deliverDueEmails(t.deps.sql, { ...options, backoffBaseSeconds: 0.3 }), {
      sent: 1,
      failed: 0,
    });
    assert.equal((await outboxFor(body.email))[0].status, 'sent');
  },
});

Deno.test({
  name: 'no relay login configured while the relay requires one: the message waits (530 is not final)',
  ...DB_TEST,
  fn: async () => {
    const body = registrationBody();
    await call(t, 'POST', '/api/auth/register', { body });
    const anonymous = {
      ...options,
      backoffBaseSeconds: 0,
      transport: { ...transport, user: undefined, password: undefined },
    };
    assert.deepEqual(await deliverDueEmails(t.deps.sql, anonymous), { sent: 0, failed: 1 });
    const [row] = await outboxFor(body.email);
    assert.equal(row.status, 'pending');
    assert.match(row.last_error ?? '', /530/);
    assert.deepEqual(await deliverDueEmails(t.deps.sql, options), { sent: 1, failed: 0 });
  },
});

Deno.test({
  name: 'a relay certificate nobody vouches for: the message waits with a TLS reason',
  ...DB_TEST,
  fn: async () => {
    const body = registrationBody();
    await call(t, 'POST', '/api/auth/register', { body });
    const untrusted = { ...options, backoffBaseSeconds: 0, transport: { ...transport, caFile: undefined } };
    assert.deepEqual(await deliverDueEmails(t.deps.sql, untrusted), { sent: 0, failed: 1 });
    const [row] = await outboxFor(body.email);
    assert.equal(row.status, 'pending');
    assert.match(row.last_error ?? '', /certificate/i);
    assert.ok(!relay.received.some((m) => m.to[0] === body.email));
    assert.deepEqual(await deliverDueEmails(t.deps.sql, options), { sent: 1, failed: 0 });
  },
});

Deno.test({
  name: 'with the relay down messages wait with back-off, then are delivered once it is back',
  ...DB_TEST,
  fn: async () => {
    const port = relay.port;
    await relay.close();
    const body = registrationBody();
    await call(t, 'POST', '/api/auth/register', { body });
    const backoff = { ...options, backoffBaseSeconds: 0.3 };
    assert.deepEqual(await deliverDueEmails(t.deps.sql, backoff), { sent: 0, failed: 1 });
    let [row] = await outboxFor(body.email);
    assert.equal(row.status, 'pending');
    assert.equal(row.attempts, 1);
    assert.match(row.last_error ?? '', /cannot connect to 127\.0\.0\.1/);
    assert.deepEqual(
      await deliverDueEmails(t.deps.sql, backoff),
      { sent: 0, failed: 0 },
      'not due before its back-off',
    );
    await sleep(400);
    assert.deepEqual(await deliverDueEmails(t.deps.sql, backoff), { sent: 0, failed: 1 });
    [row] = await outboxFor(body.email);
    assert.equal(row.attempts, 2);
    assert.ok(row.next_attempt_at.getTime() > Date.now() + 200, 'the second delay is doubled');

    relay = await startSmtpRelay({ certificate, user: USER, password: PASSWORD, port });
    await sleep(700);
    assert.deepEqual(await deliverDueEmails(t.deps.sql, backoff), { sent: 1, failed: 0 });
    [row] = await outboxFor(body.email);
    assert.equal(row.status, 'sent');
    assert.equal(row.attempts, 3);
    assert.equal(row.last_error, null);
    assert.ok(relay.received.some((m) => m.to[0] === body.email));
  },
});

Deno.test({
  name: 'implicit TLS (the port-465 way) with AUTH delivers too',
  ...DB_TEST,
  fn: async () => {
    const implicit = await startSmtpRelay({ certificate, user: USER, password: PASSWORD, mode: 'implicit' });
    try {
      await setSetting('smtp_port', implicit.port);
      const body = registrationBody();
      await call(t, 'POST', '/api/auth/register', { body });
      const result = await deliverDueEmails(t.deps.sql, {
        ...options,
        transport: { ...transport, tls: 'implicit' },
      });
      assert.deepEqual(result, { sent: 1, failed: 0 }, (await outboxFor(body.email))[0].last_error ?? '');
      const [m] = implicit.received;
      assert.ok(m.tls && m.authenticated);
    } finally {
      await setSetting('smtp_port', relay.port);
      await implicit.close();
    }
  },
});

Deno.test('the TLS mode: STARTTLS by default, implicit on 465, an explicit SMTP_TLS wins', () => {
  assert.equal(tlsMode(587, undefined), 'starttls');
  assert.equal(tlsMode(25, undefined), 'starttls');
  assert.equal(tlsMode(465, undefined), 'implicit');
  assert.equal(tlsMode(465, 'starttls'), 'starttls');
  assert.equal(tlsMode(25, 'none'), 'none');
});

Deno.test({
  name: 'after the last attempt a message is marked failed with its error',
  ...DB_TEST,
  fn: async () => {
    await setSetting('smtp_port', 1);
    const body = registrationBody();
    await call(t, 'POST', '/api/auth/register', { body });
    await deliverDueEmails(t.deps.sql, { ...options, backoffBaseSeconds: 0, maxAttempts: 2 });
    await deliverDueEmails(t.deps.sql, { ...options, backoffBaseSeconds: 0, maxAttempts: 2 });
    const [row] = await outboxFor(body.email);
    assert.equal(row.status, 'failed');
    assert.equal(row.attempts, 2);
    assert.ok(row.last_error);
    await setSetting('smtp_port', relay.port);
  },
});

Deno.test({
  name: 'a subject with a line break cannot add a header',
  ...DB_TEST,
  fn: async () => {
    await t.deps.sql`insert into email_outbox (kind, to_address, subject, body)
    values ('test', 'inject@example.test', ${'Hello\r\nBcc: victim@example.test'}, 'body')`;
    assert.deepEqual(await deliverDueEmails(t.deps.sql, options), { sent: 1, failed: 0 });
    const m = relay.received.find((r) => r.to[0] === 'inject@example.test')!;
    assert.deepEqual(m.to, ['inject@example.test']);
    assert.ok(!/^Bcc:/mi.test(m.raw), 'no Bcc header');
  },
});

Deno.test({
  name: 'an address that is a list (a comma, a semicolon, a display name) reaches nobody',
  ...DB_TEST,
  fn: async () => {
    // 'x,owner@…' must not reach the owner: the relay must see no recipient at all.
    const lists = ['x,list-owner@example.test', 'x;list-owner@example.test', 'X <list-owner@example.test>'];
    for (const to of lists) {
      await t.deps
        .sql`insert into email_outbox (kind, to_address, subject, body) values ('test', ${to}, 'Hi', 'body')`;
    }
    const before = relay.received.length;
    const result = await deliverDueEmails(t.deps.sql, options);
    assert.equal(result.sent, 0);
    assert.equal(relay.received.length, before, 'nothing reached the relay');
    const rows = await t.deps.sql<{ status: string }[]>`
      select status from email_outbox where to_address in ${t.deps.sql(lists)}`;
    assert.deepEqual(rows.map((r) => r.status), ['failed', 'failed', 'failed']);
  },
});

Deno.test({
  name: 'a claim whose lease ran out and was taken over by another instance is not sent by its first holder',
  ...DB_TEST,
  fn: async () => {
    // A round of 20 can outlast its lease on a slow relay, and another instance claim the rest: each message's
    // claim is renewed just before it is sent, on the attempt it was made for, so none is sent twice.
    await t.deps.sql`update email_outbox set status = 'sent' where status = 'pending'`;
    await t.deps.sql`insert into email_outbox (kind, to_address, subject, body)
      values ('test', 'lease@example.test', 'Once', 'body')`;
    const [first] = await claim_due_emails(t.deps.sql, { limit: 1, leaseSeconds: 0 });
    const [second] = await claim_due_emails(t.deps.sql, { limit: 1, leaseSeconds: 300 });
    assert.equal(second.id, first.id, 'the lapsed claim is taken over');
    assert.equal(await renew_email_claim(t.deps.sql, first, 300), false, 'the first holder no longer has it');
    assert.equal(await renew_email_claim(t.deps.sql, second, 300), true);
  },
});

Deno.test({
  name: 'the polling worker delivers new messages on its own',
  ...DB_TEST,
  fn: async () => {
    const worker = startEmailWorker(t.deps.sql, { ...options, intervalMs: 50, log: false });
    try {
      const body = registrationBody();
      await call(t, 'POST', '/api/auth/register', { body });
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline && !relay.received.some((m) => m.to[0] === body.email)) await sleep(50);
      assert.ok(relay.received.some((m) => m.to[0] === body.email));
    } finally {
      await worker.stop();
    }
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await relay.close();
    await Deno.remove(certificate.dir, { recursive: true });
    await t.close();
  },
});
