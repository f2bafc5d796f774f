/**
 * Every API route × every role and no token: no or bad token 401, wrong role
 * 403, an allowed role gets past the guard. A route missing from POLICY fails
 * the test, so no new route can slip by unguarded.
 */
import assert from 'node:assert/strict';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';

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
  'POST /api/auth/login': PUBLIC,
  'POST /api/auth/register': PUBLIC,
  // The API reference: what the API accepts, never what it holds, like the PWA's own code.
  'GET /api/openapi.json': PUBLIC,
  'GET /api/docs': PUBLIC,
  'POST /api/auth/logout': ANY,
  'GET /api/auth/me': ANY,
  'POST /api/auth/password': ANY,
  // The tablet's offline reading: only offenders cache mail; every other portal caches nothing.
  'GET /api/auth/offline-key': ['offender'],
  'POST /api/auth/lock': ['offender'],
  'POST /api/auth/unlock': ['offender'],
  // The second step of a sign-in: its own step token is the proof (tests/api/mfa.test.ts).
  'POST /api/auth/mfa/verify': PUBLIC,
  'POST /api/auth/mfa/enroll/totp': PUBLIC,
  // Second factors of one's own (the Security screen): staff; offenders sign in with a PIN on a tablet.
  'GET /api/auth/mfa/factors': ['attorney', 'representative', 'admin', 'approver'],
  'POST /api/auth/mfa/totp': ['attorney', 'representative', 'admin', 'approver'],
  'POST /api/auth/mfa/totp/confirm': ['attorney', 'representative', 'admin', 'approver'],
  'POST /api/auth/mfa/factors/:id/remove': ['attorney', 'representative', 'admin', 'approver'],
  'POST /api/auth/mfa/recovery-codes': ['attorney', 'representative', 'admin', 'approver'],
  'POST /api/admin/users/:id/mfa/reset': ['admin'],
  'GET /api/approver/registrations': ['approver'],
  'POST /api/approver/registrations/:id/approve': ['approver'],
  'POST /api/approver/registrations/:id/reject': ['approver'],
  'GET /api/admin/audit-logs': ['admin'],
  'GET /api/admin/audit-logs/export.csv': ['admin'],
  'GET /api/admin/email-outbox': ['admin'],
  'GET /api/admin/users': ['admin'],
  'GET /api/admin/users/:id/activity': ['admin'],
  'PUT /api/admin/users/:id/status': ['admin'],
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
  'GET /api/documents/view/:id': ['offender', 'attorney', 'representative'],
  'GET /api/documents/print/:id': ['offender', 'attorney', 'representative'],
  'GET /api/documents/prefetch/:id': ['offender'],
  'POST /api/documents/offline-events': ['offender'],
  'POST /api/representative/upload': ['representative'],
  'GET /api/representative/documents': ['representative'],
  // An attorney's Representatives list (Accept / Remove): the attorney's own links only.
  'GET /api/attorney/representatives': ['attorney'],
  'POST /api/attorney/representatives/:id/accept': ['attorney'],
  'POST /api/attorney/representatives/:id/remove': ['attorney'],
};

let t: TestApp;
const tokens = new Map<Role, string>();
const signInRole = async (role: Role) => tokens.set(role, await signIn(t, DEMO[role][0], DEMO[role][1]));

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
  name: 'no token, a bad token, a wrong role and an allowed role, for every route',
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
      for (const role of ROLES) {
        const r = await call(t, method, path, { body, token: tokens.get(role) });
        if (policy.includes(role)) {
          assert.ok(
            ![401, 403].includes(r.status),
            `${route} as ${role} should pass the guard, got ${r.status}`,
          );
          if (pattern === '/api/auth/logout' || pattern === '/api/auth/lock') await signInRole(role);
        } else {
          assert.equal(r.status, 403, `${route} as ${role} should be 403, got ${r.status}`);
          assert.equal(r.body.success, false);
        }
      }
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
