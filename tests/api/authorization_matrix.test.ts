/**
 * Every API route × every role of two entities and no token: no or bad token 401, wrong role
 * 403, an allowed role gets past the guard. A route missing from POLICY fails
 * the test, so no new route can slip by unguarded. The second entity's admin is refused what is the
 * department's (403) and finds the installation's own rows missing (404), as any other role does.
 */
import assert from 'node:assert/strict';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { makeUser } from '../support/factories.ts';

type Role = 'offender' | 'attorney' | 'representative' | 'admin' | 'approver';
const ROLES: Role[] = ['offender', 'attorney', 'representative', 'admin', 'approver'];
const ANY: Role[] = ROLES;
const PUBLIC = 'public' as const;

/** Who may call what: written from the spec's roles table, independently of the code. */
const POLICY: Record<string, Role[] | typeof PUBLIC> = {
  'GET /api/config': PUBLIC,
  'GET /api/health': PUBLIC,
  // Probes for a balancer: they say nothing about data, so they need no sign-in.
  'GET /api/health/live': PUBLIC,
  'GET /api/health/ready': PUBLIC,
  // The offload canary's file, sent by the front (404 unless BLOB_OFFLOAD=nginx): a random token, nothing else.
  'GET /api/health/offload-canary/:name': PUBLIC,
  // The audit checkpoints' public key: a public key, which whoever checks the log needs without an account.
  'GET /api/audit/public-key': PUBLIC,
  'POST /api/auth/login': PUBLIC,
  'POST /api/auth/register': PUBLIC,
  // The API reference: what the API accepts, never what it holds, like the PWA's own code.
  'GET /api/openapi.json': PUBLIC,
  'GET /api/docs': PUBLIC,
  'POST /api/auth/forgot-password': PUBLIC,
  'POST /api/auth/reset-password': PUBLIC,
  'POST /api/auth/logout': ANY,
  'POST /api/auth/logout-all': ANY,
  'GET /api/auth/me': ANY,
  'POST /api/auth/password': ANY,
  'PATCH /api/auth/preferences': ANY,
  // The tablet's offline reading: only offenders cache mail; every other portal caches nothing.
  'GET /api/auth/offline-key': ['offender'],
  'POST /api/auth/lock': ['offender'],
  'POST /api/auth/unlock': ['offender'],
  // The offender's own sign-ins and the staff-PIN-reset notice: an offender's account alone has them.
  'GET /api/auth/sign-ins': ['offender'],
  'POST /api/auth/pin-reset-notice/dismiss': ['offender'],
  // The second step of a sign-in: its own step token is the proof (tests/api/mfa.test.ts).
  'POST /api/auth/mfa/verify': PUBLIC,
  'POST /api/auth/mfa/enroll/totp': PUBLIC,
  'POST /api/auth/mfa/webauthn/options': PUBLIC,
  'POST /api/auth/mfa/enroll/webauthn': PUBLIC,
  // Second factors of one's own (the Security screen): staff; offenders sign in with a PIN on a tablet.
  'GET /api/auth/mfa/factors': ['attorney', 'representative', 'admin', 'approver'],
  'POST /api/auth/mfa/totp': ['attorney', 'representative', 'admin', 'approver'],
  'POST /api/auth/mfa/totp/confirm': ['attorney', 'representative', 'admin', 'approver'],
  'POST /api/auth/mfa/webauthn': ['attorney', 'representative', 'admin', 'approver'],
  'POST /api/auth/mfa/webauthn/confirm': ['attorney', 'representative', 'admin', 'approver'],
  'POST /api/auth/mfa/webauthn/proof-options': ['attorney', 'representative', 'admin', 'approver'],
  'POST /api/auth/mfa/factors/:id/remove': ['attorney', 'representative', 'admin', 'approver'],
  'POST /api/auth/mfa/recovery-codes': ['attorney', 'representative', 'admin', 'approver'],
  'POST /api/auth/mfa/identity': ['attorney', 'representative', 'admin', 'approver'],
  'POST /api/admin/users/:id/mfa/reset': ['admin'],
  'GET /api/approver/registrations': ['approver'],
  'POST /api/approver/registrations/:id/approve': ['approver'],
  'POST /api/approver/registrations/:id/reject': ['approver'],
  'GET /api/admin/audit-logs': ['admin'],
  'GET /api/admin/audit-logs/export.csv': ['admin'],
  // When the log was last verified and checkpointed: names no row, so any entity's admin.
  'GET /api/admin/audit-logs/integrity': ['admin'],
  'GET /api/admin/email-outbox': ['admin'],
  'GET /api/admin/users': ['admin'],
  'GET /api/admin/users/:id/activity': ['admin'],
  'PUT /api/admin/users/:id/status': ['admin'],
  'PUT /api/admin/users/:id/language': ['admin'],
  'POST /api/admin/users/:id/password-reset': ['admin'],
  // "Add Staff": any entity for the department's administrators, their own entity's approvers for the others.
  'POST /api/admin/users/staff': ['admin'],
  'POST /api/admin/users/:id/unlock': ['admin'],
  'POST /api/admin/offenders': ['admin'],
  'PUT /api/admin/offenders/:id/pin': ['admin'],
  'POST /api/admin/offenders/import': ['admin'],
  // Who a DOC number is, before sending: senders only.
  'GET /api/recipients/:docNumber': ['attorney', 'representative'],
  'GET /api/preferences': ['attorney', 'representative'],
  'PUT /api/preferences': ['attorney', 'representative'],
  // Withdrawing: the offender passes the guard and gets the same 404 as anyone not the sender.
  'POST /api/documents/:id/withdraw': ['offender', 'attorney', 'representative'],
  'GET /api/admin/entities': ['admin'],
  'POST /api/admin/entities': ['admin'],
  'PUT /api/admin/entities/:id': ['admin'],
  'GET /api/admin/settings': ['admin'],
  // What readiness found, with the stores' addresses: the installation's, so the department admin's.
  'GET /api/admin/health': ['admin'],
  'PUT /api/admin/settings/:key': ['admin'],
  'GET /api/admin/ip-whitelist': ['admin'],
  'POST /api/admin/ip-whitelist': ['admin'],
  'PUT /api/admin/ip-whitelist/:id': ['admin'],
  'DELETE /api/admin/ip-whitelist/:id': ['admin'],
  // Documents: only the three mail roles; staff never receive a document (privileged by default).
  'POST /api/documents/upload': ['attorney'],
  'GET /api/documents/attorney': ['attorney'],
  'GET /api/documents/offender/:docNumber': ['offender'],
  'GET /api/documents/mine': ANY,
  'GET /api/documents/:id/info': ['offender', 'attorney', 'representative'],
  // The signed delivery receipt: its sender's (and the supervising attorney's) to keep; the recipient has none.
  'GET /api/documents/:id/receipt': ['attorney', 'representative'],
  // Checking a receipt file against the portal's key: any signed-in staff user (it reads nothing of the
  // database); not the offender's tablet, which holds no receipt.
  'POST /api/receipts/verify': ['attorney', 'representative', 'admin', 'approver'],
  'GET /api/documents/view/:id': ['offender', 'attorney', 'representative'],
  'GET /api/documents/print/:id': ['offender', 'attorney', 'representative'],
  'GET /api/documents/prefetch/:id': ['offender'],
  // The viewer's report that it showed the document: whoever may read it, as the view itself.
  'POST /api/documents/shown/:id': ['offender', 'attorney', 'representative'],
  'POST /api/documents/offline-events': ['offender'],
  'POST /api/representative/upload': ['representative'],
  'GET /api/representative/documents': ['representative'],
  // An attorney's Representatives list (Accept / Remove): the attorney's own links only.
  'GET /api/attorney/representatives': ['attorney'],
  'POST /api/attorney/representatives/:id/accept': ['attorney'],
  'POST /api/attorney/representatives/:id/remove': ['attorney'],
  // "Invite a representative": the attorney's own invitations, rate-limited per attorney.
  'POST /api/attorney/representatives/invitations': ['attorney'],
};

/**
 * The department's own: entities (creating one), the installation-wide settings and the outbox. Only the admins of
 * the installation's first entity pass; another entity's admin gets 403.
 */
const DEPARTMENT_ONLY = new Set([
  'GET /api/admin/email-outbox',
  'GET /api/admin/settings',
  'GET /api/admin/health',
  'PUT /api/admin/settings/:key',
  'POST /api/admin/entities',
]);

/**
 * What a second entity's admin gets from each admin route aimed at the installation's own entity's rows: a 404 as
 * for a missing row (its user, offender, range, the entity itself), a list of their own (200), a refusal of the
 * department's routes (403), or their own body's check (400). An admin route missing here fails the test.
 */
const ACROSS_ENTITIES: Record<string, number> = {
  'GET /api/admin/audit-logs': 200,
  'GET /api/admin/audit-logs/export.csv': 200,
  'GET /api/admin/audit-logs/integrity': 200,
  'GET /api/admin/email-outbox': 403,
  'GET /api/admin/users': 200,
  'GET /api/admin/users/:id/activity': 404,
  'PUT /api/admin/users/:id/status': 404,
  'PUT /api/admin/users/:id/language': 404,
  'POST /api/admin/users/:id/password-reset': 404,
  'POST /api/admin/users/staff': 404,
  'POST /api/admin/users/:id/unlock': 404,
  'POST /api/admin/users/:id/mfa/reset': 404,
  'POST /api/admin/offenders': 400,
  'PUT /api/admin/offenders/:id/pin': 404,
  'POST /api/admin/offenders/import': 400,
  'GET /api/admin/entities': 200,
  'POST /api/admin/entities': 403,
  'PUT /api/admin/entities/:id': 404,
  'GET /api/admin/settings': 403,
  'GET /api/admin/health': 403,
  'PUT /api/admin/settings/:key': 403,
  'GET /api/admin/ip-whitelist': 200,
  'POST /api/admin/ip-whitelist': 400,
  'PUT /api/admin/ip-whitelist/:id': 404,
  'DELETE /api/admin/ip-whitelist/:id': 404,
};

type Entity = 'default' | 'north';
let t: TestApp;
const tokens = new Map<Role, string>();
const northTokens = new Map<Role, string>();
const northUsers = new Map<Role, { username: string; secret: string }>();
let northSlug: string;
const signInRole = async (role: Role) => tokens.set(role, await signIn(t, DEMO[role][0], DEMO[role][1]));
const signInNorth = async (role: Role) => {
  const user = northUsers.get(role)!;
  const r = await call(t, 'POST', '/api/auth/login', {
    body: { username: user.username, password: user.secret, entity: northSlug },
  });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  northTokens.set(role, r.body.token);
};
const tokenOf = (entity: Entity, role: Role) => (entity === 'default' ? tokens : northTokens).get(role);
const signInAgain = (entity: Entity, role: Role) =>
  entity === 'default' ? signInRole(role) : signInNorth(role);

/** The concrete API routes of the app (method and path), without middleware-only entries. */
function apiRoutes(): string[] {
  const seen = new Set<string>();
  for (const r of t.app.routes) {
    if (!r.path.startsWith('/api/') || r.method === 'ALL' || r.path.endsWith('*')) continue;
    seen.add(`${r.method} ${r.path}`);
  }
  return [...seen].sort();
}

function concrete(path: string): string {
  return path.replace(/:docNumber/g, '100001').replace(/:key/g, 'session_idle_minutes').replace(
    /:[A-Za-z_]+/g,
    crypto.randomUUID(),
  );
}

Deno.test({
  name: 'setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    for (const role of ROLES) await signInRole(role);
    northSlug = `north-${crypto.randomUUID().slice(0, 8)}`;
    const [{ id: entityId }] = await t.deps.sql<{ id: string }[]>`
      insert into entities (name, slug, status) values ('North facility', ${northSlug}, 'active') returning id`;
    for (const role of ROLES) {
      northUsers.set(role, await makeUser(t, { entityId, role }));
      await signInNorth(role);
    }
  },
});

Deno.test({
  name: 'every API route is in the policy table',
  ...DB_TEST,
  fn: () => {
    const missing = apiRoutes().filter((route) => !(route in POLICY));
    assert.deepEqual(missing, [], 'routes without a policy entry');
  },
});

Deno.test({
  name: 'no token, a bad token, a wrong role and an allowed role, for every route, in both entities',
  ...DB_TEST,
  fn: async () => {
    for (const route of apiRoutes()) {
      const policy = POLICY[route];
      const [method, pattern] = route.split(' ');
      const path = concrete(pattern);
      if (policy === PUBLIC) continue;
      const body = method === 'GET' || method === 'HEAD' ? undefined : {};
      const anonymous = await call(t, method, path, { body });
      assert.equal(anonymous.status, 401, `${route} without a token`);
      assert.equal(anonymous.body.success, false);
      const forged = await call(t, method, path, { body, token: 'eyJhbGciOiJIUzI1NiJ9.e30.xxxx' });
      assert.equal(forged.status, 401, `${route} with a bad token`);
      for (const entity of ['default', 'north'] as const) {
        for (const role of ROLES) {
          const r = await call(t, method, path, { body, token: tokenOf(entity, role) });
          const who = `${route} as ${entity}'s ${role}`;
          if (policy.includes(role) && entity === 'north' && DEPARTMENT_ONLY.has(route)) {
            assert.equal(r.status, 403, `${who} is the department's, got ${r.status}`);
            assert.equal(r.body.code, 'department_admin_only');
          } else if (policy.includes(role)) {
            // Adding a factor passes the guard and then asks for a recent proof of identity (403 of its own).
            const passed = ![401, 403].includes(r.status) || r.body.code === 'mfa_proof_required';
            assert.ok(passed, `${who} should pass the guard, got ${r.status}`);
            if (['/api/auth/logout', '/api/auth/logout-all', '/api/auth/lock'].includes(pattern)) {
              await signInAgain(entity, role);
            }
          } else {
            assert.equal(r.status, 403, `${who} should be 403, got ${r.status}`);
            assert.equal(r.body.success, false);
          }
        }
      }
    }
  },
});

Deno.test({
  name:
    "a second entity's admin reaches none of the installation's own rows: 404 as missing, 403 for the department's",
  ...DB_TEST,
  fn: async () => {
    const admin = northTokens.get('admin')!;
    const [{ id: offenderId, entity_id: entityId }] = await t.deps.sql<{ id: string; entity_id: string }[]>`
      select id, entity_id from users where doc_number = ${DEMO.offender[0]}`;
    const defaultAdmin = tokens.get('admin')!;
    const range = await call(t, 'POST', '/api/admin/ip-whitelist', {
      token: defaultAdmin,
      body: { ipRange: '127.0.0.0/8', description: 'This host' },
    });
    assert.equal(range.status, 201, JSON.stringify(range.body));
    const rangeId = range.body.data.ipRange.id;
    const ids: Record<string, string> = {
      '/api/admin/users/:id': offenderId,
      '/api/admin/offenders/:id': offenderId,
      '/api/admin/entities/:id': entityId,
      '/api/admin/ip-whitelist/:id': rangeId,
    };
    const BODIES: Record<string, unknown> = {
      'PUT /api/admin/users/:id/status': { status: 'deactivated' },
      'PUT /api/admin/users/:id/language': { language: 'es' },
      'POST /api/admin/users/staff': {
        email: 'across@example.test',
        firstName: 'Across',
        lastName: 'Entities',
        role: 'approver',
        entity: 'default',
      },
      'PUT /api/admin/offenders/:id/pin': { pin: '987654' },
      'PUT /api/admin/entities/:id': { name: 'Default', slug: 'default', status: 'inactive' },
      'PUT /api/admin/ip-whitelist/:id': { isActive: false },
      'PUT /api/admin/settings/:key': { value: { type: 'number', value: 3 } },
      'POST /api/admin/entities': { name: 'South', status: 'active' },
    };
    const adminRoutes = apiRoutes().filter((route) => route.split(' ')[1].startsWith('/api/admin/'));
    assert.deepEqual(
      adminRoutes.filter((route) => !(route in ACROSS_ENTITIES)),
      [],
      'admin routes not in the table',
    );
    try {
      for (const route of adminRoutes) {
        const [method, pattern] = route.split(' ');
        const prefix = Object.keys(ids).find((p) => pattern.startsWith(p));
        const path = prefix ? pattern.replace(':id', ids[prefix]) : concrete(pattern);
        const body = BODIES[route] ?? (method === 'GET' || method === 'DELETE' ? undefined : {});
        const r = await call(t, method, path, { body, token: admin });
        assert.equal(r.status, ACROSS_ENTITIES[route], `${route}: ${JSON.stringify(r.body).slice(0, 200)}`);
      }
      // Nothing of the installation's own changed, and its admin still reaches it all.
      const [{ status }] = await t.deps.sql<
        { status: string }[]
      >`select status from entities where id = ${entityId}`;
      assert.equal(status, 'active');
      const [{ active }] = await t.deps.sql<{ active: boolean }[]>`
        select is_active as active from ip_ranges where id = ${rangeId}`;
      assert.equal(active, true);
      await signIn(t, DEMO.offender[0], DEMO.offender[1]);
      const seen = await call(t, 'GET', `/api/admin/users/${offenderId}/activity`, { token: defaultAdmin });
      assert.equal(seen.status, 200);
    } finally {
      await call(t, 'DELETE', `/api/admin/ip-whitelist/${rangeId}`, { token: defaultAdmin });
    }
  },
});

Deno.test({
  name: 'public routes answer without a token',
  ...DB_TEST,
  fn: async () => {
    assert.equal((await call(t, 'GET', '/api/config')).status, 200);
    assert.equal((await call(t, 'GET', '/api/health')).status, 200);
  },
});

Deno.test({
  name: 'an unknown API path is a JSON 404',
  ...DB_TEST,
  fn: async () => {
    const r = await call(t, 'GET', '/api/nothing-here');
    assert.equal(r.status, 404);
    assert.equal(r.body.success, false);
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
  },
});
