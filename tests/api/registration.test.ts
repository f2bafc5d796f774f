import assert from 'node:assert/strict';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { registrationBody } from '../support/factories.ts';
import { SETTINGS } from '../../contract/settings.ts';

let t: TestApp;
let approver: string;

Deno.test({
  name: 'setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    approver = await signIn(t, ...DEMO.approver);
    // Every other test here registers from 127.0.0.1; the throttle's own test sets the limit it checks.
    await setRegistrationLimit(1000);
  },
});

async function setRegistrationLimit(limit: number) {
  await t.deps.sql`update settings set value = jsonb_set(value, '{value}', ${limit}::text::jsonb)
                   where key = 'registration_limit_per_hour'`;
}

async function outboxKinds(email: string): Promise<string[]> {
  const rows = await t.deps.sql<{ kind: string }[]>`
    select kind from email_outbox where to_address = ${email.toLowerCase()} order by id`;
  return rows.map((r) => r.kind);
}

const register = (overrides: Record<string, unknown> = {}) =>
  call(t, 'POST', '/api/auth/register', { body: registrationBody(overrides) });

async function pendingIdFor(email: string): Promise<string> {
  const list = await call(t, 'GET', '/api/approver/registrations', { token: approver });
  const found = list.body.registrations.find((r: { email: string }) => r.email === email);
  assert.ok(found, `no pending registration for ${email}`);
  return found.id;
}

Deno.test({
  name: 'registration enforces every rule of spec section 5 on the server with its message',
  ...DB_TEST,
  fn: async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ firstName: '' }, 'Please fill in all required fields!'],
      [{ city: '   ' }, 'Please fill in all required fields!'],
      [{ email: 'not-an-email' }, 'Please enter a valid email address'],
      [{ password: 'short1!', confirmPassword: 'short1!' }, 'Password must be at least 8 characters long'],
      [{ confirmPassword: 'Different-123' }, 'Passwords do not match'],
      [{ phone: '12345' }, 'Please enter a valid phone number'],
      [{ barNumber: 'A1!' }, 'Bar number must be at least 4 alphanumeric characters'],
      [{ barState: 'MOO' }, 'Bar State must be 2 characters!'],
      [{ state: 'M' }, 'State must be 2 characters!'],
      [{ zipCode: '1234' }, 'ZIP Code must be in format 12345 or 12345-6789!'],
      [
        { isRepresentative: true, userType: 'representative', supervisingAttorneyName: 'A B' },
        'Please fill in all supervising attorney fields!',
      ],
      [{
        isRepresentative: true,
        userType: 'representative',
        supervisingAttorneyName: 'A B',
        supervisingAttorneyBar: 'MO1234',
        supervisingAttorneyEmail: 'nope',
      }, 'Please enter a valid email address'],
    ];
    for (const [overrides, message] of cases) {
      const r = await register(overrides);
      assert.equal(r.status, 400, JSON.stringify(overrides));
      assert.deepEqual([r.body.success, r.body.message], [false, message], JSON.stringify(overrides));
    }
    const [row] = await t.deps.sql<{ n: number }[]>`select count(*)::int as n from registrations`;
    assert.equal(row.n, 0);
  },
});

Deno.test({
  name: 'what PostgreSQL could not store, or an address list, is one 400 for known and unknown e-mails alike',
  ...DB_TEST,
  fn: async () => {
    // These must not make a 500 for a new address and a 201 for one with an account (an enumeration oracle),
    // nor 'x,owner@…' e-mail the owner text the sender chose.
    const cases: [Record<string, unknown>, string][] = [
      [{ firstName: 'Jo\u0000hn' }, 'firstName contains a character that is not allowed.'],
      [{ lastName: 'Hopper\ud83d' }, 'lastName contains a character that is not allowed.'],
      [{ barState: '😀' }, 'Bar State must be 2 characters!'],
      [{ state: '😀' }, 'State must be 2 characters!'],
    ];
    for (const email of [DEMO.attorney[0], `nobody.${crypto.randomUUID()}@example.org`]) {
      for (const [overrides, message] of cases) {
        const r = await register({ ...overrides, email });
        assert.deepEqual([r.status, r.body.message], [400, message], `${email} ${JSON.stringify(overrides)}`);
      }
      for (const list of [`x,${email}`, `x;${email}`, `"x"<${email}>`]) {
        const r = await register({ email: list });
        assert.deepEqual([r.status, r.body.message], [400, 'Please enter a valid email address'], list);
      }
    }
    const [row] = await t.deps.sql<{ n: number }[]>`select count(*)::int as n from email_outbox`;
    assert.equal(row.n, 0, 'nothing was mailed');
  },
});

Deno.test({
  name: 'a valid registration is stored hashed, audited and acknowledged by e-mail',
  ...DB_TEST,
  fn: async () => {
    const body = registrationBody({ phone: '5551234567', zipCode: '65101-1234' });
    const r = await call(t, 'POST', '/api/auth/register', { body });
    assert.equal(r.status, 201);
    assert.equal(
      r.body.message,
      'Registration submitted successfully! You will receive an email once approved.',
    );
    const [stored] = await t.deps.sql<
      { password_hash: string }[]
    >`select password_hash from registrations where email = ${body.email}`;
    assert.ok(!stored.password_hash.includes(body.password));
    assert.match(stored.password_hash, /^pbkdf2-sha256\$/);
    const [audited] = await t.deps
      .sql`select 1 from audit_logs where event_type = 'registration_submitted' and event_data->>'email' = ${body.email}`;
    assert.ok(audited);
    assert.deepEqual(await outboxKinds(body.email), ['registration_received']);
  },
});

Deno.test({
  name:
    'a registration for an e-mail with an account or a pending registration gets the same 201 as a new one; the owner is e-mailed instead, at most once an hour',
  ...DB_TEST,
  fn: async () => {
    const fresh = await register();
    assert.equal(fresh.status, 201);

    // An e-mail that already has an account (the demo attorney's): the same answer, nothing stored.
    const account = await register({ email: DEMO.attorney[0].toUpperCase() });
    assert.deepEqual([account.status, account.body], [fresh.status, fresh.body]);
    assert.equal(account.headers.get('content-type'), fresh.headers.get('content-type'));
    const [none] = await t.deps.sql<{ n: number }[]>`
      select count(*)::int as n from registrations where email = ${DEMO.attorney[0]}`;
    assert.equal(none.n, 0, 'no registration is stored for the duplicate');
    assert.deepEqual(await outboxKinds(DEMO.attorney[0]), ['registration_duplicate']);
    const [notice] = await t.deps.sql<{ subject: string; body: string }[]>`
      select subject, body from email_outbox where kind = 'registration_duplicate' and to_address = ${
      DEMO.attorney[0]
    }`;
    assert.equal(notice.subject, 'Registration attempt for your e-mail address');
    assert.match(notice.body, /already has an account/);
    assert.match(notice.body, /If it was not you, you do not need to do anything/);
    assert.doesNotMatch(notice.body, /Grace|Hopper/, 'nothing the sender typed is mailed to the owner');
    const [audit] = await t.deps.sql<{ ip_address: string; event_data: Record<string, unknown> }[]>`
      select ip_address, event_data from audit_logs where event_type = 'registration_duplicate'
        and event_data->>'email' = ${DEMO.attorney[0]}`;
    assert.deepEqual({ ...audit }, {
      ip_address: '127.0.0.1',
      event_data: { email: DEMO.attorney[0], userType: 'attorney', existing: 'account', noticeQueued: true },
    });

    // An e-mail with a pending registration: the same answer; the first registration stays as it was.
    const body = registrationBody();
    assert.equal((await call(t, 'POST', '/api/auth/register', { body })).status, 201);
    const again = await call(t, 'POST', '/api/auth/register', {
      body: { ...body, email: ` ${body.email.toUpperCase()} `, firstName: 'Mallory' },
    });
    assert.deepEqual([again.status, again.body], [fresh.status, fresh.body]);
    const rows = await t.deps.sql<{ first_name: string }[]>`
      select first_name from registrations where email = ${body.email}`;
    assert.deepEqual(rows.map((r) => r.first_name), ['Grace']);
    assert.deepEqual(await outboxKinds(body.email), ['registration_received', 'registration_duplicate']);

    // A second attempt within the hour: still the same answer, but no second notice to the same address.
    const third = await call(t, 'POST', '/api/auth/register', { body });
    assert.deepEqual([third.status, third.body], [fresh.status, fresh.body]);
    assert.deepEqual(await outboxKinds(body.email), ['registration_received', 'registration_duplicate']);
    const notices = await t.deps.sql<{ queued: boolean }[]>`
      select (event_data->>'noticeQueued')::boolean as queued from audit_logs
      where event_type = 'registration_duplicate' and event_data->>'email' = ${body.email} order by id`;
    assert.deepEqual(notices.map((n) => n.queued), [true, false]);
  },
});

Deno.test({
  name:
    'registrations are throttled per client address before any hashing: a burst gets 429 past the limit, nothing stored or mailed for it',
  ...DB_TEST,
  fn: async () => {
    const limit = SETTINGS.registration_limit_per_hour.default;
    await setRegistrationLimit(limit);
    try {
      const ip = '198.51.100.7';
      const bodies = Array.from({ length: limit + 4 }, () => registrationBody());
      // Sent at once: the count is taken atomically, so no request slips past it.
      const answers = await Promise.all(
        bodies.map((body) => call(t, 'POST', '/api/auth/register', { body, ip })),
      );
      const accepted = bodies.filter((_, i) => answers[i].status === 201).map((b) => b.email);
      const refused = answers.filter((a) => a.status === 429);
      // Within the budget, a registration may still find the process's password hashing full (a burst of this
      // size exceeds a small server's line: api/domain/passwords.ts) and be told to retry; it was counted all the
      // same, so the budget holds either way.
      const busy = answers.filter((a) => a.status === 503 && a.body.code === 'hashing_busy');
      assert.equal(accepted.length + busy.length, limit);
      assert.equal(refused.length, 4);
      for (const r of refused) {
        assert.deepEqual(r.body, {
          success: false,
          message: 'Too many registrations from this network. Please try again later.',
          code: 'registration_throttled',
        });
      }
      const throttledEmails = bodies.map((b) => b.email).filter((e) => !accepted.includes(e));
      const [stored] = await t.deps.sql<{ n: number }[]>`
        select count(*)::int as n from registrations where email in ${t.deps.sql(throttledEmails)}`;
      assert.equal(stored.n, 0, 'nothing stored for a refused registration');
      const [mailed] = await t.deps.sql<{ n: number }[]>`
        select count(*)::int as n from email_outbox where to_address in ${t.deps.sql(throttledEmails)}`;
      assert.equal(mailed.n, 0, 'nothing mailed for a refused registration');

      // Refused before the duplicate check too: a known address gets the same 429 as a new one.
      const known = await call(t, 'POST', '/api/auth/register', {
        body: registrationBody({ email: DEMO.approver[0] }),
        ip,
      });
      assert.equal(known.status, 429);
      assert.deepEqual(await outboxKinds(DEMO.approver[0]), []);
      // A weak password is not even looked at.
      const weak = await call(t, 'POST', '/api/auth/register', {
        body: registrationBody({ password: 'Password1', confirmPassword: 'Password1' }),
        ip,
      });
      assert.equal(weak.status, 429);

      const throttleEvents = await t.deps.sql<{ ip_address: string }[]>`
        select ip_address from audit_logs where event_type = 'registration_throttled'`;
      assert.deepEqual(
        throttleEvents.map((e) => e.ip_address),
        [ip],
        'the first refusal of the window is audited',
      );

      // Another address is not affected; the address may register again once its hour has passed.
      assert.equal((await register()).status, 201);
      await t.deps.sql`update registration_throttle set window_started_at = now() - interval '61 minutes'
                       where kind = 'address' and subject = ${ip}`;
      const later = await call(t, 'POST', '/api/auth/register', { body: registrationBody(), ip });
      assert.equal(later.status, 201);
    } finally {
      await setRegistrationLimit(1000);
    }
  },
});

Deno.test({
  name:
    'approval only activates: no temporary password is made or shown, and the applicant signs in with their own password',
  ...DB_TEST,
  fn: async () => {
    const body = registrationBody();
    assert.equal((await call(t, 'POST', '/api/auth/register', { body })).status, 201);
    const id = await pendingIdFor(body.email);
    const approved = await call(t, 'POST', `/api/approver/registrations/${id}/approve`, { token: approver });
    assert.equal(approved.status, 200);
    assert.equal(
      approved.body.message,
      'Registration approved successfully! The applicant signs in with the password they chose when registering.',
    );
    assert.ok(!('temporaryPassword' in approved.body.data), JSON.stringify(approved.body));
    assert.doesNotMatch(JSON.stringify(approved.body), /temporary/i);
    const [row] = await t.deps.sql<{ temp_password_hash: string | null; status: string }[]>`
      select temp_password_hash, status from users where email = ${body.email}`;
    assert.deepEqual({ ...row }, { temp_password_hash: null, status: 'active' });

    // The password the applicant chose works and needs no change.
    const chosen = await call(t, 'POST', '/api/auth/login', {
      body: { username: body.email, password: body.password, entity: 'default' },
    });
    assert.equal(chosen.status, 200);
    assert.equal(chosen.body.user.mustChangePassword, false);
    assert.equal(chosen.body.user.role, 'attorney');
    const [mail] = await t.deps.sql<{ body: string }[]>`
      select body from email_outbox where kind = 'registration_approved' and to_address = ${body.email}`;
    assert.ok(mail, 'the applicant is told by e-mail');
    assert.doesNotMatch(mail.body, /temporary password/i);
  },
});

Deno.test({
  name:
    "a representative whose supervisor's bar number matches but whose e-mail does not is linked to nobody",
  ...DB_TEST,
  fn: async () => {
    const body = registrationBody({
      userType: 'representative',
      isRepresentative: true,
      supervisingAttorneyName: 'Atticus Counsel',
      supervisingAttorneyBar: 'mo12345',
      supervisingAttorneyEmail: 'someone-else@example.test',
    });
    assert.equal((await call(t, 'POST', '/api/auth/register', { body })).status, 201);
    const ok = await call(
      t,
      'POST',
      `/api/approver/registrations/${await pendingIdFor(body.email)}/approve`,
      { token: approver },
    );
    assert.equal(ok.status, 200);
    assert.equal(ok.body.data.supervisingAttorney, null);
    const [row] = await t.deps.sql<{ role: string; supervising_attorney_id: string | null }[]>`
      select role, supervising_attorney_id from users where email = ${body.email}`;
    assert.deepEqual({ ...row }, { role: 'representative', supervising_attorney_id: null });
  },
});

Deno.test({
  name: 'reject needs a non-blank reason, is audited, and a reviewed registration cannot be decided again',
  ...DB_TEST,
  fn: async () => {
    const body = registrationBody();
    await call(t, 'POST', '/api/auth/register', { body });
    const id = await pendingIdFor(body.email);
    const blank = await call(t, 'POST', `/api/approver/registrations/${id}/reject`, {
      token: approver,
      body: { reason: '   ' },
    });
    assert.equal(blank.status, 400);
    assert.equal(blank.body.message, 'Please provide a rejection reason');
    const done = await call(t, 'POST', `/api/approver/registrations/${id}/reject`, {
      token: approver,
      body: { reason: 'Bar number not found' },
    });
    assert.equal(done.status, 200);
    assert.equal(done.body.message, 'Registration rejected successfully');
    assert.equal(
      (await call(t, 'POST', `/api/approver/registrations/${id}/approve`, { token: approver })).status,
      409,
    );
    const [audited] = await t.deps.sql<{ event_data: { reason: string } }[]>`
    select event_data from audit_logs where event_type = 'registration_rejected' and resource_id = ${id}`;
    assert.equal(audited.event_data.reason, 'Bar number not found');
    const rejectedLogin = await call(t, 'POST', '/api/auth/login', {
      body: { username: body.email, password: body.password, entity: 'default' },
    });
    assert.equal(rejectedLogin.status, 401);
    // A rejected applicant may apply again.
    assert.equal((await call(t, 'POST', '/api/auth/register', { body })).status, 201);
  },
});

Deno.test({
  name: 'an unknown registration id is 404 and a malformed one is a readable 400',
  ...DB_TEST,
  fn: async () => {
    const missing = await call(t, 'POST', `/api/approver/registrations/${crypto.randomUUID()}/approve`, {
      token: approver,
    });
    assert.equal(missing.status, 404);
    const bad = await call(t, 'POST', '/api/approver/registrations/not-a-uuid/approve', { token: approver });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.message, 'Registration not found.');
  },
});

Deno.test({
  name: 'a bar state or state that is not a USPS code is refused (400) and nothing is stored',
  ...DB_TEST,
  fn: async () => {
    const barStateCode =
      'Bar State must be the postal code of a US state, DC or territory, such as MO for Missouri.';
    const stateCode =
      'State must be the postal code of a US state, DC or territory, such as MO for Missouri.';
    const cases: [Record<string, unknown>, string][] = [
      [{ barState: 'XX' }, barStateCode],
      [{ barState: 'Missouri' }, 'Bar State must be 2 characters!'],
      // Freely associated states and military mail codes are not a bar or an office's state.
      [{ barState: 'FM' }, barStateCode],
      [{ barState: 'AE' }, barStateCode],
      [{ state: 'ZZ' }, stateCode],
      [{ state: 'Missouri' }, 'State must be 2 characters!'],
      [{ state: 'AA' }, stateCode],
    ];
    for (const [overrides, message] of cases) {
      const body = registrationBody(overrides);
      const r = await call(t, 'POST', '/api/auth/register', { body });
      assert.equal(r.status, 400, JSON.stringify(overrides));
      assert.deepEqual([r.body.success, r.body.message, r.body.code], [false, message, 'invalid_input']);
      const [row] = await t.deps.sql<{ n: number }[]>`
        select count(*)::int as n from registrations where email = ${body.email}`;
      assert.equal(row.n, 0, JSON.stringify(overrides));
    }
    // Every code is accepted, in either case: DC and a territory too.
    for (const [barState, state] of [['mo', 'dc'], ['PR', 'GU'], ['VI', 'MP']]) {
      const body = registrationBody({ barState, state });
      assert.equal((await call(t, 'POST', '/api/auth/register', { body })).status, 201, barState);
      const [stored] = await t.deps.sql<{ bar_state: string; state: string }[]>`
        select bar_state, state from registrations where email = ${body.email}`;
      assert.deepEqual(stored, { bar_state: barState.toUpperCase(), state: state.toUpperCase() });
    }
  },
});

Deno.test({
  name: 'bar numbers and US phone numbers written the usual ways are accepted and stored in one form',
  ...DB_TEST,
  fn: async () => {
    const cases: [string, string, string, string][] = [
      ['MO-12345', '(314) 555-1234', 'MO12345', '314-555-1234'],
      ['MO 12345', '+1 314 555 1234', 'MO12345', '314-555-1234'],
      ['12345', '314.555.1234', 'MO12345', '314-555-1234'],
      ['mo12345', '1-314-555-1234', 'MO12345', '314-555-1234'],
      ['BAR12345', '3145551234', 'BAR12345', '314-555-1234'],
    ];
    for (const [barNumber, phone, storedBar, storedPhone] of cases) {
      const body = registrationBody({ barNumber, phone });
      const r = await call(t, 'POST', '/api/auth/register', { body });
      assert.equal(r.status, 201, `${barNumber} ${phone}: ${r.body.message}`);
      const [stored] = await t.deps.sql<{ bar_number: string; phone: string }[]>`
        select bar_number, phone from registrations where email = ${body.email}`;
      assert.deepEqual(stored, { bar_number: storedBar, phone: storedPhone });
    }
    const refused: [Record<string, unknown>, string][] = [
      [{ phone: '314-555-123' }, 'Please enter a valid phone number'],
      [{ phone: '+44 20 7946 0958' }, 'Please enter a valid phone number'],
      [{ phone: '314-555-CALL' }, 'Please enter a valid phone number'],
      [{ barNumber: 'MO-123' }, 'Bar number must be at least 4 alphanumeric characters'],
    ];
    for (const [overrides, message] of refused) {
      const r = await register(overrides);
      assert.deepEqual([r.status, r.body.message], [400, message], JSON.stringify(overrides));
    }
  },
});

Deno.test({
  name:
    "a representative gives no bar number of their own: the supervising attorney's is stored and names the attorney however it was written",
  ...DB_TEST,
  fn: async () => {
    const email = `rep-${crypto.randomUUID()}@example.test`;
    const r = await register({
      email,
      userType: 'representative',
      isRepresentative: true,
      barNumber: '',
      barState: 'MO',
      supervisingAttorneyName: 'Atticus Counsel',
      supervisingAttorneyBar: '12345',
      supervisingAttorneyEmail: DEMO.attorney[0],
    });
    assert.equal(r.status, 201, r.body.message);
    const [stored] = await t.deps.sql<{ bar_number: string; supervising_attorney_bar: string }[]>`
      select bar_number, supervising_attorney_bar from registrations where email = ${email}`;
    assert.deepEqual(stored, { bar_number: 'MO12345', supervising_attorney_bar: 'MO12345' });
    const list = await call(t, 'GET', '/api/approver/registrations', { token: approver });
    const row = list.body.registrations.find((x: { email: string }) => x.email === email);
    assert.equal(row.supervisor_match?.email, DEMO.attorney[0]);
    // Named under another state, the same number is another attorney: nobody is proposed.
    const elsewhere = `rep-${crypto.randomUUID()}@example.test`;
    assert.equal(
      (await register({
        email: elsewhere,
        userType: 'representative',
        isRepresentative: true,
        barState: 'MI',
        supervisingAttorneyName: 'Atticus Counsel',
        supervisingAttorneyBar: 'MO-12345',
        supervisingAttorneyEmail: DEMO.attorney[0],
      })).status,
      201,
    );
    const again = await call(t, 'GET', '/api/approver/registrations', { token: approver });
    const other = again.body.registrations.find((x: { email: string }) => x.email === elsewhere);
    assert.equal(other.supervisor_match, null);
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
  },
});
