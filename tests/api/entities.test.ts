import assert from 'node:assert/strict';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { makeUser } from '../support/factories.ts';

let t: TestApp;
let admin: string;

const create = (body: Record<string, unknown>) =>
  call(t, 'POST', '/api/admin/entities', { token: admin, body });
const update = (id: string, body: Record<string, unknown>) =>
  call(t, 'PUT', `/api/admin/entities/${id}`, { token: admin, body });
const auditFor = async (type: string, id: string) =>
  (await t.deps.sql<{ event_data: any }[]>`
    select event_data from audit_logs where event_type = ${type} and resource_id = ${id} order by id`).map((
    r,
  ) => r.event_data);

Deno.test({
  name: 'setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    admin = await signIn(t, ...DEMO.admin);
  },
});

Deno.test({
  name: 'the entity list has every field and the number of users',
  ...DB_TEST,
  fn: async () => {
    const r = await call(t, 'GET', '/api/admin/entities', { token: admin });
    assert.equal(r.status, 200);
    const [entity] = r.body.entities;
    assert.deepEqual(Object.keys(entity).sort(), [
      'address',
      'created_at',
      'default_language',
      'email',
      'id',
      'name',
      'phone',
      'settings',
      'slug',
      'status',
      'updated_at',
      'user_count',
    ]);
    assert.equal(entity.slug, 'default');
    assert.equal(entity.user_count, 6);
    assert.deepEqual(entity.settings, {});
  },
});

Deno.test({
  name: 'creating an entity trims its fields and generates a blank slug from the name',
  ...DB_TEST,
  fn: async () => {
    const r = await create({
      name: '  Missouri Dept. of Corrections & Rehab ',
      slug: '  ',
      status: 'active',
      email: ' Info@MoDoc.Gov ',
    });
    assert.equal(r.status, 201);
    assert.equal(r.body.message, 'Entity created successfully');
    const { entity } = r.body.data;
    assert.equal(entity.name, 'Missouri Dept. of Corrections & Rehab');
    assert.equal(entity.slug, 'missouri-dept-of-corrections-rehab');
    assert.equal(entity.email, 'info@modoc.gov');
    assert.equal(entity.phone, null);
    assert.equal(entity.user_count, 0);
    const [audit] = await auditFor('entity_created', entity.id);
    assert.equal(audit.slug, 'missouri-dept-of-corrections-rehab');
    assert.equal(audit.status, 'active');
  },
});

Deno.test({
  name: 'entity rules: name required, slug format, unique slug (409), status, email shape',
  ...DB_TEST,
  fn: async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{ name: '   ', status: 'active' }, 400, 'Entity name is required'],
      [{ status: 'active' }, 400, 'Entity name is required'],
      [
        { name: 'X', slug: 'Not A Slug', status: 'active' },
        400,
        'Slug must be lower-case letters and digits, with single hyphens between words (at most 100 characters).',
      ],
      [
        { name: 'X', slug: 'a--b', status: 'active' },
        400,
        'Slug must be lower-case letters and digits, with single hyphens between words (at most 100 characters).',
      ],
      [{ name: '!!!', status: 'active' }, 400, 'A slug cannot be made from this name; please enter a slug.'],
      [{ name: 'X', status: 'pending' }, 400, "Status must be 'active' or 'inactive'."],
      [{ name: 'X', status: 'active', email: 'nope' }, 400, 'Please enter a valid email address'],
      [
        { name: 'X', status: 'active', phone: 'call me' },
        400,
        'Phone may contain only digits, spaces and + - ( ) . (at most 40 characters).',
      ],
      [
        { name: 'Default Again', slug: ' default ', status: 'active' },
        409,
        'An entity with this slug already exists.',
      ],
      [{ name: 'x'.repeat(201), status: 'active' }, 400, 'Entity name must be at most 200 characters.'],
    ];
    for (const [body, status, message] of cases) {
      const r = await create(body);
      assert.equal(r.status, status, JSON.stringify(body));
      assert.equal(r.body.message, message);
    }
    const [{ n }] = await t.deps.sql<
      { n: number }[]
    >`select count(*)::int as n from entities where name in ('X', 'Default Again')`;
    assert.equal(n, 0);
  },
});

Deno.test({
  name: 'editing an entity saves for real and audits the changed fields only',
  ...DB_TEST,
  fn: async () => {
    const made = await create({
      name: 'East Facility',
      status: 'active',
      phone: '555-0100',
      address: '1 Main St',
    });
    const id = made.body.data.entity.id;
    await makeUser(t, { entityId: id });
    const r = await update(id, {
      name: ' East Facility (Annex) ',
      slug: 'east-annex',
      status: 'inactive',
      phone: '555-0100',
    });
    assert.equal(r.status, 200);
    assert.equal(r.body.message, 'Entity updated successfully');
    const list = await call(t, 'GET', '/api/admin/entities', { token: admin });
    const saved = list.body.entities.find((e: any) => e.id === id);
    assert.equal(saved.name, 'East Facility (Annex)');
    assert.equal(saved.slug, 'east-annex');
    assert.equal(saved.status, 'inactive');
    assert.equal(saved.address, null, 'an absent optional field is cleared');
    assert.equal(saved.user_count, 1);
    assert.ok(Date.parse(saved.updated_at) >= Date.parse(saved.created_at));
    const [audit] = await auditFor('entity_updated', id);
    assert.deepEqual(audit.changes, {
      name: { from: 'East Facility', to: 'East Facility (Annex)' },
      slug: { from: 'east-facility', to: 'east-annex' },
      status: { from: 'active', to: 'inactive' },
      address: { from: '1 Main St', to: null },
    });
  },
});

Deno.test({
  name: 'an edit to a slug another entity has is 409 and changes nothing',
  ...DB_TEST,
  fn: async () => {
    const a = (await create({ name: 'West One', status: 'active' })).body.data.entity;
    await create({ name: 'West Two', status: 'active' });
    const r = await update(a.id, { name: 'West One', slug: 'west-two', status: 'active' });
    assert.equal(r.status, 409);
    assert.equal(r.body.message, 'An entity with this slug already exists.');
    const [row] = await t.deps.sql<{ slug: string }[]>`select slug from entities where id = ${a.id}`;
    assert.equal(row.slug, 'west-one');
    assert.equal((await auditFor('entity_updated', a.id)).length, 0);
    assert.equal(
      (await update(a.id, { name: 'West One', status: 'active' })).status,
      200,
      'keeping its own slug is fine',
    );
  },
});

Deno.test({
  name: "the default entity's slug cannot change (every sign-in names it); its name can",
  ...DB_TEST,
  fn: async () => {
    const [entity] = await t.deps.sql<{ id: string }[]>`select id from entities where slug = 'default'`;
    const r = await update(entity.id, { name: 'Department of Corrections', slug: 'doc', status: 'active' });
    assert.equal(r.status, 400);
    const renamed = await update(entity.id, { name: 'State DOC', slug: 'default', status: 'active' });
    assert.equal(renamed.status, 200);
    await signIn(t, ...DEMO.attorney);
  },
});

Deno.test({
  name: "deactivating an entity ends its users' sessions: the next request is 401",
  ...DB_TEST,
  fn: async () => {
    const entity = (await create({ name: 'North Facility', status: 'active' })).body.data.entity;
    const user = await makeUser(t, { entityId: entity.id });
    const login = await call(t, 'POST', '/api/auth/login', {
      body: { username: user.username, password: user.secret, entity: entity.slug },
    });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    const token = login.body.token;
    assert.equal((await call(t, 'GET', '/api/documents/attorney', { token })).status, 200);
    const other = await signIn(t, ...DEMO.attorney);

    const r = await update(entity.id, { name: 'North Facility', status: 'inactive' });
    assert.equal(r.status, 200);
    assert.equal((await call(t, 'GET', '/api/documents/attorney', { token })).status, 401);
    const [session] = await t.deps.sql<{ revoked_at: Date | null; end_reason: string | null }[]>`
      select s.revoked_at, s.end_reason from sessions s where s.user_id = ${user.id}`;
    assert.ok(session.revoked_at, 'revoked in the same transaction');
    assert.equal(session.end_reason, 'entity_inactive');
    const [audit] = (await auditFor('entity_updated', entity.id)).slice(-1);
    assert.equal(audit.sessionsEnded, 1);
    assert.equal(
      (await call(t, 'GET', '/api/documents/attorney', { token: other })).status,
      200,
      'other entities',
    );
    // Reactivation does not revive the ended session.
    assert.equal((await update(entity.id, { name: 'North Facility', status: 'active' })).status, 200);
    assert.equal((await call(t, 'GET', '/api/documents/attorney', { token })).status, 401);
  },
});

Deno.test({
  name: 'the guard refuses a session of an inactive entity even if its status changed outside the API',
  ...DB_TEST,
  fn: async () => {
    const entity = (await create({ name: 'South Facility', status: 'active' })).body.data.entity;
    const user = await makeUser(t, { entityId: entity.id });
    const login = await call(t, 'POST', '/api/auth/login', {
      body: { username: user.username, password: user.secret, entity: entity.slug },
    });
    const token = login.body.token;
    await t.deps.sql`update entities set status = 'inactive' where id = ${entity.id}`;
    assert.equal((await call(t, 'GET', '/api/documents/attorney', { token })).status, 401);
  },
});

Deno.test({
  name: 'an admin cannot deactivate their own entity, whatever the case of its id',
  ...DB_TEST,
  fn: async () => {
    const [own] = await t.deps.sql<{ id: string; name: string }[]>`
      select e.id, e.name from entities e join users u on u.entity_id = e.id where u.email = ${
      DEMO.admin[0]
    }`;
    // The upper-case id names the same row to PostgreSQL, so the check must catch it too.
    for (const id of [own.id, own.id.toUpperCase()]) {
      const r = await update(id, { name: own.name, slug: 'default', status: 'inactive' });
      assert.equal(r.status, 400, id);
      assert.match(r.body.message, /cannot deactivate your own entity/);
    }
    const [row] = await t.deps.sql<{ status: string }[]>`select status from entities where id = ${own.id}`;
    assert.equal(row.status, 'active');
    assert.equal((await call(t, 'GET', '/api/admin/entities', { token: admin })).status, 200);
  },
});

Deno.test({
  name: 'editing an unknown entity is 404',
  ...DB_TEST,
  fn: async () => {
    const r = await update(crypto.randomUUID(), { name: 'Ghost', status: 'active' });
    assert.equal(r.status, 404);
    assert.equal(r.body.message, 'Entity not found.');
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
  },
});
