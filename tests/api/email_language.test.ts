/**
 * The e-mails are written in their reader's language: a registration's in the language its form was shown in, an
 * account's in the user's saved preference, else their entity's default. English stays the spec's wording.
 */
import assert from 'node:assert/strict';
import { makePdf } from '../support/pdfs.ts';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { upload } from '../support/documents.ts';
import { makeUser, registrationBody } from '../support/factories.ts';

let t: TestApp;
let approver: string;
let offender: string;

async function outbox(to: string) {
  return await t.deps.sql<{ kind: string; subject: string; body: string }[]>`
    select kind, subject, body from email_outbox where to_address = ${to} order by id`;
}

async function pendingIdFor(email: string): Promise<string> {
  const list = await call(t, 'GET', '/api/approver/registrations', { token: approver });
  return list.body.registrations.find((r: { email: string }) => r.email === email).id;
}

Deno.test({
  name: 'setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    approver = await signIn(t, ...DEMO.approver);
    offender = await signIn(t, ...DEMO.offender);
    await t.deps.sql`update settings set value = jsonb_set(value, '{value}', '1000')
      where key = 'registration_limit_per_hour'`;
  },
});

Deno.test({
  name:
    'a registration sent from the Spanish form gets its e-mails in Spanish; the account keeps the language',
  ...DB_TEST,
  fn: async () => {
    const spanish = registrationBody({ language: 'es' });
    const english = registrationBody();
    assert.equal((await call(t, 'POST', '/api/auth/register', { body: spanish })).status, 201);
    assert.equal((await call(t, 'POST', '/api/auth/register', { body: english })).status, 201);
    const [received] = await outbox(spanish.email);
    assert.equal(received.subject, 'Recibimos su registro');
    assert.match(
      received.body,
      /^Buenos días:\n\nRecibimos su registro en el portal seguro de correo legal\./,
    );
    assert.match(received.body, /Nadie lee las respuestas\.\n$/);
    assert.equal((await outbox(english.email))[0].subject, 'Your registration has been received');

    const approved = await call(
      t,
      'POST',
      `/api/approver/registrations/${await pendingIdFor(spanish.email)}/approve`,
      {
        token: approver,
      },
    );
    assert.equal(approved.status, 200, JSON.stringify(approved.body));
    const [, welcome] = await outbox(spanish.email);
    assert.equal(welcome.subject, 'Su registro fue aprobado');
    assert.ok(welcome.body.includes(`(${spanish.email})`));
    const [account] = await t.deps.sql<{ language: string | null }[]>`
      select language from users where email = ${spanish.email}`;
    assert.equal(account.language, 'es', 'the account starts in the language it registered in');

    const again = registrationBody({ email: spanish.email, language: 'es' });
    assert.equal((await call(t, 'POST', '/api/auth/register', { body: again })).status, 201);
    const duplicate = (await outbox(spanish.email)).at(-1)!;
    assert.equal(duplicate.subject, 'Intento de registro con su correo electrónico');
    assert.match(duplicate.body, /ya tiene una cuenta en el portal/);

    const refused = registrationBody({ language: 'es' });
    await call(t, 'POST', '/api/auth/register', { body: refused });
    const reason = 'No pudimos verificar su número de licencia de abogado.';
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
    const [, rejected] = await outbox(refused.email);
    assert.equal(rejected.subject, 'Su registro fue rechazado');
    assert.ok(rejected.body.includes(`por este motivo:\n\n${reason}\n\n`));
  },
});

Deno.test({
  name: 'a language the portal does not speak is refused with a sentence, not stored',
  ...DB_TEST,
  fn: async () => {
    const body = registrationBody({ language: 'fr' });
    const r = await call(t, 'POST', '/api/auth/register', { body });
    assert.equal(r.status, 400);
    assert.equal(r.body.success, false);
    assert.match(r.body.message, /language must be 'en' or 'es'/);
    assert.equal((await outbox(body.email)).length, 0);
  },
});

Deno.test({
  name: "an account's e-mails follow its saved language, else its entity's default",
  ...DB_TEST,
  fn: async () => {
    const saved = await makeUser(t, { role: 'attorney' });
    await t.deps.sql`update users set language = 'es' where id = ${saved.id}`;
    const unset = await makeUser(t, { role: 'attorney' });
    for (const who of [saved, unset]) {
      await call(t, 'POST', '/api/auth/forgot-password', { body: { email: who.username }, ip: '10.81.0.1' });
    }
    assert.equal((await outbox(saved.username))[0].subject, 'Elija una contraseña nueva');
    assert.match((await outbox(saved.username))[0].body, /El enlace funciona una sola vez\./);
    assert.equal((await outbox(unset.username))[0].subject, 'Set a new password');

    // The entity speaks Spanish: an account with no preference of its own reads Spanish too.
    await t.deps.sql`update entities set default_language = 'es' where slug = 'default'`;
    try {
      await call(t, 'POST', '/api/auth/forgot-password', {
        body: { email: unset.username },
        ip: '10.81.0.2',
      });
      assert.equal((await outbox(unset.username)).at(-1)!.subject, 'Elija una contraseña nueva');
    } finally {
      await t.deps.sql`update entities set default_language = 'en' where slug = 'default'`;
    }
  },
});

Deno.test({
  name: 'the "opened" e-mail in Spanish dates the reading with a month name, never an all-numeric date',
  ...DB_TEST,
  fn: async () => {
    const sender = await makeUser(t, { role: 'attorney' });
    await t.deps.sql`update users set language = 'es' where id = ${sender.id}`;
    const token = await signIn(t, sender.username, sender.secret);
    await call(t, 'PUT', '/api/preferences', { token, body: { notifyOnOpen: true } });
    const sent = await upload(t, token, {
      file: await makePdf(),
      recipient: '100001',
      title: 'Oferta de acuerdo',
    });
    assert.equal(sent.status, 201, JSON.stringify(sent.body));
    await call(t, 'GET', `/api/documents/view/${sent.body.document.documentid}`, { token: offender });
    await call(t, 'POST', `/api/documents/shown/${sent.body.document.documentid}`, { token: offender });
    const [mail] = await outbox(sender.username);
    assert.equal(mail.subject, 'Su documento fue abierto');
    const [{ viewed_at }] = await t.deps.sql<{ viewed_at: Date }[]>`
      select viewed_at from documents where id = ${sent.body.document.documentid}`;
    const day = new Intl.DateTimeFormat('es-US', {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    })
      .format(viewed_at).replace(/\./g, '');
    assert.match(day, /^\d{1,2} [a-z]{3,4} \d{4}$/);
    assert.ok(
      mail.body.includes(`Su documento «Oferta de acuerdo» para el DOC 100001 fue abierto el ${day}.`),
      mail.body,
    );
  },
});

Deno.test({ name: 'teardown', ...DB_TEST, fn: () => t.close() });
