/**
 * Who chooses the language: the user's own saved language (PATCH /api/auth/preferences), the admin's edit of a
 * user's, the roster's optional `language` column, and the entity's default language (GET /api/config).
 */
import assert from 'node:assert/strict';
import { ROSTER_MESSAGES } from '../../contract/rules/roster.ts';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { makeUser } from '../support/factories.ts';

let t: TestApp;
let admin: string;

const login = (username: string, password: string) =>
  call(t, 'POST', '/api/auth/login', { body: { username, password, entity: 'default' } });
const me = async (token: string) => (await call(t, 'GET', '/api/auth/me', { token })).body.user;
const savedLanguage = async (id: string) =>
  (await t.deps.sql<{ language: string | null }[]>`select language from users where id = ${id}`)[0].language;
const defaultEntity = async () =>
  (await call(t, 'GET', '/api/admin/entities', { token: admin })).body.entities.find((
    e: { slug: string },
  ) => e.slug === 'default');

Deno.test({
  name: 'setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    admin = await signIn(t, ...DEMO.admin);
  },
});

Deno.test({
  name:
    'a user with no saved language signs in with language null, saves one, and has it at the next sign-in',
  ...DB_TEST,
  fn: async () => {
    const offender = await makeUser(t, { role: 'offender' });
    const first = await login(offender.username, offender.secret);
    assert.equal(first.status, 200);
    assert.equal(first.body.user.language, null);
    const token = first.body.token;
    assert.equal((await me(token)).language, null);

    const saved = await call(t, 'PATCH', '/api/auth/preferences', { token, body: { language: 'es' } });
    assert.equal(saved.status, 200);
    assert.deepEqual(saved.body, {
      success: true,
      message: 'Language saved',
      language: 'es',
      largerText: false,
    });
    assert.equal((await me(token)).language, 'es');
    assert.equal(await savedLanguage(offender.id), 'es');

    const next = await login(offender.username, offender.secret);
    assert.equal(next.body.user.language, 'es');

    const [audit] = await t.deps.sql<{ user_id: string; event_data: any }[]>`
      select user_id, event_data from audit_logs
      where event_type = 'preferences_updated' and resource_id = ${offender.id}`;
    assert.equal(audit.user_id, offender.id);
    assert.deepEqual(audit.event_data, { language: { from: null, to: 'es' } });

    // null: none saved again, the entity's default applies.
    const cleared = await call(t, 'PATCH', '/api/auth/preferences', { token, body: { language: null } });
    assert.equal(cleared.status, 200);
    assert.equal((await me(token)).language, null);
  },
});

Deno.test({
  name:
    "the offender's Larger text is kept with the user: saved alone, audited, and back at the next sign-in",
  ...DB_TEST,
  fn: async () => {
    const offender = await makeUser(t, { role: 'offender' });
    const first = await login(offender.username, offender.secret);
    assert.equal(first.body.user.largerText, false);
    const token = first.body.token;

    const saved = await call(t, 'PATCH', '/api/auth/preferences', { token, body: { largerText: true } });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.deepEqual(saved.body, {
      success: true,
      message: 'Display setting saved',
      language: null,
      largerText: true,
    });
    assert.equal((await me(token)).largerText, true);
    assert.equal((await login(offender.username, offender.secret)).body.user.largerText, true);
    const [audit] = await t.deps.sql<{ event_data: any }[]>`
      select event_data from audit_logs where event_type = 'preferences_updated' and resource_id = ${offender.id}`;
    assert.deepEqual(audit.event_data, { largerText: { from: false, to: true } });

    for (const body of [{}, { largerText: 'yes' }]) {
      const refused = await call(t, 'PATCH', '/api/auth/preferences', { token, body });
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.equal(refused.body.success, false);
      assert.equal(typeof refused.body.message, 'string');
    }
    assert.equal((await me(token)).largerText, true);
  },
});

Deno.test({
  name: 'a language the portal does not speak is refused with 400 and nothing is saved',
  ...DB_TEST,
  fn: async () => {
    const staff = await makeUser(t, { role: 'attorney' });
    const token = await signIn(t, staff.username, staff.secret);
    for (const body of [{ language: 'fr' }, { language: 'EN' }, {}, { language: 1 }]) {
      const r = await call(t, 'PATCH', '/api/auth/preferences', { token, body });
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.body.code, 'invalid');
    }
    assert.equal(await savedLanguage(staff.id), null);
    const anonymous = await call(t, 'PATCH', '/api/auth/preferences', { body: { language: 'es' } });
    assert.equal(anonymous.status, 401);
  },
});

Deno.test({
  name: "the admin sets a user's language: listed, applied at the user's next sign-in, audited",
  ...DB_TEST,
  fn: async () => {
    const offender = await makeUser(t, { role: 'offender' });
    const r = await call(t, 'PUT', `/api/admin/users/${offender.id}/language`, {
      token: admin,
      body: { language: 'es' },
    });
    assert.equal(r.status, 200);
    assert.equal(r.body.message, 'Language saved');
    const list = await call(t, 'GET', `/api/admin/users?q=${offender.username}&limit=10`, { token: admin });
    assert.equal(list.body.users[0].language, 'es');
    assert.equal((await login(offender.username, offender.secret)).body.user.language, 'es');

    const [audit] = await t.deps.sql<{ event_data: any }[]>`
      select event_data from audit_logs where event_type = 'user_updated' and resource_id = ${offender.id}`;
    assert.deepEqual(audit.event_data.changes, { language: { from: null, to: 'es' } });

    const bad = await call(t, 'PUT', `/api/admin/users/${offender.id}/language`, {
      token: admin,
      body: { language: 'de' },
    });
    assert.equal(bad.status, 400);
    const missing = await call(t, 'PUT', `/api/admin/users/${crypto.randomUUID()}/language`, {
      token: admin,
      body: { language: 'en' },
    });
    assert.equal(missing.status, 404);
    const back = await call(t, 'PUT', `/api/admin/users/${offender.id}/language`, {
      token: admin,
      body: { language: null },
    });
    assert.equal(back.status, 200);
    assert.equal(await savedLanguage(offender.id), null);
  },
});

Deno.test({
  name: "the roster's language column sets the offender's language; blank keeps it; another value is refused",
  ...DB_TEST,
  fn: async () => {
    const csv = [
      'doc_number,first_name,last_name,pin,language',
      '710001,Ann,Lee,482913,es',
      '710002,Bo,Kim,482913,English',
      '710003,Cy,Ng,482913,Español',
      '710004,Di,Ro,482913,',
      '710005,Ed,Yu,482913,French',
    ].join('\n');
    const r = await call(t, 'POST', '/api/admin/offenders/import', {
      token: admin,
      rawBody: csv,
      headers: { 'content-type': 'text/csv' },
    });
    assert.equal(r.status, 200);
    assert.equal(r.body.data.added, 4);
    assert.deepEqual(r.body.data.rows.find((row: { line: number }) => row.line === 6), {
      line: 6,
      docNumber: '710005',
      outcome: 'rejected',
      reason: ROSTER_MESSAGES.language,
      code: 'language',
    });
    const languages = async () =>
      Object.fromEntries(
        (await t.deps.sql<{ doc_number: string; language: string | null }[]>`
          select doc_number, language from users where doc_number like '71000%'`).map((
          u,
        ) => [u.doc_number, u.language]),
      );
    assert.deepEqual(await languages(), { '710001': 'es', '710002': 'en', '710003': 'es', '710004': null });
    assert.equal((await login('710001', '482913')).body.user.language, 'es');

    // An update: a blank cell keeps the saved language, a value replaces it.
    const again = await call(t, 'POST', '/api/admin/offenders/import', {
      token: admin,
      rawBody: 'doc_number,first_name,last_name,pin,language\n710001,Ann,Lee,,\n710002,Bo,Kim,,spanish\n',
      headers: { 'content-type': 'text/csv' },
    });
    assert.equal(again.body.data.updated, 2);
    const after = await languages();
    assert.equal(after['710001'], 'es');
    assert.equal(after['710002'], 'es');
  },
});

Deno.test({
  name:
    "the entity's default language: English at first, set by the admin, in /api/config for the sign-in screen",
  ...DB_TEST,
  fn: async () => {
    const entity = await defaultEntity();
    assert.equal(entity.default_language, 'en');
    assert.equal((await call(t, 'GET', '/api/config')).body.data.defaultLanguage, 'en');

    const body = { name: entity.name, slug: entity.slug, status: entity.status };
    const set = await call(t, 'PUT', `/api/admin/entities/${entity.id}`, {
      token: admin,
      body: { ...body, default_language: 'es' },
    });
    assert.equal(set.status, 200);
    assert.equal(set.body.data.entity.default_language, 'es');
    assert.equal((await call(t, 'GET', '/api/config')).body.data.defaultLanguage, 'es');
    const [audit] = await t.deps.sql<{ event_data: any }[]>`
      select event_data from audit_logs where event_type = 'entity_updated' and resource_id = ${entity.id}
      order by id desc limit 1`;
    assert.deepEqual(audit.event_data.changes.default_language, { from: 'en', to: 'es' });

    // An edit that leaves it out keeps it.
    const kept = await call(t, 'PUT', `/api/admin/entities/${entity.id}`, { token: admin, body });
    assert.equal(kept.body.data.entity.default_language, 'es');

    const bad = await call(t, 'PUT', `/api/admin/entities/${entity.id}`, {
      token: admin,
      body: { ...body, default_language: 'pt' },
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'invalid');

    const created = await call(t, 'POST', '/api/admin/entities', {
      token: admin,
      body: { name: 'Language Test Facility', status: 'active' },
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.data.entity.default_language, 'en');

    await call(t, 'PUT', `/api/admin/entities/${entity.id}`, {
      token: admin,
      body: { ...body, default_language: 'en' },
    });
    assert.equal((await call(t, 'GET', '/api/config')).body.data.defaultLanguage, 'en');
  },
});

Deno.test({
  name: "/api/config says whether the device is on the entity's facility network (a shared tablet)",
  ...DB_TEST,
  fn: async () => {
    const config = (ip: string) => call(t, 'GET', '/api/config', { ip }).then((r) => r.body.data);
    // No range yet: no address is a facility's.
    assert.equal((await config('10.20.0.5')).facilityNetwork, false);
    const added = await call(t, 'POST', '/api/admin/ip-whitelist', {
      token: admin,
      body: { ipRange: '10.20.0.0/16', description: 'Tablets' },
    });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    try {
      assert.equal((await config('10.20.0.5')).facilityNetwork, true);
      assert.equal((await config('192.0.2.9')).facilityNetwork, false);
    } finally {
      const removed = await call(t, 'DELETE', `/api/admin/ip-whitelist/${added.body.data.ipRange.id}`, {
        token: admin,
      });
      assert.equal(removed.status, 200, JSON.stringify(removed.body));
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
