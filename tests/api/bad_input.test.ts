/**
 * Bad input on every endpoint of the account lifecycle: malformed JSON, wrong
 * types, missing fields, a 1 MB string. Always a 4xx JSON with a message a
 * person understands; never a 500, never a stack or SQL text.
 */
import assert from 'node:assert/strict';
import { call, type CallResult, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { registrationBody } from '../support/factories.ts';

let t: TestApp;
let approverToken: string;
let attorneyToken: string;
const MEGABYTE = 'x'.repeat(1024 * 1024);

function assertReadable4xx(r: CallResult, what: string) {
  assert.ok(r.status >= 400 && r.status < 500, `${what}: status ${r.status}`);
  assert.equal(typeof r.body, 'object', `${what}: body is not JSON: ${r.body}`);
  assert.equal(r.body.success, false, what);
  assert.equal(typeof r.body.message, 'string', what);
  assert.ok(r.body.message.length > 3 && r.body.message.length < 200, `${what}: ${r.body.message}`);
  assert.doesNotMatch(
    r.body.message,
    /at \w+ \(|file:\/\/|select |insert |ZodError|undefined|\[object/i,
    what,
  );
}

Deno.test({
  name: 'setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    approverToken = await signIn(t, ...DEMO.approver);
    attorneyToken = await signIn(t, ...DEMO.attorney);
  },
});

const registrationId = crypto.randomUUID();
const endpoints = () => [
  {
    method: 'POST',
    path: '/api/auth/login',
    token: undefined,
    valid: { username: 'a', password: 'b', entity: 'default' },
  },
  { method: 'POST', path: '/api/auth/register', token: undefined, valid: registrationBody() },
  {
    method: 'POST',
    path: '/api/auth/password',
    token: attorneyToken,
    valid: { currentPassword: 'x', newPassword: 'yyyyyyyy' },
  },
  {
    method: 'POST',
    path: `/api/approver/registrations/${registrationId}/reject`,
    token: approverToken,
    valid: { reason: 'r' },
  },
];

Deno.test({
  name: 'malformed JSON gets a readable 400',
  ...DB_TEST,
  fn: async () => {
    for (const e of endpoints()) {
      const r = await call(t, e.method, e.path, {
        token: e.token,
        rawBody: '{"username": "a",',
        headers: { 'content-type': 'application/json' },
      });
      assertReadable4xx(r, `${e.path} malformed`);
      assert.equal(r.status, 400);
    }
  },
});

Deno.test({
  name: 'wrong types in every field get a readable 400',
  ...DB_TEST,
  fn: async () => {
    for (const e of endpoints()) {
      for (const field of Object.keys(e.valid)) {
        for (const wrong of [12345, true, ['a'], { a: 1 }]) {
          if (field === 'isRepresentative' && typeof wrong === 'boolean') continue;
          const r = await call(t, e.method, e.path, { token: e.token, body: { ...e.valid, [field]: wrong } });
          assertReadable4xx(r, `${e.path} ${field}=${JSON.stringify(wrong)}`);
        }
      }
    }
  },
});

Deno.test({
  name: 'missing fields and an empty or non-object body get a readable 4xx',
  ...DB_TEST,
  fn: async () => {
    for (const e of endpoints()) {
      for (const body of [{}, [], 'text', null, 42]) {
        const r = await call(t, e.method, e.path, { token: e.token, body });
        assertReadable4xx(r, `${e.path} body=${JSON.stringify(body)}`);
      }
      const none = await call(t, e.method, e.path, { token: e.token });
      assertReadable4xx(none, `${e.path} without a body`);
    }
  },
});

Deno.test({
  name: 'a 1 MB string is refused with 413 before it is parsed',
  ...DB_TEST,
  fn: async () => {
    for (const e of endpoints()) {
      const field = Object.keys(e.valid)[0];
      const r = await call(t, e.method, e.path, { token: e.token, body: { ...e.valid, [field]: MEGABYTE } });
      assertReadable4xx(r, `${e.path} 1 MB`);
      assert.equal(r.status, 413);
    }
  },
});

Deno.test({
  name: 'long but smaller strings are refused as too long, not stored',
  ...DB_TEST,
  fn: async () => {
    const long = 'y'.repeat(5000);
    const r = await call(t, 'POST', '/api/auth/register', { body: registrationBody({ firstName: long }) });
    assertReadable4xx(r, 'register long name');
    const login = await call(t, 'POST', '/api/auth/login', { body: { username: long, password: long } });
    assertReadable4xx(login, 'login long');
    const [row] = await t.deps.sql<{ n: number }[]>`select count(*)::int as n from registrations`;
    assert.equal(row.n, 0);
  },
});

Deno.test({
  name: 'approve and reject with a malformed id get a readable 400',
  ...DB_TEST,
  fn: async () => {
    for (const action of ['approve', 'reject']) {
      const r = await call(
        t,
        'POST',
        `/api/approver/registrations/${encodeURIComponent("1' or 1=1 --")}/${action}`,
        {
          token: approverToken,
          body: { reason: 'x' },
        },
      );
      assertReadable4xx(r, action);
    }
  },
});

Deno.test({
  name: 'what a fuzzer found: odd paths, cursors, dates and names are each a readable 4xx, never a 500',
  ...DB_TEST,
  fn: async () => {
    // Fuzzing found each of these a 500, or a CSV export cut short.
    const admin = await signIn(t, ...DEMO.admin);
    const cursor = (value: Record<string, string>) =>
      btoa(JSON.stringify({ o: 'asc', i: crypto.randomUUID(), ...value })).replace(/\+/g, '-').replace(
        /\//g,
        '_',
      )
        .replace(/=+$/, '');
    const emoji = '%F0%9F%98%80';
    const probes: [string, string, string][] = [
      // The refusal's audit event kept the path: NUL, or an emoji cut at 200 characters, broke its JSON.
      [attorneyToken, 'GET', '/api/admin/users/%00/activity'],
      [attorneyToken, 'GET', `/api/admin/users/${'a'.repeat(182)}${emoji}/activity`],
      // Names every object has were taken for a sort.
      ...['constructor', '__proto__', 'toString', 'hasOwnProperty'].map((s): [string, string, string] => [
        attorneyToken,
        'GET',
        `/api/documents/attorney?after=${cursor({ s, v: 'x' })}`,
      ]),
      // A time before 4713 BC.
      [
        attorneyToken,
        'GET',
        `/api/documents/attorney?sort=date&after=${cursor({ s: 'date', v: '-999999999999999999' })}`,
      ],
      // An id past bigint, dates past what timestamps hold.
      [admin, 'GET', '/api/admin/audit-logs?cursor=9223372036854775808'],
      [admin, 'GET', '/api/admin/audit-logs?endDate=9999-12-31'],
      [admin, 'GET', '/api/admin/audit-logs?startDate=0000-01-01T00:00Z'],
      [admin, 'GET', '/api/admin/audit-logs/export.csv?endDate=9999-12-31'],
    ];
    for (const [token, method, path] of probes) {
      const r = await call(t, method, path, { token });
      assert.ok(r.status < 500, `${path}: ${r.status}`);
      if (r.status >= 400) assertReadable4xx(r, path);
    }
    // A name the registration took but the account could never hold: approval was a 500 every time.
    const long = await call(t, 'POST', '/api/auth/register', {
      body: registrationBody({ firstName: 'a'.repeat(150) }),
    });
    assertReadable4xx(long, 'a 150-character first name');
    assert.equal(long.body.message, 'Please keep each name under 100 characters.');
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
  },
});
