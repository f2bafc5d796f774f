/**
 * Changes to how a staff account signs in: adding a second factor needs a recent proof that the session's holder
 * is the owner (the password, or a factor where there is one); every change is e-mailed to the owner; a password
 * reset ends the owner's sessions and pending sign-in steps, and so does an admin's factor reset.
 */
import assert from 'node:assert/strict';
import * as OTPAuth from 'otpauth';
import { bodyForRelay } from '../../api/email/worker.ts';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { makeUser } from '../support/factories.ts';
import { SoftAuthenticator } from '../support/soft_authenticator.ts';

let t: TestApp;
let admin: string;
/** Each test signs in from an address of its own: a pending second step counts against its address. */
let ip = '10.66.0.1';
let nextAddress = 1;
const newAddress = () => {
  ip = `10.66.0.${++nextAddress}`;
};

Deno.test({
  name: 'setup: app on a fresh database',
  ...DB_TEST,
  fn: async () => {
    // No PORTAL_URL: the passkey's relying party is the address the requests come to (localhost).
    t = await createTestApp();
    admin = await signIn(t, ...DEMO.admin);
  },
});

function codeFor(secret: string, steps = 0): string {
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 });
  return totp.generate({ timestamp: Date.now() + steps * 30_000 });
}

const post = (path: string, token: string | undefined, body?: unknown) =>
  call(t, 'POST', path, { token, body, ip });
const login = (username: string, password: string) =>
  call(t, 'POST', '/api/auth/login', { body: { username, password, entity: 'default' }, ip });

async function kindsTo(to: string): Promise<string[]> {
  const rows = await t.deps.sql<{ kind: string }[]>`
    select kind from email_outbox where to_address = ${to} order by id`;
  return rows.map((r) => r.kind);
}

/** An attorney with an authenticator app, added the way the Security screen adds it (password first). */
async function attorneyWithApp() {
  newAddress();
  const user = await makeUser(t);
  const session = await signIn(t, user.username, user.secret, ip);
  await post('/api/auth/mfa/identity', session, { method: 'password', password: user.secret });
  const started = await post('/api/auth/mfa/totp', session, { name: 'Phone' });
  assert.equal(started.status, 200, JSON.stringify(started.body));
  const totpSecret: string = started.body.data.secret;
  const done = await post('/api/auth/mfa/totp/confirm', session, {
    factorId: started.body.data.factorId,
    code: codeFor(totpSecret),
  });
  assert.equal(done.status, 200, JSON.stringify(done.body));
  return { ...user, session, totpSecret, recoveryCodes: done.body.recoveryCodes as string[] };
}

Deno.test({
  name: 'a session alone adds no second factor: an authenticator app or a passkey first needs the password',
  ...DB_TEST,
  fn: async () => {
    newAddress();
    const user = await makeUser(t);
    const session = await signIn(t, user.username, user.secret, ip);
    for (const path of ['/api/auth/mfa/totp', '/api/auth/mfa/webauthn']) {
      const r = await post(path, session, { name: 'Thief phone' });
      assert.equal(r.status, 403, `${path}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.code, 'mfa_proof_required');
    }
    const wrong = await post('/api/auth/mfa/identity', session, {
      method: 'password',
      password: 'Not-It-2026!',
    });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.code, 'current_password_wrong');
    const [failed] = await t.deps.sql<{ n: number }[]>`
      select count(*)::int as n from audit_logs where event_type = 'mfa_failed' and user_id = ${user.id}`;
    assert.equal(failed.n, 1, 'a wrong password is audited (and counted in the sign-in lock)');
    assert.equal((await post('/api/auth/mfa/totp', session, { name: 'Phone' })).status, 403);

    const right = await post('/api/auth/mfa/identity', session, {
      method: 'password',
      password: user.secret,
    });
    assert.equal(right.status, 200, JSON.stringify(right.body));
    const key = await SoftAuthenticator.create();
    const options = await post('/api/auth/mfa/webauthn', session);
    assert.equal(options.status, 200, JSON.stringify(options.body));
    const added = await post('/api/auth/mfa/webauthn/confirm', session, {
      name: 'Desk key',
      response: await key.register(options.body.data.options),
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    assert.deepEqual(await kindsTo(user.username), ['mfa_added']);

    // The proof is good for minutes: an old one is asked for again.
    await t.deps.sql`update sessions set identity_proved_at = now() - interval '11 minutes'
                     where user_id = ${user.id}`;
    assert.equal((await post('/api/auth/mfa/totp', session, { name: 'Phone' })).status, 403);
  },
});

Deno.test({
  name: 'an account with a second factor adds another only with that factor, never with the password alone',
  ...DB_TEST,
  fn: async () => {
    const user = await attorneyWithApp();
    // A new session, signed in with both factors: the password still does not let it add one.
    const first = await login(user.username, user.secret);
    const second = await post('/api/auth/mfa/verify', undefined, {
      mfaToken: first.body.mfaToken,
      method: 'totp',
      code: codeFor(user.totpSecret, 1),
    });
    assert.equal(second.status, 200, JSON.stringify(second.body));
    const session = second.body.token;
    const byPassword = await post('/api/auth/mfa/identity', session, {
      method: 'password',
      password: user.secret,
    });
    assert.equal(byPassword.status, 400);
    assert.equal(byPassword.body.code, 'mfa_second_factor_needed');
    assert.equal((await post('/api/auth/mfa/webauthn', session)).status, 403);
    const byCode = await post('/api/auth/mfa/identity', session, {
      method: 'recovery',
      code: user.recoveryCodes[0],
    });
    assert.equal(byCode.status, 200, JSON.stringify(byCode.body));
    assert.equal((await post('/api/auth/mfa/webauthn', session)).status, 200);
  },
});

Deno.test({
  name:
    'every factor added or removed, new recovery codes and a password change are e-mailed to the owner, in their language',
  ...DB_TEST,
  fn: async () => {
    const user = await attorneyWithApp();
    await t.deps.sql`update users set language = 'es' where id = ${user.id}`;
    const codes = await post('/api/auth/mfa/recovery-codes', user.session, {
      method: 'totp',
      code: codeFor(user.totpSecret, 1),
    });
    assert.equal(codes.status, 200, JSON.stringify(codes.body));
    const [factor] = await t.deps.sql<
      { id: string }[]
    >`select id from mfa_factors where user_id = ${user.id}`;
    const removed = await post(`/api/auth/mfa/factors/${factor.id}/remove`, user.session, {
      method: 'recovery',
      code: codes.body.recoveryCodes[0],
    });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    const changed = await post('/api/auth/password', user.session, {
      currentPassword: user.secret,
      newPassword: 'Lantern-Copper-Fjord-62',
    });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.deepEqual(await kindsTo(user.username), [
      'mfa_added',
      'mfa_recovery_codes_replaced',
      'mfa_recovery_used',
      'mfa_removed',
      'password_changed',
    ]);
    const mails = await t.deps.sql<{ kind: string; subject: string; body: string }[]>`
      select kind, subject, body from email_outbox where to_address = ${user.username} order by id`;
    assert.equal(mails[0].subject, 'A second factor was added to your account');
    assert.match(mails[0].body, /An authenticator app was just added/);
    assert.doesNotMatch(mails[0].body, /Phone/, 'the name the session holder typed is not sent');
    assert.equal(mails[3].subject, 'Se eliminó un segundo factor de su cuenta');
    assert.equal(mails[4].subject, 'Su contraseña fue cambiada');
    assert.match(mails[4].body, /avise de inmediato a su administrador/);
  },
});

/** The set-password code of the newest e-mail to `to`, as the relay would get it. */
async function linkCode(to: string): Promise<string> {
  const [row] = await t.deps.sql<
    { id: string; to_address: string; subject: string; body: string; sealed_secret: Uint8Array | null }[]
  >`
    select id::text as id, to_address, subject, body, sealed_secret from email_outbox
    where to_address = ${to} and kind like 'password_reset%' order by id desc limit 1`;
  const body = await bodyForRelay({ ...row, attempts: 1 }, t.deps.mfaKey);
  return /([A-Za-z0-9_-]{43})/.exec(body)![1];
}

Deno.test({
  name:
    'a second-factor step opened with the old password cannot complete after a password reset; its sessions end too',
  ...DB_TEST,
  fn: async () => {
    const user = await attorneyWithApp();
    const step = await login(user.username, user.secret);
    assert.equal(step.body.mfaRequired, true);

    // The owner resets the password from a link.
    await call(t, 'POST', '/api/auth/forgot-password', {
      body: { email: user.username, entity: 'default' },
      ip: '10.67.0.1',
    });
    const reset = await call(t, 'POST', '/api/auth/reset-password', {
      body: { token: await linkCode(user.username), newPassword: 'Meadow-Granite-Oboe-38' },
      ip: '10.67.0.1',
    });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    assert.equal((await call(t, 'GET', '/api/auth/me', { token: user.session })).status, 401);
    const late = await post('/api/auth/mfa/verify', undefined, {
      mfaToken: step.body.mfaToken,
      method: 'totp',
      code: codeFor(user.totpSecret, 1),
    });
    assert.equal(late.status, 401, JSON.stringify(late.body));
    assert.equal(late.body.code, 'mfa_token_invalid');
    assert.ok((await kindsTo(user.username)).includes('password_changed'), 'the owner is told of the reset');

    // An admin's reset ends a pending step as well.
    const again = await login(user.username, 'Meadow-Granite-Oboe-38');
    assert.equal(again.body.mfaRequired, true);
    assert.equal(
      (await call(t, 'POST', `/api/admin/users/${user.id}/password-reset`, { token: admin })).status,
      200,
    );
    const afterAdmin = await post('/api/auth/mfa/verify', undefined, {
      mfaToken: again.body.mfaToken,
      method: 'totp',
      code: codeFor(user.totpSecret, 1),
    });
    assert.equal(afterAdmin.status, 401);
    assert.equal(afterAdmin.body.code, 'mfa_token_invalid');
  },
});

Deno.test({
  name: "an admin's reset of the second factors ends every session of the owner",
  ...DB_TEST,
  fn: async () => {
    const user = await attorneyWithApp();
    const other = await signIn(t, user.username, user.secret, ip).catch(() => undefined);
    assert.equal(other, undefined, 'with a factor the password alone opens no session');
    assert.equal((await call(t, 'GET', '/api/auth/me', { token: user.session })).status, 200);
    const r = await call(t, 'POST', `/api/admin/users/${user.id}/mfa/reset`, { token: admin });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal((await call(t, 'GET', '/api/auth/me', { token: user.session })).status, 401);
    assert.equal((await call(t, 'GET', '/api/auth/mfa/factors', { token: user.session })).status, 401);
  },
});

Deno.test({
  name: "an admin's reset of the second factors ends a pending second-factor step of the owner",
  ...DB_TEST,
  fn: async () => {
    const user = await attorneyWithApp();
    // Someone with the password is at the second step (the owner, or whoever the reset is meant to stop).
    const step = await login(user.username, user.secret);
    assert.equal(step.body.mfaRequired, true, JSON.stringify(step.body));
    const r = await call(t, 'POST', `/api/admin/users/${user.id}/mfa/reset`, { token: admin });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    // The step itself is gone, whatever its code: sign in again, with the password alone now.
    for (const code of [codeFor(user.totpSecret, 1), user.recoveryCodes[0]]) {
      const late = await post('/api/auth/mfa/verify', undefined, {
        mfaToken: step.body.mfaToken,
        method: code.length === 6 ? 'totp' : 'recovery',
        code,
      });
      assert.equal(late.status, 401, JSON.stringify(late.body));
      assert.equal(late.body.code, 'mfa_token_invalid');
    }
    const [{ open }] = await t.deps.sql<{ open: number }[]>`
      select count(*)::int as open from mfa_challenges where user_id = ${user.id} and used_at is null`;
    assert.equal(open, 0, 'no step of the owner is left');
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
  },
});
