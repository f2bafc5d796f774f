/**
 * On a real server the guard's session check runs on a pool of its own (Database.sessionSql): the statement of
 * every request, with what the route carries in it, goes there, and the route's other work stays on `sql`.
 * PGlite is one connection in all, so there is nothing to show on it.
 */
import assert from 'node:assert/strict';
import postgres from 'postgres';
import { createApp } from '../../api/app.ts';
import type { Sql } from '../../api/db/client.ts';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { testBackend } from '../support/db.ts';

const onServer = testBackend() === 'postgres';
const APPLICATION = 'lmp-session-check-test';
let t: TestApp;
let sessionSql: Sql;

Deno.test({
  name: 'setup',
  ...DB_TEST,
  ignore: !onServer,
  fn: async () => {
    t = await createTestApp();
    // The same database through a pool that names itself, so the server shows which pool ran what.
    sessionSql = postgres(t.db.url!, {
      max: 1,
      onnotice: () => {},
      connection: { application_name: APPLICATION },
    }) as unknown as Sql;
    t = { ...t, app: createApp({ ...t.deps, sessionSql }) };
  },
});

Deno.test({
  name: 'a real server gives the session check a pool of its own',
  ...DB_TEST,
  ignore: !onServer,
  fn: () => {
    assert.ok(t.db.sessionSql, 'connectPostgres made no session pool');
    assert.notEqual(t.db.sessionSql, t.db.sql);
  },
});

Deno.test({
  name: "the offender's list: its session check runs on the session pool",
  ...DB_TEST,
  ignore: !onServer,
  fn: async () => {
    const token = await signIn(t, ...DEMO.offender);
    const list = await call(t, 'GET', '/api/documents/offender/100001', { token });
    assert.equal(list.status, 200, JSON.stringify(list.body));
    const [ran] = await t.db.sql<{ query: string }[]>`
      select query from pg_stat_activity where application_name = ${APPLICATION} and datname = current_database()`;
    assert.ok(ran, 'nothing ran on the session pool');
    // pg_stat_activity keeps the first 1 KB of the statement: the session check's own part.
    assert.match(ran.query, /last_seen_at <= now\(\) - \$\d+ \* interval '1 second' as stale/);
  },
});

Deno.test({
  name: 'a session ended on the shared pool is refused at once through the session pool',
  ...DB_TEST,
  ignore: !onServer,
  fn: async () => {
    const token = await signIn(t, ...DEMO.offender);
    assert.equal((await call(t, 'GET', '/api/documents/offender/100001', { token })).status, 200);
    assert.equal((await call(t, 'POST', '/api/auth/logout', { token })).status, 200);
    assert.equal((await call(t, 'GET', '/api/documents/offender/100001', { token })).status, 401);
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  ignore: !onServer,
  fn: async () => {
    await sessionSql.end({ timeout: 5 });
    await t.close();
  },
});
