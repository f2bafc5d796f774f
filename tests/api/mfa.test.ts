import assert from 'node:assert/strict';
import * as OTPAuth from 'otpauth';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { makeUser } from '../support/factories.ts';
import { SoftAuthenticator } from '../support/soft_authenticator.ts';

let t: TestApp;
let admin: string;
/**
 * The client address of the current test: a sign-in waiting for its second factor counts against its address
 * until the second factor is right, so each test signs in from its own.
 */
let ip = '10.9.0.1';
let nextAddress = 1;
const newAddress = () => {
  ip = `10.9.0.${++nextAddress}`;
};

/** The code an authenticator app shows for `secret` (base32), `steps` periods from now. */
function codeFor(secret: string, steps = 0): string {
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 });
  return totp.generate({ timestamp: Date.now() + steps * 30_000 });
}

/** A code that is surely wrong for `secret` (none of the accepted steps' codes). */
function wrongCode(secret: string): string {
  const right = new Set([-1, 0, 1].map((s) => codeFor(secret, s)));
  for (let n = 0;; n++) {
    const candidate = String(n).padStart(6, '0');
    if (!right.has(candidate)) return candidate;
  }
}

const login = (username: string, password: string) =>
  call(t, 'POST', '/api/auth/login', { body: { username, password, entity: 'default' }, ip });
const verify = (mfaToken: string, method: string, code: string) =>
  call(t, 'POST', '/api/auth/mfa/verify', { body: { mfaToken, method, code }, ip });
const requireRoles = (value: string, token = admin) =>
  call(t, 'PUT', '/api/admin/settings/mfa_required_roles', {
    token,
    body: { value: { type: 'text', value } },
  });

/** A user whose role must enrol signs in, enrols an authenticator app with the step token, and signs in with it. */
async function enrolThroughSignIn(user: { username: string; secret: string }) {
  const first = await login(user.username, user.secret);
  assert.equal(first.status, 200, JSON.stringify(first.body));
  assert.equal(first.body.mfaEnrollmentRequired, true);
  assert.equal(first.body.token, undefined);
  const started = await call(t, 'POST', '/api/auth/mfa/enroll/totp', {
    body: { mfaToken: first.body.mfaToken, name: 'Phone' },
  });
  assert.equal(started.status, 200, JSON.stringify(started.body));
  const { secret, uri } = started.body.data;
  assert.match(uri, /^otpauth:\/\/totp\//);
  assert.match(uri, new RegExp(`secret=${secret}`));
  const done = await verify(first.body.mfaToken, 'totp', codeFor(secret));
  assert.equal(done.status, 200, JSON.stringify(done.body));
  assert.equal(typeof done.body.token, 'string');
  return { secret, token: done.body.token as string, recoveryCodes: done.body.recoveryCodes as string[] };
}

/** Signs in with the password and proves it again, as adding a factor on the Security screen needs. */
async function signInToAdd(user: { username: string; secret: string }): Promise<string> {
  const session = await signIn(t, user.username, user.secret, ip);
  const proved = await call(t, 'POST', '/api/auth/mfa/identity', {
    token: session,
    body: { method: 'password', password: user.secret },
    ip,
  });
  assert.equal(proved.status, 200, JSON.stringify(proved.body));
  return session;
}

/** Signs in with the password and a code; returns the answer of the second step. */
async function signInWithCode(
  user: { username: string; secret: string },
  code: (methods: string[]) => string,
) {
  const first = await login(user.username, user.secret);
  assert.equal(first.status, 200, JSON.stringify(first.body));
  assert.equal(first.body.mfaRequired, true, JSON.stringify(first.body));
  return { first: first.body, second: await verify(first.body.mfaToken, 'totp', code(first.body.methods)) };
}

Deno.test({
  name: 'setup: app on a fresh database (the demo seed requires no second factor)',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    admin = await signIn(t, DEMO.admin[0], DEMO.admin[1]);
  },
});

Deno.test({
  name: 'a new database requires second factors of admin and approver; the demo seed of none',
  ...DB_TEST,
  fn: async () => {
    const { SETTINGS } = await import('../../contract/settings.ts');
    assert.equal(SETTINGS.mfa_required_roles.default, 'admin,approver');
    const [row] = await t.deps.sql<{ value: { value: string } }[]>`
      select value from settings where key = 'mfa_required_roles'`;
    assert.equal(row.value.value, '');
  },
});

Deno.test({
  name: "the setting takes a list of staff roles ('none' is empty); offenders and unknown roles are refused",
  ...DB_TEST,
  fn: async () => {
    for (const bad of ['offender', 'admin,boss']) {
      const r = await requireRoles(bad);
      assert.equal(r.status, 400, bad);
    }
    assert.equal((await requireRoles('none')).status, 200);
    const [row] = await t.deps.sql<{ value: { value: string } }[]>`
      select value from settings where key = 'mfa_required_roles'`;
    assert.equal(row.value.value, '');
  },
});

Deno.test({
  name:
    "with admin,approver required, an admin's and an approver's password alone never yield a session token, an attorney's does; their password-only sessions end",
  ...DB_TEST,
  fn: async () => {
    const approverSession = await signIn(t, DEMO.approver[0], DEMO.approver[1]);
    const attorneySession = await signIn(t, DEMO.attorney[0], DEMO.attorney[1]);
    const r = await requireRoles('approver,admin');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const [row] = await t.deps.sql<{ value: { value: string } }[]>`
      select value from settings where key = 'mfa_required_roles'`;
    assert.equal(row.value.value, 'admin,approver');

    for (const [username, password] of [DEMO.admin, DEMO.approver]) {
      const answer = await login(username, password);
      assert.equal(answer.status, 200);
      assert.equal(answer.body.token, undefined, `${username} got a session token`);
      assert.equal(answer.body.mfaEnrollmentRequired, true);
      assert.equal(typeof answer.body.mfaToken, 'string');
    }
    const attorney = await login(DEMO.attorney[0], DEMO.attorney[1]);
    assert.equal(typeof attorney.body.token, 'string');
    assert.equal(attorney.body.mfaRequired, undefined);

    // Turning the requirement on ended the admin's and the approver's password-only sessions, not the attorney's.
    assert.equal((await call(t, 'GET', '/api/auth/me', { token: admin })).status, 401);
    assert.equal((await call(t, 'GET', '/api/auth/me', { token: approverSession })).status, 401);
    assert.equal((await call(t, 'GET', '/api/auth/me', { token: attorneySession })).status, 200);

    // The demo admin enrols and is the admin of the remaining tests, in a session with a second factor.
    const enrolled = await enrolThroughSignIn({ username: DEMO.admin[0], secret: DEMO.admin[1] });
    assert.equal(enrolled.recoveryCodes.length, 10);
    admin = enrolled.token;
    const audit = await t.deps.sql<{ event_type: string }[]>`
      select event_type from audit_logs where event_type in ('mfa_enrolled', 'mfa_verified')
        and user_id = (select id from users where email = ${DEMO.admin[0]})`;
    assert.deepEqual(audit.map((a) => a.event_type).sort(), ['mfa_enrolled', 'mfa_verified']);
    // Requiring a role again does not end sessions that were opened with a second factor.
    assert.equal((await requireRoles('admin,approver,attorney')).status, 200);
    assert.equal((await call(t, 'GET', '/api/auth/me', { token: admin })).status, 200);
    assert.equal((await call(t, 'GET', '/api/auth/me', { token: attorney.body.token })).status, 401);
    assert.equal((await requireRoles('admin,approver')).status, 200);
  },
});

Deno.test({
  name: 'an authenticator app signs in with a real code; the same code sent again is refused',
  ...DB_TEST,
  fn: async () => {
    newAddress();
    const user = await makeUser(t, { role: 'approver' });
    const { secret, recoveryCodes } = await enrolThroughSignIn(user);
    assert.equal(new Set(recoveryCodes).size, 10);

    // The enrolment's code was used: the same one again is a replay, whichever sign-in sends it.
    const replayed = await signInWithCode(user, () => codeFor(secret));
    assert.deepEqual(replayed.first.methods, ['totp', 'recovery']);
    assert.equal(replayed.second.status, 401);
    assert.equal(replayed.second.body.code, 'mfa_code_wrong');
    // The next step's code (one step of clock skew) signs in once, and only once.
    const next = codeFor(secret, 1);
    const ok = await verify(replayed.first.mfaToken, 'totp', next);
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal((await call(t, 'GET', '/api/auth/me', { token: ok.body.token })).body.user.role, 'approver');
    const again = await signInWithCode(user, () => next);
    assert.equal(again.second.status, 401);
    const failed = await t.deps.sql<{ event_data: { reason: string } }[]>`
      select event_data from audit_logs where event_type = 'mfa_failed' and user_id = ${user.id}`;
    assert.ok(failed.some((f) => f.event_data.reason === 'replayed_code'));
  },
});

Deno.test({
  name: 'an mfaToken opens nothing else, is used once, and expires',
  ...DB_TEST,
  fn: async () => {
    newAddress();
    const user = await makeUser(t, { role: 'admin' });
    const { secret } = await enrolThroughSignIn(user);
    const first = await login(user.username, user.secret);
    const mfaToken = first.body.mfaToken as string;
    for (const path of ['/api/auth/me', '/api/admin/settings', '/api/auth/mfa/factors']) {
      const r = await call(t, 'GET', path, { token: mfaToken });
      assert.equal(r.status, 401, path);
    }
    assert.equal((await call(t, 'POST', '/api/auth/mfa/enroll/totp', { body: { mfaToken } })).status, 401);
    const ok = await verify(mfaToken, 'totp', codeFor(secret, 1));
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    const reused = await verify(mfaToken, 'totp', codeFor(secret, -1));
    assert.equal(reused.status, 401);
    assert.equal(reused.body.code, 'mfa_token_invalid');

    const second = await login(user.username, user.secret);
    await t.deps.sql`update mfa_challenges set expires_at = now() - interval '1 second'
                     where user_id = ${user.id} and used_at is null`;
    const expired = await verify(second.body.mfaToken, 'recovery', 'AAAA-AAAA-AAAA-AAAA');
    assert.equal(expired.status, 401);
    assert.equal(expired.body.code, 'mfa_token_invalid');
  },
});

Deno.test({
  name: 'wrong codes count in the sign-in lock: once locked, not even the right code is checked',
  ...DB_TEST,
  fn: async () => {
    newAddress();
    const user = await makeUser(t, { role: 'approver' });
    const { secret } = await enrolThroughSignIn(user);
    const first = await login(user.username, user.secret);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await verify(first.body.mfaToken, 'totp', wrongCode(secret))).status);
    }
    assert.equal(statuses[0], 401);
    assert.equal(statuses.at(-1), 429, statuses.join(','));
    const right = await verify(first.body.mfaToken, 'totp', codeFor(secret, 1));
    assert.equal(right.status, 429);
    assert.equal(right.body.code, 'mfa_locked');
    // The password is refused as well while the lock is in force.
    assert.equal((await login(user.username, user.secret)).status, 401);
    const [locked] = await t.deps.sql<{ n: number }[]>`
      select count(*)::int as n from audit_logs where event_type = 'account_locked' and user_id = ${user.id}`;
    assert.equal(locked.n, 1);
  },
});

Deno.test({
  name: 'a recovery code signs in once; its use is audited and e-mailed to the owner',
  ...DB_TEST,
  fn: async () => {
    newAddress();
    const user = await makeUser(t, { role: 'admin' });
    const { recoveryCodes } = await enrolThroughSignIn(user);
    const code = recoveryCodes[3];
    const first = await login(user.username, user.secret);
    const ok = await verify(first.body.mfaToken, 'recovery', code.toLowerCase());
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    const again = await login(user.username, user.secret);
    const reused = await verify(again.body.mfaToken, 'recovery', code);
    assert.equal(reused.status, 401);
    const [used] = await t.deps.sql<{ event_data: { left: number } }[]>`
      select event_data from audit_logs where event_type = 'mfa_recovery_used' and user_id = ${user.id}`;
    assert.equal(used.event_data.left, 9);
    const mail = await t.deps.sql<{ kind: string }[]>`
      select kind from email_outbox where to_address = ${user.username}`;
    assert.deepEqual(mail.map((m) => m.kind), ['mfa_added', 'mfa_recovery_used']);
  },
});

Deno.test({
  name: "an admin cannot reset their own second factors; another user's are reset, audited and e-mailed",
  ...DB_TEST,
  fn: async () => {
    const [me] = await t.deps.sql<{ id: string }[]>`select id from users where email = ${DEMO.admin[0]}`;
    const own = await call(t, 'POST', `/api/admin/users/${me.id}/mfa/reset`, { token: admin });
    assert.equal(own.status, 400);
    assert.equal(own.body.code, 'mfa_self_reset');

    const user = await makeUser(t, { role: 'approver' });
    await enrolThroughSignIn(user);
    const r = await call(t, 'POST', `/api/admin/users/${user.id}/mfa/reset`, { token: admin });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    // Still required of approvers: the next sign-in must enrol again.
    assert.equal((await login(user.username, user.secret)).body.mfaEnrollmentRequired, true);
    const [event] = await t.deps.sql<{ user_id: string; resource_id: string }[]>`
      select user_id, resource_id from audit_logs where event_type = 'mfa_reset'`;
    assert.deepEqual(event, { user_id: me.id, resource_id: user.id });
    const mail = await t.deps
      .sql`select 1 from email_outbox where to_address = ${user.username} and kind = 'mfa_reset'`;
    assert.equal(mail.length, 1);
    const approver = await signIn(t, DEMO.attorney[0], DEMO.attorney[1]);
    assert.equal(
      (await call(t, 'POST', `/api/admin/users/${user.id}/mfa/reset`, { token: approver })).status,
      403,
    );
  },
});

Deno.test({
  name:
    'an attorney adds an authenticator app of their own accord, is asked for it at sign-in, and removes it with a code',
  ...DB_TEST,
  fn: async () => {
    newAddress();
    const user = await makeUser(t, { role: 'attorney' });
    const session = await signInToAdd(user);
    const started = await call(t, 'POST', '/api/auth/mfa/totp', {
      token: session,
      body: { name: 'Work phone' },
    });
    assert.equal(started.status, 200);
    const { factorId, secret } = started.body.data;
    const wrong = await call(t, 'POST', '/api/auth/mfa/totp/confirm', {
      token: session,
      body: { factorId, code: wrongCode(secret) },
    });
    assert.equal(wrong.status, 401);
    const confirmed = await call(t, 'POST', '/api/auth/mfa/totp/confirm', {
      token: session,
      body: { factorId, code: codeFor(secret) },
    });
    assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
    assert.equal(confirmed.body.recoveryCodes.length, 10);
    const list = await call(t, 'GET', '/api/auth/mfa/factors', { token: session });
    assert.equal(list.body.data.factors.length, 1);
    assert.equal(list.body.data.factors[0].name, 'Work phone');
    assert.equal(list.body.data.recoveryCodesLeft, 10);
    assert.equal(list.body.data.required, false);

    const asked = await login(user.username, user.secret);
    assert.equal(asked.body.mfaRequired, true);
    assert.equal(asked.body.token, undefined);

    const refused = await call(t, 'POST', `/api/auth/mfa/factors/${factorId}/remove`, {
      token: session,
      body: { method: 'totp', code: wrongCode(secret) },
    });
    assert.equal(refused.status, 401);
    const removed = await call(t, 'POST', `/api/auth/mfa/factors/${factorId}/remove`, {
      token: session,
      body: { method: 'totp', code: codeFor(secret, 1) },
    });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    const after = await login(user.username, user.secret);
    assert.equal(typeof after.body.token, 'string');
    const events = await t.deps.sql<{ event_type: string }[]>`
      select event_type from audit_logs where user_id = ${user.id} and event_type like 'mfa_%' order by id`;
    assert.deepEqual(events.map((e) => e.event_type), ['mfa_enrolled', 'mfa_failed', 'mfa_removed']);
  },
});

Deno.test({
  name:
    'a passkey answer that proves nothing is a JSON refusal, counted in the sign-in lock like a wrong code; its challenge is used once',
  ...DB_TEST,
  fn: async () => {
    newAddress();
    const user = await makeUser(t, { role: 'approver' });
    const { secret } = await enrolThroughSignIn(user);
    const first = await login(user.username, user.secret);
    const mfaToken = first.body.mfaToken as string;
    // No key enrolled: no assertion to ask for, and a step token that must not enrol cannot register one.
    const none = await call(t, 'POST', '/api/auth/mfa/webauthn/options', { body: { mfaToken }, ip });
    assert.equal(none.status, 404);
    assert.equal(none.body.code, 'mfa_factor_not_found');
    const register = await call(t, 'POST', '/api/auth/mfa/enroll/webauthn', { body: { mfaToken }, ip });
    assert.equal(register.status, 401);
    assert.equal(register.body.code, 'mfa_token_invalid');

    const garbage = (response: unknown) =>
      call(t, 'POST', '/api/auth/mfa/verify', { body: { mfaToken, method: 'webauthn', response }, ip });
    const notAnObject = await garbage('garbage');
    assert.equal(notAnObject.status, 400);
    assert.equal(notAnObject.body.success, false);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await garbage({
        id: 'AAAA',
        rawId: 'AAAA',
        type: 'public-key',
        response: { clientDataJSON: '!' },
      });
      assert.equal(r.body.success, false);
      assert.equal(typeof r.body.message, 'string');
      statuses.push(r.status);
      if (i === 0) assert.equal(r.body.code, 'mfa_passkey_refused');
    }
    assert.equal(statuses[0], 401);
    assert.equal(statuses.at(-1), 429, statuses.join(','));
    // Locked: not even the right code is checked.
    const right = await verify(mfaToken, 'totp', codeFor(secret, 1));
    assert.equal(right.status, 429);
    assert.equal(right.body.code, 'mfa_locked');
    const failed = await t.deps.sql<{ event_data: { method: string; reason: string } }[]>`
      select event_data from audit_logs where event_type = 'mfa_failed' and user_id = ${user.id}`;
    assert.ok(
      failed.some((f) => f.event_data.method === 'webauthn' && f.event_data.reason === 'wrong_assertion'),
    );
  },
});

Deno.test({
  name:
    "passkey options require user verification and name the portal's host; a session's challenge is used once",
  ...DB_TEST,
  fn: async () => {
    newAddress();
    const user = await makeUser(t, { role: 'attorney' });
    const session = await signInToAdd(user);
    const started = await call(t, 'POST', '/api/auth/mfa/webauthn', { token: session, body: {} });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const { options } = started.body.data;
    assert.equal(options.rp.id, 'localhost');
    assert.equal(options.authenticatorSelection.userVerification, 'required');
    assert.equal(typeof options.challenge, 'string');
    const [stored] = await t.deps.sql<{ webauthn_challenge: string; live: boolean }[]>`
      select webauthn_challenge, webauthn_challenge_expires_at > now() as live
      from sessions where user_id = ${user.id} and revoked_at is null`;
    assert.equal(stored.webauthn_challenge, `register:${options.challenge}`);
    assert.equal(stored.live, true);
    // A malformed registration is refused and takes the challenge off: the next answer finds none.
    const bad = await call(t, 'POST', '/api/auth/mfa/webauthn/confirm', {
      token: session,
      body: { name: 'Key', response: { id: 'x', response: {} } },
    });
    assert.equal(bad.status, 401);
    assert.equal(bad.body.code, 'mfa_passkey_refused');
    const [after] = await t.deps.sql<{ webauthn_challenge: string | null }[]>`
      select webauthn_challenge from sessions where user_id = ${user.id} and revoked_at is null`;
    assert.equal(after.webauthn_challenge, null);
    // With PORTAL_URL set, its host is the relying party whatever address the request came to.
    const configured = await createTestApp({ PORTAL_URL: 'https://mail.example.gov/' });
    try {
      const { relyingParty } = await import('../../api/domain/webauthn.ts');
      assert.deepEqual(relyingParty(configured.deps.config, 'http://10.0.0.5:5000/api/auth/mfa/webauthn'), {
        id: 'mail.example.gov',
        origin: 'https://mail.example.gov',
      });
    } finally {
      await configured.close();
    }
  },
});

Deno.test({
  name:
    'an attorney adds a passkey, signs in with it; a replayed answer, a cloned key and an unverified user are refused and counted',
  ...DB_TEST,
  fn: async () => {
    newAddress();
    const user = await makeUser(t, { role: 'attorney' });
    const session = await signInToAdd(user);
    const key = await SoftAuthenticator.create();
    const started = await call(t, 'POST', '/api/auth/mfa/webauthn', { token: session });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const added = await call(t, 'POST', '/api/auth/mfa/webauthn/confirm', {
      token: session,
      body: { name: 'Desk key', response: await key.register(started.body.data.options) },
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    assert.equal(added.body.recoveryCodes.length, 10);
    // The same registration again: its challenge was used.
    const again = await call(t, 'POST', '/api/auth/mfa/webauthn/confirm', {
      token: session,
      body: { name: 'Desk key', response: await key.register(started.body.data.options) },
    });
    assert.equal(again.status, 401);
    const list = await call(t, 'GET', '/api/auth/mfa/factors', { token: session });
    assert.deepEqual(list.body.data.factors.map((f: { kind: string; name: string }) => [f.kind, f.name]), [[
      'webauthn',
      'Desk key',
    ]]);

    const passkeySignIn = async () => {
      const first = await login(user.username, user.secret);
      assert.deepEqual(first.body.methods, ['webauthn', 'recovery']);
      const mfaToken = first.body.mfaToken as string;
      const options = await call(t, 'POST', '/api/auth/mfa/webauthn/options', { body: { mfaToken }, ip });
      assert.equal(options.status, 200, JSON.stringify(options.body));
      assert.equal(options.body.data.options.userVerification, 'required');
      assert.equal(options.body.data.options.allowCredentials[0].id, key.id);
      return { mfaToken, options: options.body.data.options };
    };
    const send = (mfaToken: string, response: unknown) =>
      call(t, 'POST', '/api/auth/mfa/verify', { body: { mfaToken, method: 'webauthn', response }, ip });

    const step = await passkeySignIn();
    const answer = await key.assert(step.options);
    const ok = await send(step.mfaToken, answer);
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal((await call(t, 'GET', '/api/auth/me', { token: ok.body.token })).status, 200);

    // The same answer in a new sign-in: its challenge is not this step's.
    const replay = await passkeySignIn();
    const replayed = await send(replay.mfaToken, answer);
    assert.equal(replayed.status, 401);
    assert.equal(replayed.body.code, 'mfa_passkey_refused');
    // The step's own challenge went with that answer: a right answer to it now finds none.
    const late = await send(replay.mfaToken, await key.assert(replay.options));
    assert.equal(late.status, 401);

    // A right sign-in between the cases, so the refusals above do not add up to the lock.
    const signInRight = async () => {
      const next = await passkeySignIn();
      const r = await send(next.mfaToken, await key.assert(next.options));
      assert.equal(r.status, 200, JSON.stringify(r.body));
    };
    await signInRight();
    // A cloned key: a signature counter the server has already seen.
    const seen = key.counter;
    const cloned = await passkeySignIn();
    key.counter = 0;
    const clonedAnswer = await send(cloned.mfaToken, await key.assert(cloned.options));
    assert.equal(clonedAnswer.status, 401, JSON.stringify(clonedAnswer.body));
    key.counter = seen;
    await signInRight();
    // A key that did not verify its user (no PIN, no fingerprint).
    const unverified = await passkeySignIn();
    key.userVerified = false;
    const unverifiedAnswer = await send(unverified.mfaToken, await key.assert(unverified.options));
    assert.equal(unverifiedAnswer.status, 401, JSON.stringify(unverifiedAnswer.body));
    key.userVerified = true;
    await signInRight();

    const failed = await t.deps.sql<{ event_data: { method: string; reason: string } }[]>`
      select event_data from audit_logs where event_type = 'mfa_failed' and user_id = ${user.id}`;
    assert.equal(failed.filter((f) => f.event_data.method === 'webauthn').length, 4);
    const verified = await t.deps.sql<{ event_data: { method: string } }[]>`
      select event_data from audit_logs where event_type = 'mfa_verified' and user_id = ${user.id}`;
    assert.deepEqual(verified.map((v) => v.event_data.method), Array(4).fill('webauthn'));

    // Removing it asks for the key again.
    const factorId = list.body.data.factors[0].id;
    const proof = await call(t, 'POST', '/api/auth/mfa/webauthn/proof-options', { token: ok.body.token });
    assert.equal(proof.status, 200, JSON.stringify(proof.body));
    const removed = await call(t, 'POST', `/api/auth/mfa/factors/${factorId}/remove`, {
      token: ok.body.token,
      body: { method: 'webauthn', response: await key.assert(proof.body.data.options) },
    });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    const events = await t.deps.sql<{ event_type: string }[]>`
      select event_type from audit_logs where user_id = ${user.id}
        and event_type in ('mfa_enrolled', 'mfa_removed') order by id`;
    assert.deepEqual(events.map((e) => e.event_type), ['mfa_enrolled', 'mfa_removed']);
  },
});

Deno.test({
  name:
    "an approver who must enrol adds a passkey with the step token; the key's registration opens the session",
  ...DB_TEST,
  fn: async () => {
    newAddress();
    const user = await makeUser(t, { role: 'approver' });
    const first = await login(user.username, user.secret);
    assert.equal(first.body.mfaEnrollmentRequired, true);
    const mfaToken = first.body.mfaToken as string;
    // An enrolment step has nothing to prove yet.
    const none = await call(t, 'POST', '/api/auth/mfa/webauthn/options', { body: { mfaToken }, ip });
    assert.equal(none.status, 401);
    const options = await call(t, 'POST', '/api/auth/mfa/enroll/webauthn', { body: { mfaToken }, ip });
    assert.equal(options.status, 200, JSON.stringify(options.body));
    assert.equal(options.body.data.options.authenticatorSelection.userVerification, 'required');
    const key = await SoftAuthenticator.create();
    const done = await call(t, 'POST', '/api/auth/mfa/verify', {
      body: {
        mfaToken,
        method: 'webauthn',
        name: 'YubiKey',
        response: await key.register(options.body.data.options),
      },
      ip,
    });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(typeof done.body.token, 'string');
    assert.equal(done.body.recoveryCodes.length, 10);
    const [factor] = await t.deps.sql<{ name: string; kind: string; confirmed: boolean }[]>`
      select name, kind, confirmed_at is not null as confirmed from mfa_factors where user_id = ${user.id}`;
    assert.deepEqual(factor, { name: 'YubiKey', kind: 'webauthn', confirmed: true });
    const [enrolled] = await t.deps.sql<{ event_data: { kind: string } }[]>`
      select event_data from audit_logs where event_type = 'mfa_enrolled' and user_id = ${user.id}`;
    assert.equal(enrolled.event_data.kind, 'webauthn');
    assert.deepEqual((await login(user.username, user.secret)).body.methods, ['webauthn', 'recovery']);
  },
});

Deno.test({
  name: 'offenders are never asked for a second factor',
  ...DB_TEST,
  fn: async () => {
    const r = await login(DEMO.offender[0], DEMO.offender[1]);
    assert.equal(typeof r.body.token, 'string');
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
  },
});
