/**
 * Text a stranger types never reaches someone else's mailbox: the e-mails to an address nobody has confirmed carry
 * none of it, and a name with a line break, a tab or an invisible control character is refused wherever names are
 * taken (registration, the offender form, the roster import, entities).
 */
import assert from 'node:assert/strict';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { registrationBody } from '../support/factories.ts';

let t: TestApp;
let admin: string;
let approver: string;

const NAME_TEXT = 'Names cannot contain line breaks, tabs or other invisible control characters.';
/** What a phisher would type as a name: a whole message, line breaks and a link included. */
const PHISH = 'URGENT: your DOC account is suspended. Verify within 24h at https://doc-verify.example';

Deno.test({
  name: 'setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    admin = await signIn(t, ...DEMO.admin);
    approver = await signIn(t, ...DEMO.approver);
    await t.deps.sql`update settings set value = jsonb_set(value, '{value}', '1000'::jsonb)
                     where key = 'registration_limit_per_hour'`;
  },
});

async function bodies(email: string): Promise<{ kind: string; subject: string; body: string }[]> {
  return await t.deps.sql<{ kind: string; subject: string; body: string }[]>`
    select kind, subject, body from email_outbox where to_address = ${email.toLowerCase()} order by id`;
}

Deno.test({
  name: 'the e-mails to a registrant carry none of the names typed in the form (a name cannot phish)',
  ...DB_TEST,
  fn: async () => {
    const accepted = registrationBody({
      firstName: 'URGENT: your DOC account',
      lastName: 'Verify at evil.example',
    });
    const refused = registrationBody({ firstName: PHISH.slice(0, 60), lastName: 'Reply now' });
    for (const body of [accepted, refused]) {
      assert.equal((await call(t, 'POST', '/api/auth/register', { body })).status, 201);
    }
    const list = await call(t, 'GET', '/api/approver/registrations', { token: approver });
    const idOf = (email: string) =>
      list.body.registrations.find((r: { email: string }) => r.email === email).id;
    const approve = `/api/approver/registrations/${idOf(accepted.email)}/approve`;
    assert.equal((await call(t, 'POST', approve, { token: approver })).status, 200);
    const reject = `/api/approver/registrations/${idOf(refused.email)}/reject`;
    assert.equal(
      (await call(t, 'POST', reject, { token: approver, body: { reason: 'Bar number unknown.' } })).status,
      200,
    );

    const mails = [...await bodies(accepted.email), ...await bodies(refused.email)];
    assert.deepEqual(mails.map((m) => m.kind).sort(), [
      'registration_approved',
      'registration_received',
      'registration_received',
      'registration_rejected',
    ]);
    for (const m of mails) {
      for (const typed of [accepted.firstName, accepted.lastName, refused.firstName, refused.lastName]) {
        assert.ok(!m.body.includes(typed) && !m.subject.includes(typed), `${m.kind} carries "${typed}"`);
      }
      assert.match(m.body, /^Hello,\n/, `${m.kind} greets without a name`);
    }
    // The approver's own reason is the message of a rejection: staff wrote it, not the stranger.
    assert.ok(mails.find((m) => m.kind === 'registration_rejected')!.body.includes('Bar number unknown.'));
  },
});

Deno.test({
  name:
    'a registration whose names hold a line break, a tab or an invisible control character is refused (400)',
  ...DB_TEST,
  fn: async () => {
    const cases: Record<string, unknown>[] = [
      { firstName: `Grace\n${PHISH}` },
      { lastName: 'Hop\tper' },
      { lastName: 'Hopper\r\nBcc: someone@example.test' },
      { firstName: 'Gr\u0007ace' }, // a bell
      { firstName: 'Grace\u2028Hopper' }, // a line separator
      { lastName: '\u202Erepoh' }, // a right-to-left override: the name reads backwards on screen
      { firstName: 'Gr\u200Bace' }, // a zero-width space
      {
        userType: 'representative',
        isRepresentative: true,
        supervisingAttorneyName: 'Ada\nLovelace',
        supervisingAttorneyBar: 'BAR99999',
        supervisingAttorneyEmail: 'ada@example.test',
      },
    ];
    for (const override of cases) {
      const body = registrationBody(override);
      const r = await call(t, 'POST', '/api/auth/register', { body });
      assert.equal(r.status, 400, JSON.stringify(override));
      assert.deepEqual(r.body, { success: false, message: NAME_TEXT, code: 'invalid_input' });
      assert.equal((await bodies(body.email)).length, 0, 'nothing is mailed');
    }
    // Names of every script stay welcome, the joiners some of them need included.
    for (const firstName of ['José', 'Zoë', 'Nguyễn', 'محمد', 'Ali\u200Creza', "O'Brien-Smith"]) {
      const r = await call(t, 'POST', '/api/auth/register', { body: registrationBody({ firstName }) });
      assert.equal(r.status, 201, `${firstName}: ${JSON.stringify(r.body)}`);
    }
  },
});

Deno.test({
  name: 'an offender added by an admin or imported from a roster cannot have a control character in a name',
  ...DB_TEST,
  fn: async () => {
    const added = await call(t, 'POST', '/api/admin/offenders', {
      token: admin,
      body: { docNumber: '710001', firstName: 'Ann\nURGENT', lastName: 'Lee', pin: '123456' },
    });
    assert.equal(added.status, 400);
    assert.equal(added.body.message, NAME_TEXT);
    const csv = [
      'doc_number,first_name,last_name,pin',
      '710002,Ann,"Lee\tTab",123456',
      '710003,Bo,Lee,123456',
    ]
      .join('\r\n');
    const imported = await call(t, 'POST', '/api/admin/offenders/import', {
      token: admin,
      rawBody: csv,
      headers: { 'content-type': 'text/csv' },
    });
    assert.equal(imported.status, 200, JSON.stringify(imported.body));
    assert.deepEqual(imported.body.data.rows, [
      { line: 2, docNumber: '710002', outcome: 'rejected', reason: NAME_TEXT, code: 'nameCharacters' },
      { line: 3, docNumber: '710003', outcome: 'added' },
    ]);
    const [{ n }] = await t.deps.sql<{ n: number }[]>`
      select count(*)::int as n from users where doc_number in ('710001', '710002')`;
    assert.equal(n, 0);
  },
});

Deno.test({
  name: 'an entity name with a line break is refused (400)',
  ...DB_TEST,
  fn: async () => {
    const r = await call(t, 'POST', '/api/admin/entities', {
      token: admin,
      body: { name: 'North\nFacility', status: 'active' },
    });
    assert.equal(r.status, 400);
    assert.equal(r.body.message, NAME_TEXT);
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
  },
});
