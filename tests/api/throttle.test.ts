import assert from 'node:assert/strict';
import { call, createTestApp, DB_TEST, type TestApp } from '../support/app.ts';
import { makeUser } from '../support/factories.ts';
import { OFFENDER_LIMITS, offenderDelaySeconds } from '../../api/domain/sign_in_throttle.ts';

let t: TestApp;
const GENERIC = 'Please check your login credentials.';
/** The answer while the lock is in force: how long it lasts, never whether the secret was right. */
const LOCKED = (minutes: number) => ({
  success: false,
  code: 'account_locked',
  message:
    `Too many failed sign-ins: this account is locked for ${minutes} minutes. Please sign in again after that.`,
  detail: String(minutes),
});

const attempt = (username: string, password: string, ip: string) =>
  call(t, 'POST', '/api/auth/login', { body: { username, password, entity: 'default' }, ip });

Deno.test({
  name: 'setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
  },
});

Deno.test({
  name:
    'after 5 consecutive failures a staff account is locked for the lock time, and the right password is told so, not that it is wrong',
  ...DB_TEST,
  fn: async () => {
    const staff = await makeUser(t, { secret: 'Right-Pass-4242!' });
    for (let i = 0; i < 4; i++) {
      const r = await attempt(staff.username, 'Wrong-Pass-1!', '10.1.0.1');
      assert.equal(r.status, 401);
      assert.equal(r.body.message, GENERIC);
    }
    const fifth = await attempt(staff.username, 'Wrong-Pass-1!', '10.1.0.1');
    assert.deepEqual({ status: fifth.status, body: fifth.body }, { status: 401, body: LOCKED(10) });
    const locked = await attempt(staff.username, staff.secret, '10.1.0.2');
    assert.deepEqual({ status: locked.status, body: locked.body }, { status: 401, body: LOCKED(10) });
    // Minutes left, rounded up: a lock ending in 61 seconds is 2 minutes away.
    await t.deps.sql`update login_lockouts set locked_until = now() + interval '61 seconds'
                     where username = ${staff.username}`;
    assert.deepEqual((await attempt(staff.username, staff.secret, '10.1.0.2')).body, {
      ...LOCKED(2),
    });
    await t.deps.sql`update login_lockouts set locked_until = now() + interval '20 seconds'
                     where username = ${staff.username}`;
    assert.equal(
      (await attempt(staff.username, staff.secret, '10.1.0.2')).body.message,
      'Too many failed sign-ins: this account is locked for 1 minute. Please sign in again after that.',
    );
    const events = await t.deps.sql<{ event_type: string }[]>`
    select event_type from audit_logs where event_data->>'username' = ${staff.username} order by id`;
    assert.ok(events.some((e) => e.event_type === 'account_locked'));
    assert.equal(events.at(-1)?.event_type, 'login_failed');

    // Ten minutes later the lock is gone and the right password works.
    await t.deps
      .sql`update login_lockouts set locked_until = now() - interval '1 second' where username = ${staff.username}`;
    assert.equal((await attempt(staff.username, staff.secret, '10.1.0.3')).status, 200);
  },
});

/** Moves an account's last failure back by `seconds`, as waiting that long would. */
async function waitOut(username: string, seconds: number) {
  await t.deps
    .sql`update login_lockouts set last_failure_at = last_failure_at - make_interval(secs => ${seconds})
                   where username = ${username}`;
}

/**
 * Moves an account's last failure to now, as an attempt straight after it would find it: the wait an attempt is
 * told runs from the last failure, and on a loaded machine the attempts themselves take seconds.
 */
async function justFailed(username: string) {
  await t.deps.sql`update login_lockouts set last_failure_at = now()
                   where username = ${username} and last_failure_at is not null`;
}

/** The answer while an offender account's wait runs. */
const WAIT = (seconds: number) => ({
  success: false,
  code: 'sign_in_wait',
  message: `Too many failed sign-ins for this account. Please wait ${seconds} seconds and try again.`,
  detail: String(seconds),
});

Deno.test({
  name:
    "an offender's wrong PINs slow the account and never lock it: after 5 wrong PINs the right PIN gets in once the wait has passed",
  ...DB_TEST,
  fn: async () => {
    const offender = await makeUser(t, { role: 'offender', secret: '424242' });
    const ip = '10.1.1.1';
    // Two mistyped PINs cost nothing; the third asks for 5 s before the next try, then 10 s, 20 s.
    for (let i = 0; i < 3; i++) {
      const r = await attempt(offender.username, '000000', ip);
      assert.deepEqual([r.status, r.body.code], [401, 'bad_credentials']);
    }
    await justFailed(offender.username);
    const early = await attempt(offender.username, '000000', ip);
    assert.deepEqual({ status: early.status, body: early.body }, { status: 429, body: WAIT(5) });
    assert.equal(early.headers.get('retry-after'), '5');
    await waitOut(offender.username, 5);
    assert.equal((await attempt(offender.username, '000000', ip)).body.code, 'bad_credentials');
    await waitOut(offender.username, 10);
    assert.equal((await attempt(offender.username, '000000', ip)).body.code, 'bad_credentials');
    // Five wrong PINs: the right one, from this address or any other, waits 20 s and is not checked meanwhile.
    for (const from of [ip, '10.1.1.2']) {
      await justFailed(offender.username);
      const waiting = await attempt(offender.username, offender.secret, from);
      assert.deepEqual({ status: waiting.status, body: waiting.body }, { status: 429, body: WAIT(20) });
    }
    const [row] = await t.deps.sql<{ failures: number; locked_until: Date | null }[]>`
      select consecutive_failures as failures, locked_until from login_lockouts where username = ${offender.username}`;
    assert.deepEqual(row, { failures: 5, locked_until: null }, 'counted five, and no lock');
    await waitOut(offender.username, 20);
    assert.equal((await attempt(offender.username, offender.secret, ip)).status, 200);
    const events = await t.deps.sql<{ event_type: string; reason: string | null }[]>`
      select event_type, event_data->>'reason' as reason from audit_logs
      where event_data->>'username' = ${offender.username} order by id`;
    assert.equal(events.filter((e) => e.event_type === 'account_locked').length, 0);
    assert.equal(events.filter((e) => e.reason === 'account_delay').length, 3);
    // The success started the count again: two more mistyped PINs cost nothing.
    for (let i = 0; i < 2; i++) assert.equal((await attempt(offender.username, '111111', ip)).status, 401);
    assert.equal((await attempt(offender.username, offender.secret, ip)).status, 200);
  },
});

Deno.test({
  name:
    "an offender account's wait is a minute at most, and its 100th consecutive failure locks it for 24 hours, which an admin lifts",
  ...DB_TEST,
  fn: async () => {
    const offender = await makeUser(t, { role: 'offender', secret: '515151' });
    const ip = '10.1.2.1';
    assert.equal((await attempt(offender.username, '000000', ip)).status, 401);
    // Twenty failures in a row, the last 59 s ago: the wait is the cap, a minute, so 1 s is left.
    await t.deps
      .sql`update login_lockouts set consecutive_failures = 20, last_failure_at = now() - interval '59 seconds'
                     where username = ${offender.username}`;
    const capped = await attempt(offender.username, offender.secret, ip);
    assert.equal(capped.status, 429);
    assert.equal(
      capped.body.message,
      'Too many failed sign-ins for this account. Please wait 1 second and try again.',
    );
    // The hundredth consecutive failure locks the account for a day, answered as the lock with its minutes.
    await t.deps
      .sql`update login_lockouts set consecutive_failures = 99, last_failure_at = now() - interval '61 seconds'
                     where username = ${offender.username}`;
    const hundredth = await attempt(offender.username, '000000', ip);
    assert.deepEqual({ status: hundredth.status, body: hundredth.body }, { status: 401, body: LOCKED(1440) });
    const right = await attempt(offender.username, offender.secret, '10.1.2.2');
    assert.deepEqual({ status: right.status, body: right.body }, { status: 401, body: LOCKED(1440) });
    const [{ locked }] = await t.deps.sql<{ locked: number }[]>`
      select count(*)::int as locked from audit_logs
      where event_type = 'account_locked' and event_data->>'username' = ${offender.username}
        and event_data->>'minutes' = '1440'`;
    assert.equal(locked, 1);
    // An admin's Unlock lifts it at once.
    const admin = await makeUser(t, { role: 'admin' });
    const token = (await attempt(admin.username, admin.secret, '10.1.2.3')).body.token;
    const unlocked = await call(t, 'POST', `/api/admin/users/${offender.id}/unlock`, {
      token,
      ip: '10.1.2.3',
    });
    assert.equal(unlocked.status, 200, JSON.stringify(unlocked.body));
    assert.equal((await attempt(offender.username, offender.secret, ip)).status, 200);
  },
});

Deno.test({
  name: 'a success resets the count of consecutive failures',
  ...DB_TEST,
  fn: async () => {
    const user = await makeUser(t);
    for (let i = 0; i < 4; i++) await attempt(user.username, 'wrong-password', '10.2.0.1');
    assert.equal((await attempt(user.username, user.secret, '10.2.0.1')).status, 200);
    for (let i = 0; i < 4; i++) await attempt(user.username, 'wrong-password', '10.2.0.2');
    assert.equal((await attempt(user.username, user.secret, '10.2.0.2')).status, 200);
  },
});

Deno.test({
  name: 'unknown usernames lock and wait the same way, with the same answers, so neither tells anything',
  ...DB_TEST,
  fn: async () => {
    for (let i = 0; i < 6; i++) {
      const r = await attempt('nobody-here@example.test', 'Wrong-Pass-1!', '10.3.0.1');
      assert.equal(r.status, 401);
      assert.deepEqual(
        r.body,
        i < 4 ? { success: false, code: 'bad_credentials', message: GENERIC } : LOCKED(10),
      );
    }
    const [row] = await t.deps
      .sql`select locked_until from login_lockouts where username = 'nobody-here@example.test'`;
    assert.ok(row.locked_until);
    // A DOC number nobody holds waits exactly as a real one does.
    const offender = await makeUser(t, { role: 'offender', secret: '626262' });
    // Each attempt as if it came straight after the one before, so that both sequences are told the same waits.
    const answers = async (username: string, ip: string) => {
      const out: unknown[] = [];
      for (let i = 0; i < 4; i++) {
        await justFailed(username);
        const r = await attempt(username, '000000', ip);
        out.push({ status: r.status, body: r.body });
      }
      return out;
    };
    assert.deepEqual(await answers('999999', '10.3.0.2'), await answers(offender.username, '10.3.0.3'));
  },
});

Deno.test({
  name:
    'mistyped PINs from one address never shut staff out of it: DOC numbers and e-mail addresses have a budget each, and each 429 says how many minutes',
  ...DB_TEST,
  fn: async () => {
    const ip = '10.6.0.1';
    const admin = await makeUser(t, { role: 'admin' });
    // Eleven mistyped PINs across DOC numbers: the eleventh is told to wait the window out.
    for (let i = 0; i < 10; i++) assert.equal((await attempt(`44400${i}`, '123456', ip)).status, 401);
    const pins = await attempt('444010', '123456', ip);
    assert.equal(pins.status, 429);
    assert.deepEqual(pins.body, {
      success: false,
      code: 'throttled',
      message: 'Too many failed sign-in attempts from this device. Please try again in 30 minutes.',
      detail: '30',
    });
    assert.ok(Number(pins.headers.get('retry-after')) > 29 * 60, 'Retry-After: the same wait, in seconds');
    // The admin's right password from the same address still signs in.
    assert.equal((await attempt(admin.username, admin.secret, ip)).status, 200);
    // Staff have their own ten; the eleventh wrong password waits, and DOC numbers are still refused.
    for (let i = 0; i < 10; i++) {
      assert.equal((await attempt(`typo-${i}@example.test`, 'Wrong-Pass-1!', ip)).status, 401);
    }
    assert.equal((await attempt(admin.username, admin.secret, ip)).status, 429);
    assert.equal((await attempt('444011', '123456', ip)).status, 429);
    // The wait is until the oldest failure that keeps the budget full leaves the window, rounded up: the failures
    // moved back together until the oldest is 28 min 30 s old now (however long they took to make), 90 s left.
    await t.deps.sql`update login_failures
                     set created_at = created_at + (now() - interval '28 minutes 30 seconds' - (
                       select min(created_at) from login_failures where ip_address = ${ip} and staff))
                     where ip_address = ${ip} and staff`;
    assert.equal(
      (await attempt(admin.username, admin.secret, ip)).body.message,
      'Too many failed sign-in attempts from this device. Please try again in 2 minutes.',
    );
  },
});

Deno.test({
  name: 'one address gets 429 after 10 failures in 30 minutes, even with a right PIN elsewhere',
  ...DB_TEST,
  fn: async () => {
    const target = await makeUser(t, { role: 'offender', secret: '777777' });
    // Spraying one PIN across many DOC numbers: never 5 failures on one username.
    for (let i = 0; i < 10; i++) {
      const r = await attempt(`55500${i}`, '123456', '10.4.0.1');
      assert.equal(r.status, 401);
    }
    const blocked = await attempt(target.username, '777777', '10.4.0.1');
    assert.equal(blocked.status, 429);
    assert.equal(blocked.body.success, false);
    // Another address is not affected.
    assert.equal((await attempt(target.username, '777777', '10.4.0.2')).status, 200);
    // When the window passes, the address may try again.
    await t.deps.sql`delete from login_failures where ip_address = '10.4.0.1'`;
    assert.equal((await attempt(target.username, '777777', '10.4.0.1')).status, 200);
    const [audited] = await t.deps
      .sql`select 1 from audit_logs where event_type = 'login_throttled' and ip_address = '10.4.0.1'`;
    assert.ok(audited);
  },
});

Deno.test({
  name: 'the failed-login limit and lock minutes follow the settings without a restart',
  ...DB_TEST,
  fn: async () => {
    await t.deps
      .sql`update settings set value = jsonb_set(value, '{value}', '3') where key = 'failed_login_limit'`;
    await t.deps
      .sql`update settings set value = jsonb_set(value, '{value}', '60') where key = 'lockout_minutes'`;
    try {
      const user = await makeUser(t);
      for (let i = 0; i < 3; i++) await attempt(user.username, 'wrong-password', '10.5.0.1');
      assert.equal((await attempt(user.username, user.secret, '10.5.0.2')).status, 401);
      const [row] = await t.deps.sql<{ minutes: number }[]>`
      select round(extract(epoch from locked_until - now()) / 60)::int as minutes from login_lockouts
      where username = ${user.username}`;
      assert.equal(row.minutes, 60);
    } finally {
      await t.deps
        .sql`update settings set value = jsonb_set(value, '{value}', '5') where key = 'failed_login_limit'`;
      await t.deps
        .sql`update settings set value = jsonb_set(value, '{value}', '10') where key = 'lockout_minutes'`;
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

Deno.test("docs/security.md's figures for the offender waits are the code's: per round, per day, per year", async () => {
  const text = (await Deno.readTextFile(new URL('../../docs/security.md', import.meta.url))).replace(
    /\s+/g,
    ' ',
  );
  const waits = [1, 2, 3, 4, 5, 6, 7, 50].map(offenderDelaySeconds);
  assert.deepEqual(waits, [0, 0, 5, 10, 20, 40, 60, 60]);
  assert.match(
    text,
    /after the third the next try waits 5 s, then 10 s, 20 s, 40 s, and never more than 60 s/,
  );
  const limit = OFFENDER_LIMITS.limit;
  // From the first failure to the 100th: the waits after each of the 99 before it.
  let seconds = 0;
  for (let failures = 1; failures < limit; failures++) seconds += offenderDelaySeconds(failures);
  const minutes = Math.round(seconds / 60);
  const roundHours = (seconds / 60 + OFFENDER_LIMITS.lockMinutes) / 60;
  const perDay = Math.round((limit * 24) / roundHours);
  const perYear = (limit * 365 * 24) / roundHours;
  const PINS = 1_000_000;
  assert.equal(minutes, 94);
  assert.ok(text.includes(`the 100th failure comes about ${minutes} minutes after the first`));
  assert.ok(text.includes(`locks the account for ${OFFENDER_LIMITS.lockMinutes / 60} hours`));
  assert.equal(Math.round(roundHours * 2) / 2, 25.5);
  assert.ok(
    text.includes(`each round is ${limit} guesses in about 25½ hours, about ${perDay} guesses a day`),
  );
  assert.equal(Math.round(PINS / perDay / 1000), 11, 'about 1 in 10,000 a day (1 in 10,600)');
  assert.ok(text.includes('a chance of about 1 in 10,000 a day'));
  assert.ok(text.includes(`about ${(100 * perYear / PINS).toFixed(1)}% in a year`));
  assert.ok(text.includes(`some ${Math.round(perYear / 1000)},000 guesses`));
  // Without the lock: one guess a minute.
  assert.equal(offenderDelaySeconds(limit), 60);
  assert.ok(text.includes('1,440 guesses a day would find about half of all PINs in a year'));
  assert.equal(Math.round((1440 * 365 * 100) / PINS / 10) * 10, 50);
});
