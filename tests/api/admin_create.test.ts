/**
 * The operator's way into a new installation (`npm run admin:create`, api/domain/admin_account.ts): on a database
 * with no entity and no user, the first entity is the one everyone signs in to and its admin is department-wide;
 * the printed code sets the password once, and the admin's sign-in goes on to second-factor enrolment.
 */
import assert from 'node:assert/strict';
import { createAdminAccount } from '../../api/domain/admin_account.ts';
import { get_setting } from '../../api/db/settings.ts';
import { call, createTestApp, DB_TEST, type TestApp } from '../support/app.ts';

const PASSWORD = 'Granite-Harbor-Lantern-73';

async function signInStep(t: TestApp, email: string, password: string) {
  return await call(t, 'POST', '/api/auth/login', { body: { username: email, password, entity: 'default' } });
}

Deno.test({
  name:
    'admin:create on an empty installation makes the sign-in entity and a department-wide admin who sets a password and must enrol',
  ...DB_TEST,
  fn: async () => {
    const t = await createTestApp({}, { demo: false });
    try {
      const [{ count }] = await t.db.sql<{ count: number }[]>`select count(*)::int as count from users`;
      assert.equal(count, 0);
      const made = await createAdminAccount(t.db.sql, {
        email: 'Chief.Admin@doc.example.gov',
        firstName: 'Portal',
        lastName: 'Administrator',
        entity: { newName: 'Missouri Department of Corrections', abbreviation: 'MODOC' },
      }, {});
      assert.ok(made.ok, JSON.stringify(made));
      assert.equal(made.made.entitySlug, 'default', 'the first entity is the one every sign-in names');
      assert.equal(made.made.departmentWide, true);
      assert.equal(made.made.minutes, 24 * 60);
      assert.match(made.made.setPassword, /^[A-Za-z0-9_-]{40,}$/, 'without PORTAL_URL: the bare code');
      assert.deepEqual(await get_setting(t.db.sql, 'department_abbreviation'), 'MODOC');

      // Nothing signs in before the link is used.
      assert.equal((await signInStep(t, 'chief.admin@doc.example.gov', PASSWORD)).status, 401);
      const set = await call(t, 'POST', '/api/auth/reset-password', {
        body: { token: made.made.setPassword, newPassword: PASSWORD },
      });
      assert.equal(set.status, 200, JSON.stringify(set.body));
      const again = await call(t, 'POST', '/api/auth/reset-password', {
        body: { token: made.made.setPassword, newPassword: 'Another-Harbor-Lantern-74' },
      });
      assert.equal(again.body.code, 'reset_link_invalid', 'single use');

      // Admins must use a second factor on a new installation: the password opens the enrolment step.
      const step = await signInStep(t, 'chief.admin@doc.example.gov', PASSWORD);
      assert.equal(step.status, 200, JSON.stringify(step.body));
      assert.equal(step.body.mfaEnrollmentRequired, true);
      assert.equal(typeof step.body.mfaToken, 'string');
      assert.equal(step.body.token, undefined, 'no session before the second factor');

      const audit = await t.db.sql<{ event_type: string; event_data: Record<string, unknown> }[]>`
        select event_type, event_data from audit_logs where event_data ->> 'via' = 'admin:create' order by id`;
      assert.deepEqual(audit.map((r) => r.event_type), ['entity_created', 'user_created']);
    } finally {
      await t.close();
    }
  },
});

Deno.test({
  name:
    'admin:create links to PORTAL_URL, names later entities after their slug rule, and refuses what it cannot do',
  ...DB_TEST,
  fn: async () => {
    const t = await createTestApp();
    const make = (email: string, entity: Parameters<typeof createAdminAccount>[1]['entity']) =>
      createAdminAccount(t.db.sql, { email, firstName: 'Portal', lastName: 'Administrator', entity }, {
        portalUrl: 'https://mail.example.gov',
      });
    try {
      const facility = await make('warden@doc.example.gov', { newName: '  Eastern  Reception Center! ' });
      assert.ok(facility.ok, JSON.stringify(facility));
      assert.equal(facility.made.entitySlug, 'eastern-reception-center');
      assert.equal(facility.made.departmentWide, false);
      assert.match(
        facility.made.setPassword,
        /^https:\/\/mail\.example\.gov\/reset-password#[A-Za-z0-9_-]{40,}$/,
      );

      const existing = await make('second@doc.example.gov', { slug: 'default' });
      assert.ok(existing.ok);
      assert.equal(existing.made.departmentWide, true);
      assert.equal(existing.made.entityCreated, false);

      const refusals = [
        await make('not-an-address', { slug: 'default' }),
        await make('nobody@doc.example.gov', { slug: 'no-such-entity' }),
        await make('admin@demo.test', { slug: 'default' }),
        await make('x@doc.example.gov', { newName: 'Eastern Reception Center' }),
        await make('y@doc.example.gov', { newName: 'Western Facility', abbreviation: 'WF' }),
        await make('z@doc.example.gov', { newName: '!!!' }),
      ].map((r) => (r.ok ? 'made' : r.refusal));
      assert.deepEqual(refusals, [
        'email_invalid',
        'entity_unknown',
        'email_in_use',
        'entity_slug_taken',
        'abbreviation_not_first',
        'entity_invalid',
      ]);
      const [{ count }] = await t.db.sql<{ count: number }[]>`
        select count(*)::int as count from entities where slug = 'western-facility'`;
      assert.equal(count, 0, 'a refusal leaves no entity behind');
    } finally {
      await t.close();
    }
  },
});
