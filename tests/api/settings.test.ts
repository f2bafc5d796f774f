import assert from 'node:assert/strict';
import { deliverDueEmails } from '../../api/email/worker.ts';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { makeUser, registrationBody } from '../support/factories.ts';
import { makeCertificate, startSmtpRelay } from '../support/smtp.ts';

/** The CJIS floors cannot be loosened, and the refusal says why. */
const FAILED_LIMIT =
  'Failed login limit must be a whole number from 1 to 5 (CJIS Security Policy: at most 5 consecutive failed attempts).';
const LOCKOUT =
  'Lockout minutes must be a whole number from 10 to 1440 (CJIS Security Policy: a lock of at least 10 minutes).';
const IDLE = 'Session idle minutes must be a whole number from 5 to 30 ' +
  '(CJIS Security Policy: a session locks after at most 30 minutes of inactivity).';

let t: TestApp;
let admin: string;

const put = (key: string, value: unknown, type?: string) =>
  call(t, 'PUT', `/api/admin/settings/${key}`, {
    token: admin,
    body: { value: { type: type ?? (typeof value === 'string' ? 'text' : typeof value), value } },
  });
const stored = async (key: string) =>
  (await t.deps.sql<{ value: any }[]>`select value from settings where key = ${key}`)[0].value;
async function setOk(key: string, value: unknown) {
  const r = await put(key, value);
  assert.equal(r.status, 200, `${key}: ${JSON.stringify(r.body)}`);
  assert.deepEqual(r.body, { success: true, message: 'Setting updated successfully' });
}
const login = (username: string, password: string, ip: string) =>
  call(t, 'POST', '/api/auth/login', { body: { username, password, entity: 'default' }, ip });

Deno.test({
  name: 'setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    admin = await signIn(t, ...DEMO.admin);
  },
});

Deno.test({
  name: 'the settings list has every setting with its category and typed value',
  ...DB_TEST,
  fn: async () => {
    const r = await call(t, 'GET', '/api/admin/settings', { token: admin });
    assert.equal(r.status, 200);
    const settings = r.body.data.settings as any[];
    const byKey = new Map(settings.map((s) => [s.key, s]));
    for (
      const key of [
        'failed_login_limit',
        'lockout_minutes',
        'session_idle_minutes',
        'department_abbreviation',
        'smtp_host',
      ]
    ) {
      assert.ok(byKey.has(key), key);
    }
    assert.deepEqual(byKey.get('failed_login_limit').value, { type: 'number', value: 5, unit: 'attempts' });
    assert.equal(byKey.get('failed_login_limit').category, 'security');
    assert.deepEqual(byKey.get('smtp_enabled').value, { type: 'boolean', value: false });
    assert.deepEqual(Object.keys(settings[0]).sort(), [
      'category',
      'description',
      'key',
      'updated_at',
      'value',
    ]);
  },
});

Deno.test({
  name: 'an update keeps the unit, is audited with the old and new value, and records who',
  ...DB_TEST,
  fn: async () => {
    await setOk('lockout_minutes', 15);
    assert.deepEqual(await stored('lockout_minutes'), { type: 'number', value: 15, unit: 'minutes' });
    const [audit] = await t.deps.sql<{ event_data: any; user_id: string }[]>`
    select event_data, user_id from audit_logs where event_type = 'setting_updated' order by id desc limit 1`;
    assert.deepEqual(audit.event_data, { key: 'lockout_minutes', from: 10, to: 15 });
    const [{ updated_by }] = await t.deps.sql<
      { updated_by: string }[]
    >`select updated_by from settings where key = 'lockout_minutes'`;
    assert.equal(updated_by, audit.user_id);
    await setOk('lockout_minutes', 10);
  },
});

Deno.test({
  name: 'wrong types, out-of-range numbers and bad text are 400 with the rule; nothing changes',
  ...DB_TEST,
  fn: async () => {
    const cases: [string, unknown, string | undefined, string][] = [
      ['failed_login_limit', '3', 'text', 'Failed login limit is a number setting.'],
      ['failed_login_limit', 0, undefined, FAILED_LIMIT],
      ['failed_login_limit', 6, undefined, FAILED_LIMIT],
      ['failed_login_limit', 2.5, undefined, FAILED_LIMIT],
      ['failed_login_limit', '3', 'number', FAILED_LIMIT],
      ['lockout_minutes', 1441, undefined, LOCKOUT],
      ['lockout_minutes', 9, undefined, LOCKOUT],
      ['session_idle_minutes', 4, undefined, IDLE],
      ['session_idle_minutes', 31, undefined, IDLE],
      ['session_max_hours', 73, undefined, 'Session maximum hours must be a whole number from 1 to 72.'],
      [
        'document_retention_days',
        3651,
        undefined,
        'Document retention days must be a whole number from 1 to 3650.',
      ],
      ['max_upload_mb', 101, undefined, 'Maximum upload size in MB must be a whole number from 1 to 100.'],
      ['smtp_port', 70000, undefined, 'SMTP port must be a whole number from 1 to 65535.'],
      ['smtp_enabled', 'yes', 'boolean', 'SMTP enabled must be true or false.'],
      ['smtp_enabled', 1, 'boolean', 'SMTP enabled must be true or false.'],
      [
        'department_abbreviation',
        'WAY TOO LONG ABBR',
        undefined,
        "Department abbreviation must be 1 to 12 characters: letters, digits, spaces, '.', '&' or '-'.",
      ],
      [
        'department_abbreviation',
        '<script>',
        undefined,
        "Department abbreviation must be 1 to 12 characters: letters, digits, spaces, '.', '&' or '-'.",
      ],
      ['smtp_host', 'not a host!', undefined, 'SMTP host must be empty or a host name or IP address.'],
      ['smtp_from', 'portal', undefined, 'SMTP sender must be an e-mail address.'],
    ];
    for (const [key, value, type, message] of cases) {
      const before = await stored(key);
      const r = await put(key, value, type);
      assert.equal(r.status, 400, `${key}=${JSON.stringify(value)}`);
      assert.equal(r.body.message, message);
      assert.deepEqual(await stored(key), before);
    }
    for (
      const body of [{}, { value: 5 }, { value: { type: 'date', value: 1 } }, { value: { type: 'number' } }]
    ) {
      const r = await call(t, 'PUT', '/api/admin/settings/failed_login_limit', { token: admin, body });
      assert.equal(r.status, 400, JSON.stringify(body));
    }
  },
});

Deno.test({
  name: 'an unknown setting is 404',
  ...DB_TEST,
  fn: async () => {
    const r = await put('no_such_setting', 5);
    assert.equal(r.status, 404);
    assert.equal(r.body.message, 'Setting not found.');
    assert.equal((await put('Bad-Key', 5)).status, 400);
  },
});

Deno.test({
  name: 'failed_login_limit takes effect at once: at 2, two failures lock the account',
  ...DB_TEST,
  fn: async () => {
    await setOk('failed_login_limit', 2);
    const user = await makeUser(t);
    for (let i = 0; i < 2; i++) {
      assert.equal((await login(user.username, 'wrong-one', '10.20.0.1')).status, 401);
    }
    assert.equal((await login(user.username, user.secret, '10.20.0.1')).status, 401, 'locked after 2');
    await setOk('failed_login_limit', 5);
    const other = await makeUser(t);
    for (let i = 0; i < 2; i++) {
      await login(other.username, 'wrong-one', '10.20.0.2');
    }
    assert.equal(
      (await login(other.username, other.secret, '10.20.0.2')).status,
      200,
      'back at 5, two are not enough',
    );
  },
});

Deno.test({
  name: 'lockout_minutes takes effect at once: the lock lasts the configured time',
  ...DB_TEST,
  fn: async () => {
    await setOk('failed_login_limit', 1);
    await setOk('lockout_minutes', 17);
    const user = await makeUser(t);
    await login(user.username, 'wrong-one', '10.21.0.1');
    const [row] = await t.deps.sql<{ minutes: number }[]>`
    select extract(epoch from locked_until - now())::float / 60 as minutes from login_lockouts where username = ${user.username}`;
    assert.ok(row.minutes > 16 && row.minutes <= 17, `locked for ${row.minutes} minutes`);
    await setOk('lockout_minutes', 11);
    const next = await makeUser(t);
    await login(next.username, 'wrong-one', '10.21.0.2');
    const [short] = await t.deps.sql<{ minutes: number }[]>`
    select extract(epoch from locked_until - now())::float / 60 as minutes from login_lockouts where username = ${next.username}`;
    assert.ok(short.minutes > 10 && short.minutes <= 11, `locked for ${short.minutes} minutes`);
    // Once the lock has passed, the right password works again.
    await t.deps
      .sql`update login_lockouts set locked_until = now() - interval '1 second' where username = ${next.username}`;
    assert.equal((await login(next.username, next.secret, '10.21.0.2')).status, 200);
    await setOk('failed_login_limit', 5);
    await setOk('lockout_minutes', 10);
  },
});

Deno.test({
  name: 'session_idle_minutes takes effect at once for a live session',
  ...DB_TEST,
  fn: async () => {
    const user = await makeUser(t);
    const token = await signIn(t, user.username, user.secret);
    await t.deps
      .sql`update sessions set last_seen_at = now() - interval '20 minutes' where user_id = ${user.id}`;
    await setOk('session_idle_minutes', 30);
    assert.equal(
      (await call(t, 'GET', '/api/auth/me', { token })).status,
      200,
      '20 idle minutes are fine under 30',
    );
    await t.deps
      .sql`update sessions set last_seen_at = now() - interval '20 minutes' where user_id = ${user.id}`;
    await setOk('session_idle_minutes', 15);
    assert.equal((await call(t, 'GET', '/api/auth/me', { token })).status, 401, 'and over 15');
    await setOk('session_idle_minutes', 30);
  },
});

Deno.test({
  name: 'department_abbreviation, max_upload_mb and pin_min_length show in /api/config at once',
  ...DB_TEST,
  fn: async () => {
    assert.equal((await call(t, 'GET', '/api/config')).body.data.pinMinLength, 6);
    await setOk('department_abbreviation', ' MO DOC ');
    await setOk('max_upload_mb', 25);
    await setOk('pin_min_length', 8);
    const r = await call(t, 'GET', '/api/config');
    assert.equal(r.body.data.departmentAbbreviation, 'MO DOC');
    assert.equal(r.body.data.maxUploadMb, 25);
    assert.equal(r.body.data.pinMinLength, 8);
    await setOk('department_abbreviation', 'DOC');
    await setOk('max_upload_mb', 10);
    await setOk('pin_min_length', 6);
  },
});

Deno.test({
  name: 'SMTP settings changed through the API make the worker deliver',
  ...DB_TEST,
  fn: async () => {
    const certificate = await makeCertificate();
    const smtp = await startSmtpRelay({ certificate, user: 'relay', password: 'relay-password' });
    // The login and the CA come from the environment (config.smtp), never from these audited settings.
    const options = {
      transport: { tls: undefined, user: 'relay', password: 'relay-password', caFile: certificate.cert },
    };
    try {
      const body = registrationBody();
      assert.equal((await call(t, 'POST', '/api/auth/register', { body })).status, 201);
      assert.deepEqual(
        await deliverDueEmails(t.deps.sql, options),
        { sent: 0, failed: 0 },
        'disabled: the message waits',
      );
      await setOk('smtp_host', '127.0.0.1');
      await setOk('smtp_port', smtp.port);
      await setOk('smtp_from', 'portal@doc.example');
      await setOk('smtp_enabled', true);
      assert.deepEqual(await deliverDueEmails(t.deps.sql, options), { sent: 1, failed: 0 });
      assert.equal(smtp.received.length, 1);
      assert.deepEqual(smtp.received[0].to, [body.email]);
      assert.equal(smtp.received[0].from, 'portal@doc.example');
    } finally {
      await smtp.close();
      await Deno.remove(certificate.dir, { recursive: true });
      await setOk('smtp_enabled', false);
    }
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
  },
});
