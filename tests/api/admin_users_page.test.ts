/**
 * GET /api/admin/users with page parameters: keyset pages newest first, the screen's search, role and
 * status filters on the server, the total of matching users, and the trigram indexes the search can use
 * (migration 0015). Without page parameters the answer is the whole list, as before (admin_users.test.ts).
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
  name: 'the search is a plain substring: anywhere in the text, blank name parts left out, no wildcards',
  ...DB_TEST,
  fn: async () => {
    const lone = await makeUser(t, { firstName: '  ', lastName: ' Zebulon ' });
    const under = await makeUser(t, { firstName: 'Ul_Wild', lastName: 'Card', email: 'x_y@wild.test' });
    const other = await makeUser(t, { firstName: 'UlXWild', lastName: 'Card', email: 'xzy@wild.test' });
    const ids = async (q: string) =>
      ((await get(`?q=${encodeURIComponent(q)}`)).body.users as { id: string }[]).map((u) => u.id).sort();
    assert.deepEqual(await ids('zebulon'), [lone.id], 'a blank first name leaves the last name alone');
    assert.deepEqual(await ids(' ZEBULON  '), [lone.id], 'the search is trimmed');
    assert.deepEqual(await ids('bulo'), [lone.id], 'a substring in the middle');
    assert.deepEqual(await ids('wild card'), [under.id, other.id].sort(), 'first and last name, one space');
    assert.deepEqual(await ids('l_w'), [under.id], 'an underscore is a character, not any character');
    assert.deepEqual(await ids('x_y@'), [under.id]);
    assert.deepEqual(await ids('\\'), [], 'a backslash is a character');
  },
});

Deno.test({
  name: 'every page carries the total of the users matching the filters, whatever the limit',
  ...DB_TEST,
  fn: async () => {
    const [{ all }] = await t.deps.sql<{ all: number }[]>`select count(*)::int as all from users`;
    const first = await get('?limit=1');
    assert.equal(first.body.total, all);
    assert.equal(first.body.users.length, 1);
    const second = await get(`?limit=1&cursor=${first.body.nextCursor}`);
    assert.equal(second.body.total, all, 'a later page counts the same');
    for (let i = 0; i < 3; i++) await makeUser(t, { firstName: 'Totalia', lastName: `Count ${i}` });
    await makeUser(t, { firstName: 'Totalia', lastName: 'Gone', status: 'deactivated' });
    const searched = await get('?q=totalia&limit=2');
    assert.deepEqual([searched.body.users.length, searched.body.total], [2, 4]);
    assert.equal((await get('?q=totalia&status=active&limit=2')).body.total, 3);
    assert.equal((await get('?q=totalia&role=offender')).body.total, 0);
    const [{ offenders }] = await t.deps.sql<{ offenders: number }[]>`
      select count(*)::int as offenders from users where role = 'offender'`;
    assert.equal((await get('?role=offender&limit=1')).body.total, offenders);
  },
});

Deno.test({
  name: 'the name, e-mail and DOC number searches can each use their trigram index (migration 0015)',
  ...DB_TEST,
  fn: async () => {
    // Enough users that reading a whole index costs more than a trigram lookup, and sequential scans priced
    // out: a plan that still does not name the trigram index means the query's expression is not the index's.
    await t.deps.sql`
      insert into users (entity_id, role, doc_number, email, first_name, last_name, password_hash)
      select e.id, case when n % 2 = 0 then 'offender' else 'attorney' end,
             case when n % 2 = 0 then 'PLAN' || n end, case when n % 2 = 1 then 'plan' || n || '@bulk.test' end,
             'Plan', 'Bulk ' || n, 'not-a-hash'
      from entities e, generate_series(1, 2000) n where e.slug = 'default'`;
    // Vacuum empties the GIN pending lists the bulk insert filled, which the planner would price as a scan.
    await t.deps.sql`vacuum analyze users`;
    const plans = await t.deps.sql.begin(async (tx) => {
      await tx`set local enable_seqscan = off`;
      const plan = async (where: string) =>
        (await tx.unsafe(`explain select u.id from users u where ${where}`)).map((r) => r['QUERY PLAN']).join(
          '\n',
        );
      return [
        await plan(`user_full_name(u.first_name, u.last_name) ilike '%quix%'`),
        await plan(`u.email ilike '%quix%'`),
        await plan(`u.doc_number ilike '%quix%'`),
      ];
    });
    assert.match(plans[0], /users_full_name_trgm_idx/, plans[0]);
    assert.match(plans[1], /users_email_trgm_idx/, plans[1]);
    assert.match(plans[2], /users_doc_number_trgm_idx/, plans[2]);
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
