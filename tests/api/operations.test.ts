/** What an operator relies on: request ids, the JSON log lines, and the liveness and readiness probes. */
import assert from 'node:assert/strict';
import { createApp } from '../../api/app.ts';
import { FsBlobStore } from '../../api/blobs/fs_store.ts';
import { loadConfig } from '../../api/config.ts';
import { createLogger } from '../../api/log.ts';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';

let t: TestApp;
const lines: string[] = [];
/** The test app with a log that keeps its lines, and `overrides` for its dependencies. */
function appWith(overrides: Partial<TestApp['deps']> = {}, env: Record<string, string> = {}): TestApp {
  const config = { ...loadConfig({ LOG_LEVEL: 'info', ...env }), logFormat: 'json' as const };
  const log = createLogger(config, (_level, line) => lines.push(line));
  const deps = { ...t.deps, config, log, ...overrides };
  return { ...t, deps, app: createApp(deps) };
}

Deno.test({
  name: 'setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
  },
});

Deno.test({
  name: 'every answer carries a fresh X-Request-Id; a client cannot choose it',
  ...DB_TEST,
  fn: async () => {
    const a = await call(t, 'GET', '/api/health');
    const b = await call(t, 'GET', '/api/health', { headers: { 'x-request-id': 'forged-by-client-123' } });
    assert.match(a.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    assert.match(b.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    assert.notEqual(a.headers.get('x-request-id'), b.headers.get('x-request-id'));
    assert.equal((await call(t, 'GET', '/api/nope')).headers.get('x-request-id')?.length, 36, 'on a 404 too');
  },
});

Deno.test({
  name: 'the request id and the default no-store reach answers made before and after the handler alike',
  ...DB_TEST,
  fn: async () => {
    // A JSON answer takes them from the start (set before the handler); the CSV export is a Response of its own
    // and gets them after it.
    const admin = await signIn(t, ...DEMO.admin);
    const json = await call(t, 'GET', '/api/admin/audit-logs?limit=1', { token: admin });
    assert.equal(json.status, 200);
    assert.equal(json.headers.get('cache-control'), 'no-store');
    assert.match(json.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    const csv = await call(t, 'GET', '/api/admin/audit-logs/export.csv?eventType=none_such', {
      token: admin,
    });
    assert.equal(csv.status, 200);
    assert.equal(csv.headers.get('cache-control'), 'no-store');
    assert.match(csv.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    assert.ok(csv.headers.get('content-security-policy'), 'the security headers too');
  },
});

Deno.test({
  name: "a trusted proxy's request id is kept, so its log and ours share it",
  ...DB_TEST,
  fn: async () => {
    const behind = appWith({}, { TRUSTED_PROXIES: '10.0.0.1' });
    const r = await call(behind, 'GET', '/api/health', {
      ip: '10.0.0.1',
      headers: { 'x-request-id': 'nginx-0123456789abcdef' },
    });
    assert.equal(r.headers.get('x-request-id'), 'nginx-0123456789abcdef');
    const bad = await call(behind, 'GET', '/api/health', {
      ip: '10.0.0.1',
      headers: { 'x-request-id': 'a b {"level":"x"}' },
    });
    assert.match(
      bad.headers.get('x-request-id') ?? '',
      /^[0-9a-f-]{36}$/,
      'an id that is not a plain token is replaced',
    );
  },
});

Deno.test({
  name:
    'a JSON log line per API request: level, time, request id, route, status, duration, user id; no secrets',
  ...DB_TEST,
  fn: async () => {
    lines.length = 0;
    const logged = appWith();
    const token = await signIn(logged, ...DEMO.offender);
    const me = await call(logged, 'GET', '/api/auth/me', { token });
    const entries = lines.map((l) => JSON.parse(l));
    const login = entries.find((e) => e.route === '/api/auth/login');
    assert.equal(login.status, 200);
    const mine = entries.find((e) => e.request_id === me.headers.get('x-request-id'));
    assert.equal(mine.level, 'info');
    assert.equal(mine.msg, 'request');
    assert.equal(mine.method, 'GET');
    assert.equal(mine.route, '/api/auth/me');
    assert.equal(mine.status, 200);
    assert.equal(typeof mine.duration_ms, 'number');
    assert.ok(!Number.isNaN(Date.parse(mine.time)));
    const [offender] = await t.deps.sql<
      { id: string }[]
    >`select id::text as id from users where doc_number = ${DEMO.offender[0]}`;
    assert.equal(mine.user_id, offender.id, 'the signed-in user is named by id');
    const all = lines.join('\n');
    for (const secret of [DEMO.offender[1], token, token.split('.')[2]]) {
      assert.ok(!all.includes(secret), 'no PIN or token');
    }
    // A document id in the path shows as the route pattern, never the path itself.
    await call(logged, 'GET', '/api/documents/view/00000000-0000-0000-0000-000000000000', { token });
    assert.ok(!lines.join('\n').includes('00000000-0000-0000-0000-000000000000'));
    assert.equal(me.status, 200);
  },
});

Deno.test('LOG_FORMAT=text writes one readable line', () => {
  const out: string[] = [];
  const log = createLogger({ logFormat: 'text', logLevel: 'info' }, (_l, line) => out.push(line));
  log.info('request', { route: '/api/auth/me', status: 200, user_id: undefined });
  assert.match(out[0], /^\d{4}-\d\d-\d\dT[\d:.]+Z INFO {2}request route=\/api\/auth\/me status=200$/);
  assert.deepEqual(loadConfig({ LOG_FORMAT: 'text' }).logFormat, 'text');
  assert.throws(() => loadConfig({ LOG_FORMAT: 'xml' }), /LOG_FORMAT/);
});

Deno.test('LOG_FORMAT unset: readable lines on a terminal, JSON lines for journald, containers and collectors', () => {
  assert.equal(loadConfig({}, { terminal: true }).logFormat, 'text');
  assert.equal(loadConfig({}, { terminal: false }).logFormat, 'json');
  assert.equal(loadConfig({ LOG_FORMAT: '' }, { terminal: false }).logFormat, 'json');
  assert.equal(loadConfig({ LOG_FORMAT: 'json' }, { terminal: true }).logFormat, 'json', 'asked for JSON');
  assert.equal(loadConfig({ LOG_FORMAT: 'text' }, { terminal: false }).logFormat, 'text');
});

Deno.test({
  name:
    "/api/health/live answers; /api/health/ready checks database, migrations and blob store (each in the admin's view)",
  ...DB_TEST,
  fn: async () => {
    assert.deepEqual((await call(t, 'GET', '/api/health/live')).body, { success: true, status: 'live' });
    const ready = await call(t, 'GET', '/api/health/ready');
    assert.equal(ready.status, 200);
    assert.deepEqual(ready.body, { success: true, status: 'ready' });
    const admin = await signIn(t, ...DEMO.admin);
    const view = await call(t, 'GET', '/api/admin/health', { token: admin });
    assert.deepEqual(view.body.data.checks, { database: 'ok', migrations: 'ok', blobStore: 'ok' });
    assert.equal((await call(t, 'GET', '/api/health')).body.status, 'ok', 'the old probe still works');
  },
});

Deno.test({
  name: '/api/health/ready is 503 with JSON when a migration is missing or blobs cannot be written',
  ...DB_TEST,
  fn: async () => {
    const [last] = await t.deps.sql<{ version: string; name: string }[]>`
    select version, name from schema_migrations order by version desc limit 1`;
    await t.deps.sql`delete from schema_migrations where version = ${last.version}`;
    try {
      const r = await call(t, 'GET', '/api/health/ready');
      assert.equal(r.status, 503);
      assert.deepEqual(r.body, { success: false, message: 'Not ready.' });
      const admin = await signIn(t, ...DEMO.admin);
      const view = await call(t, 'GET', '/api/admin/health', { token: admin });
      assert.match(view.body.data.checks.migrations, new RegExp(last.version));
    } finally {
      await t.deps.sql`insert into schema_migrations (version, name) values (${last.version}, ${last.name})`;
    }
    const readOnly = appWith({ blobs: new FsBlobStore('/proc/lmp-not-writable') });
    const r = await call(readOnly, 'GET', '/api/health/ready');
    assert.equal(r.status, 503);
    const view = await call(readOnly, 'GET', '/api/admin/health', { token: await signIn(t, ...DEMO.admin) });
    assert.equal(view.body.data.checks.database, 'ok');
    assert.notEqual(view.body.data.checks.blobStore, 'ok');
    assert.equal((await call(readOnly, 'GET', '/api/health/live')).status, 200, 'alive all the same');
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
  },
});
