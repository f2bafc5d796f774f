import assert from 'node:assert/strict';
import { formatMessage, headerValue } from '../../api/email/smtp_client.ts';
import { deliverDueEmails, startEmailWorker } from '../../api/email/worker.ts';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { registrationBody } from '../support/factories.ts';
import { type Received, startSmtpServer } from '../support/smtp.ts';

let t: TestApp;
let approver: string;
let admin: string;
let smtp: ReturnType<typeof startSmtpServer>;

async function setSetting(key: string, value: unknown) {
  await t.deps.sql`update settings set value = jsonb_set(value, '{value}', ${
    t.deps.sql.json(value as never)
  }) where key = ${key}`;
}

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

/** The decoded body of a received message (after the blank line). */
const bodyOf = (m: Received) => m.data.split('\r\n\r\n').slice(1).join('\r\n\r\n');
const header = (m: Received, name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(m.data)?.[1];

Deno.test({
  name: 'setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    approver = await signIn(t, ...DEMO.approver);
    admin = await signIn(t, ...DEMO.admin);
    smtp = startSmtpServer();
    await setSetting('smtp_host', '127.0.0.1');
    await setSetting('smtp_port', smtp.port);
    await setSetting('smtp_from', 'portal@doc.example');
    await setSetting('smtp_enabled', true);
  },
});

Deno.test({
  name: 'registration received, approved and rejected e-mails arrive at the SMTP listener',
  ...DB_TEST,
  fn: async () => {
    const accepted = registrationBody({ firstName: 'Ada', lastName: 'Lovelace' });
    const refused = registrationBody({ firstName: 'Bob', lastName: 'Builder' });
    assert.equal((await call(t, 'POST', '/api/auth/register', { body: accepted })).status, 201);
    assert.equal((await call(t, 'POST', '/api/auth/register', { body: refused })).status, 201);
    const approve = await call(
      t,
      'POST',
      `/api/approver/registrations/${await pendingIdFor(accepted.email)}/approve`,
      { token: approver },
    );
    assert.equal(approve.status, 200);
    const reason = 'Bar number could not be verified.\n.A line starting with a dot, "quoted", survives.';
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

    const result = await deliverDueEmails(t.deps.sql);
    assert.deepEqual(result, { sent: 4, failed: 0 });
    const to = (email: string) => smtp.received.filter((m) => m.to[0] === email);
    const [received, approved] = to(accepted.email);
    assert.equal(header(received, 'Subject'), 'Your registration has been received');
    assert.equal(received.from, 'portal@doc.example');
    assert.match(bodyOf(received), /Dear Ada Lovelace,/);
    assert.equal(header(approved, 'Subject'), 'Your registration has been approved');
    assert.match(
      bodyOf(approved),
      /sign in with your e-mail address .* and the password you\r\nchose|password you chose/s,
    );
    assert.ok(
      !approved.data.includes(approve.body.data.temporaryPassword),
      'the temporary password is never e-mailed',
    );
    const [, rejected] = to(refused.email);
    assert.equal(header(rejected, 'Subject'), 'Your registration has been rejected');
    assert.ok(
      bodyOf(rejected).includes(reason.replace('\n', '\r\n')),
      'the reason arrives intact (dot-stuffing undone)',
    );
    for (const m of smtp.received) assert.match(m.data, /^Content-Type: text\/plain; charset=utf-8$/m);
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
    const body = registrationBody();
    assert.equal((await call(t, 'POST', '/api/auth/register', { body })).status, 201);
    assert.equal((await call(t, 'POST', '/api/auth/register', { body })).status, 409);
    assert.deepEqual((await outboxFor(body.email)).map((r) => r.kind), ['registration_received']);
    await deliverDueEmails(t.deps.sql);
  },
});

Deno.test({
  name: 'without SMTP settings messages wait in the outbox, visible to admins',
  ...DB_TEST,
  fn: async () => {
    await setSetting('smtp_enabled', false);
    const body = registrationBody();
    await call(t, 'POST', '/api/auth/register', { body });
    assert.deepEqual(await deliverDueEmails(t.deps.sql), { sent: 0, failed: 0 });
    await setSetting('smtp_enabled', true);
    await setSetting('smtp_host', '');
    assert.deepEqual(await deliverDueEmails(t.deps.sql), { sent: 0, failed: 0 });
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
    assert.deepEqual(await deliverDueEmails(t.deps.sql), { sent: 1, failed: 0 });
  },
});

Deno.test({
  name: 'with the listener down messages wait with back-off, then are delivered once it is back',
  ...DB_TEST,
  fn: async () => {
    const port = smtp.port;
    smtp.close();
    const body = registrationBody();
    await call(t, 'POST', '/api/auth/register', { body });
    const options = { backoffBaseSeconds: 0.3 };
    assert.deepEqual(await deliverDueEmails(t.deps.sql, options), { sent: 0, failed: 1 });
    let [row] = await outboxFor(body.email);
    assert.equal(row.status, 'pending');
    assert.equal(row.attempts, 1);
    assert.match(row.last_error ?? '', /cannot connect to 127\.0\.0\.1/);
    assert.deepEqual(
      await deliverDueEmails(t.deps.sql, options),
      { sent: 0, failed: 0 },
      'not due before its back-off',
    );
    await new Promise((r) => setTimeout(r, 400));
    assert.deepEqual(await deliverDueEmails(t.deps.sql, options), { sent: 0, failed: 1 });
    [row] = await outboxFor(body.email);
    assert.equal(row.attempts, 2);
    assert.ok(row.next_attempt_at.getTime() > Date.now() + 200, 'the second delay is doubled');

    smtp = startSmtpServer(port);
    await new Promise((r) => setTimeout(r, 700));
    assert.deepEqual(await deliverDueEmails(t.deps.sql, options), { sent: 1, failed: 0 });
    [row] = await outboxFor(body.email);
    assert.equal(row.status, 'sent');
    assert.equal(row.attempts, 3);
    assert.equal(row.last_error, null);
    assert.ok(smtp.received.some((m) => m.to[0] === body.email));
  },
});

Deno.test({
  name: 'after the last attempt a message is marked failed with its error',
  ...DB_TEST,
  fn: async () => {
    await setSetting('smtp_port', 1);
    const body = registrationBody();
    await call(t, 'POST', '/api/auth/register', { body });
    await deliverDueEmails(t.deps.sql, { backoffBaseSeconds: 0, maxAttempts: 2 });
    await deliverDueEmails(t.deps.sql, { backoffBaseSeconds: 0, maxAttempts: 2 });
    const [row] = await outboxFor(body.email);
    assert.equal(row.status, 'failed');
    assert.equal(row.attempts, 2);
    assert.ok(row.last_error);
    await setSetting('smtp_port', smtp.port);
  },
});

Deno.test({
  name: 'the polling worker delivers new messages on its own',
  ...DB_TEST,
  fn: async () => {
    const worker = startEmailWorker(t.deps.sql, { intervalMs: 50, log: false });
    try {
      const body = registrationBody();
      await call(t, 'POST', '/api/auth/register', { body });
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline && !smtp.received.some((m) => m.to[0] === body.email)) {
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.ok(smtp.received.some((m) => m.to[0] === body.email));
    } finally {
      await worker.stop();
    }
  },
});

Deno.test('the SMTP payload uses CRLF, doubles leading dots and keeps headers on one line', () => {
  const payload = formatMessage('portal@doc.example', {
    to: 'a@example.test',
    subject: 'Hello\r\nBcc: victim@example.test',
    body: 'line one\n.hidden\n..two dots\nend',
  });
  assert.match(payload, /^Subject: Hello Bcc: victim@example.test\r$/m, 'no header injection');
  assert.ok(payload.includes('\r\n\r\nline one\r\n..hidden\r\n...two dots\r\nend\r\n.\r\n'));
  assert.ok(!/[^\r]\n/.test(payload), 'every line ends with CRLF');
  assert.equal(headerValue('Grüße'), '=?UTF-8?B?R3LDvMOfZQ==?=');
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    smtp.close();
    await t.close();
  },
});
