/** Fixture builders with overrides: each test states only what matters to it. */
import assert from 'node:assert/strict';
import { insert_user, type NewUser } from '../../api/db/users.ts';
import { hashPin, hashSecret } from '../../api/domain/passwords.ts';
import type { TestApp } from './app.ts';

/** Tests hash at a low work factor: the stored form carries its own iteration count. */
export const TEST_ITERATIONS = 1000;

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

/** Creates a user (an attorney unless told otherwise); returns its id and sign-in. */
export async function makeUser(
  t: TestApp,
  overrides: Partial<NewUser> & { secret?: string } = {},
): Promise<{ id: string; username: string; secret: string }> {
  const [entity] = await t.deps.sql<{ id: string }[]>`select id from entities where slug = 'default'`;
  const role = overrides.role ?? 'attorney';
  const secret = overrides.secret ?? (role === 'offender' ? '112233' : 'Factory-Pass-1!');
  const id = unique();
  const user: NewUser = {
    entityId: entity.id,
    role,
    firstName: 'Test',
    lastName: `User ${id}`,
    email: role === 'offender' ? null : `user-${id}@example.test`,
    docNumber: role === 'offender' ? `9${Math.floor(Math.random() * 1e8)}` : null,
    // Offenders' PINs are peppered as the roster screens store them (api/domain/passwords.ts).
    passwordHash: role === 'offender'
      ? await hashPin(secret, { pepper: t.deps.pinPepper, iterations: TEST_ITERATIONS, patient: true })
      : await hashSecret(secret, TEST_ITERATIONS, { patient: true }),
    ...overrides,
  };
  const created = await insert_user(t.deps.sql, user);
  if (!created.ok) throw new Error(`makeUser: ${created.reason}`);
  return { id: created.id, username: (user.email ?? user.docNumber)!, secret };
}

/** A valid registration body; override any field. */
export function registrationBody(overrides: Record<string, unknown> = {}) {
  return {
    userType: 'attorney',
    firstName: 'Grace',
    lastName: 'Hopper',
    email: `reg-${unique()}@example.test`,
    password: 'Str0ng-Passw0rd!',
    confirmPassword: 'Str0ng-Passw0rd!',
    barNumber: 'BAR12345',
    barState: 'MO',
    phone: '555-123-4567',
    addressLine1: '1 Court St',
    addressLine2: null,
    city: 'Jefferson City',
    state: 'MO',
    zipCode: '65101',
    isRepresentative: false,
    supervisingAttorneyName: null,
    supervisingAttorneyBar: null,
    supervisingAttorneyEmail: null,
    ...overrides,
  };
}

/**
 * Sends a registration to a running server as the form does (registrationBody with `overrides`), so that the
 * approver's list has a row to act on.
 */
export async function registerApplicant(url: string, overrides: Record<string, unknown> = {}): Promise<void> {
  const response = await fetch(`${url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(registrationBody(overrides)),
  });
  assert.equal(response.status, 201, await response.text());
}
