import assert from 'node:assert/strict';
import { afterLogin, guardDecision, homeForRole, portalRedirect, ROLE_HOME } from './routing.ts';
import type { UserReadResult } from './storage.ts';
import type { User } from '../auth/user.ts';

function stored(overrides: Partial<User> = {}): UserReadResult {
  return {
    ok: true,
    user: {
      id: 'u1',
      role: 'attorney',
      firstName: 'Ann',
      lastName: 'Lee',
      email: 'ann@example.test',
      docNumber: null,
      entity: 'default',
      mustChangePassword: false,
      language: null,
      largerText: false,
      ...overrides,
    },
  };
}

const missing: UserReadResult = { ok: false, reason: 'missing' };
const unreadable: UserReadResult = { ok: false, reason: 'unreadable' };

Deno.test('each role has its own home, the representative at the short /representative', () => {
  assert.deepEqual(ROLE_HOME, {
    offender: '/portal/offender',
    attorney: '/portal/attorney',
    representative: '/representative',
    admin: '/portal/admin',
    approver: '/portal/approver',
  });
});

Deno.test('an unknown role has no home and goes to /unauthorized', () => {
  assert.equal(homeForRole('janitor'), '/unauthorized');
  assert.equal(homeForRole(undefined), '/unauthorized');
  assert.equal(homeForRole('admin'), '/portal/admin');
});

Deno.test('/portal sends each known role to its portal', () => {
  assert.equal(portalRedirect(stored({ role: 'offender' })), '/portal/offender');
  assert.equal(portalRedirect(stored({ role: 'attorney' })), '/portal/attorney');
  assert.equal(portalRedirect(stored({ role: 'representative' })), '/representative');
  assert.equal(portalRedirect(stored({ role: 'admin' })), '/portal/admin');
  assert.equal(portalRedirect(stored({ role: 'approver' })), '/portal/approver');
});

Deno.test('/portal sends an unknown role to /files and a missing or unreadable user to /login', () => {
  assert.equal(portalRedirect(stored({ role: 'auditor' })), '/files');
  assert.equal(portalRedirect(missing), '/login');
  assert.equal(portalRedirect(unreadable), '/login');
  assert.equal(portalRedirect({ ok: false, reason: 'unavailable' }), '/login');
});

Deno.test('the guard sends a visitor without a stored guid to /login', () => {
  assert.deepEqual(guardDecision({ guid: null, user: stored(), path: '/files' }), {
    allow: false,
    redirectTo: '/login',
  });
  assert.deepEqual(
    guardDecision({ guid: '', user: stored(), roles: ['attorney'], path: '/portal/attorney' }),
    {
      allow: false,
      redirectTo: '/login',
    },
  );
});

Deno.test('the guard lets any signed-in user through a route without roles', () => {
  assert.deepEqual(guardDecision({ guid: 't', user: stored({ role: 'attorney' }), path: '/files' }), {
    allow: true,
  });
  assert.deepEqual(guardDecision({ guid: 't', user: missing, path: '/pdfViewer/7' }), { allow: true });
});

Deno.test("an offender's session stays in their portal, where the tablet's lock is, but for the viewer pop-up", () => {
  // /files typed into a locked tablet must not show the list the lock hides.
  const offender = stored({ role: 'offender' });
  for (const path of ['/files', '/files/anything', '/portal']) {
    assert.deepEqual(guardDecision({ guid: 't', user: offender, path }), {
      allow: false,
      redirectTo: '/portal/offender',
    });
  }
  for (const path of ['/pdfViewer/7', '/pdfViewer']) {
    assert.deepEqual(guardDecision({ guid: 't', user: offender, path }), { allow: true });
  }
  assert.deepEqual(guardDecision({ guid: 't', user: offender, path: '/pdfViewerX' }), {
    allow: false,
    redirectTo: '/portal/offender',
  });
});

Deno.test('the guard lets an allowed role in', () => {
  assert.deepEqual(
    guardDecision({ guid: 't', user: stored({ role: 'admin' }), roles: ['admin'], path: '/portal/admin' }),
    {
      allow: true,
    },
  );
});

Deno.test('the guard sends a signed-in offender who opens the admin portal to the offender portal', () => {
  assert.deepEqual(
    guardDecision({ guid: 't', user: stored({ role: 'offender' }), roles: ['admin'], path: '/portal/admin' }),
    { allow: false, redirectTo: '/portal/offender' },
  );
});

Deno.test('the guard sends a representative on a wrong portal to /representative and an unknown role to /unauthorized', () => {
  assert.deepEqual(
    guardDecision({
      guid: 't',
      user: stored({ role: 'representative' }),
      roles: ['attorney'],
      path: '/portal/attorney',
    }),
    { allow: false, redirectTo: '/representative' },
  );
  assert.deepEqual(
    guardDecision({
      guid: 't',
      user: stored({ role: 'auditor' }),
      roles: ['attorney'],
      path: '/portal/attorney',
    }),
    { allow: false, redirectTo: '/unauthorized' },
  );
});

Deno.test('the guard cannot route a missing or unreadable user by role and sends them to /login', () => {
  assert.deepEqual(guardDecision({ guid: 't', user: unreadable, roles: ['admin'], path: '/portal/admin' }), {
    allow: false,
    redirectTo: '/login',
  });
});

Deno.test('a user with a temporary password is held on /set-password until it is changed', () => {
  const user = stored({ role: 'attorney', mustChangePassword: true });
  assert.deepEqual(guardDecision({ guid: 't', user, roles: ['attorney'], path: '/portal/attorney' }), {
    allow: false,
    redirectTo: '/set-password',
  });
  assert.deepEqual(guardDecision({ guid: 't', user, path: '/files' }), {
    allow: false,
    redirectTo: '/set-password',
  });
  assert.deepEqual(guardDecision({ guid: 't', user, path: '/set-password' }), { allow: true });
});

Deno.test('after sign-in the user goes to /portal, or to /set-password with a temporary password', () => {
  assert.equal(afterLogin({ mustChangePassword: false }), '/portal');
  assert.equal(afterLogin({ mustChangePassword: true }), '/set-password');
});
