/**
 * GET /api/admin/users with page parameters (issue 12): keyset pages newest first, the screen's search, role and
 * status filters on the server. Without them the answer is the whole list, as before (admin_users.test.ts).
 */
import assert from 'node:assert/strict';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { makeUser } from '../support/factories.ts';

let t: TestApp;
let admin: string;

Deno.test({
  name: 'setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    admin = await signIn(t, ...DEMO.admin);
  },
});

const get = async (query: string) => await call(t, 'GET', `/api/admin/users${query}`, { token: admin });

Deno.test({
  name: 'without page parameters the whole list comes back as before, with no cursor',
  ...DB_TEST,
  fn: async () => {
    const r = await get('');
    assert.equal(r.status, 200);
    const [{ count }] = await t.deps.sql<{ count: number }[]>`select count(*)::int as count from users`;
    assert.equal(r.body.users.length, count);
    assert.equal('nextCursor' in r.body, false);
  },
});

Deno.test({
  name: 'pages of `limit` users follow each other newest first, without gaps or repeats, to a null cursor',
  ...DB_TEST,
  fn: async () => {
    // Several users in the same instant: the id breaks the tie, so no page boundary loses one.
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await makeUser(t, { lastName: `Paged ${i}` }));
    await t.deps.sql`update users set created_at = '2020-01-01T00:00:00Z' where id = any(${
      made.map((m) => m.id)
    })`;
    const whole = (await get('')).body.users.map((u: { id: string }) => u.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r = await get(`?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.ok(r.body.users.length <= 3);
      seen.push(...r.body.users.map((u: { id: string }) => u.id));
      cursor = r.body.nextCursor;
      pages++;
    } while (cursor && pages < 100);
    assert.deepEqual(seen, whole);
  },
});

Deno.test({
  name: 'the search matches the full name, the e-mail or the DOC number in any case; role and status filter',
  ...DB_TEST,
  fn: async () => {
    const ada = await makeUser(t, { firstName: 'Ada', lastName: 'Quixotic' });
    const offender = await makeUser(t, { role: 'offender', docNumber: 'ZQ77123', lastName: 'Plain' });
    const gone = await makeUser(t, { firstName: 'Ada', lastName: 'Quixotic-Gone', status: 'deactivated' });
    const ids = async (query: string) => {
      const r = await get(query);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return (r.body.users as { id: string }[]).map((u) => u.id).sort();
    };
    assert.deepEqual(await ids('?q=a%20QUIXOTIC'), [ada.id, gone.id].sort(), 'across first and last name');
    assert.deepEqual(await ids(`?q=${encodeURIComponent(ada.username.toUpperCase())}`), [ada.id]);
    assert.deepEqual(await ids('?q=zq771'), [offender.id]);
    assert.deepEqual(await ids('?q=quixotic&status=deactivated'), [gone.id]);
    assert.deepEqual(await ids('?q=quixotic&status=all&role=attorney'), [ada.id, gone.id].sort());
    assert.deepEqual(await ids('?q=quixotic&role=offender'), []);
    assert.deepEqual(await ids('?q=%25'), [], 'a % is a character, not a wildcard');
  },
});

Deno.test({
  name: 'bad page parameters are refused with a message (400)',
  ...DB_TEST,
  fn: async () => {
    for (
      const query of ['?limit=0', '?limit=201', '?limit=x', '?cursor=12', '?role=king', '?status=asleep']
    ) {
      const r = await get(query);
      assert.equal(r.status, 400, query);
      assert.equal(r.body.success, false);
      assert.equal(typeof r.body.message, 'string');
    }
  },
});

Deno.test({
  name: 'only admins may search users (403 for an attorney)',
  ...DB_TEST,
  fn: async () => {
    const attorney = await signIn(t, ...DEMO.attorney);
    assert.equal((await call(t, 'GET', '/api/admin/users?q=a', { token: attorney })).status, 403);
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
  },
});
